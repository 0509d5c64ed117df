package dev.adk4j.tools.mcp;

import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.runner.Runner;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.BaseToolset;
import java.util.List;
import java.util.Map;

/** Runs one model-requested tool call through an agent and a runner, as an application would. */
final class McpTestAgents {
  private McpTestAgents() {}

  /** The function response the model's call of {@code tool} with {@code args} got. */
  static Map<String, Object> call(BaseToolset toolset, String tool, Map<String, ?> args) {
    ScriptedLlm model = ScriptedLlm.builder().thenFunctionCall(tool, args).thenText("done").build();
    LlmAgent agent = LlmAgent.builder().name("agent").model(model).toolsets(toolset).build();
    Runner runner = new InMemoryRunner(agent, "app");
    runner.sessionService().createSession("app", "u", null, "s").blockingGet();
    List<Event> events = runner.runAsync("u", "s", Contents.user("go")).toList().blockingGet();
    return functionResponse(events);
  }

  static Map<String, Object> functionResponse(List<Event> events) {
    for (Event e : events) {
      for (Part p : e.content().flatMap(c -> c.parts()).orElse(List.of())) {
        if (p.functionResponse().isPresent()) {
          FunctionResponse r = p.functionResponse().get();
          return r.response().orElse(Map.of());
        }
      }
    }
    throw new AssertionError("no function response among " + events);
  }
}
