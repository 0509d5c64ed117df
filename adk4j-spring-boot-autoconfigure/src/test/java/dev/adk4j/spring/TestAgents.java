package dev.adk4j.spring;

import com.google.genai.types.Content;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.Runner;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import java.util.List;
import java.util.Map;

/** Agents on scripted models for the tests, and a helper that runs one turn. */
final class TestAgents {
  private TestAgents() {}

  /**
   * A model that calls {@code lookup} once per turn, then answers "echo: " and the user's text,
   * reporting 7 input and 3 output tokens per response.
   */
  static ScriptedLlm echoModel() {
    return ScriptedLlm.answering(
        req -> {
          if (ScriptedLlm.functionResponses(req).isEmpty()) {
            return ScriptedLlm.functionCallResponse("lookup", Map.of("key", "k"));
          }
          return ScriptedLlm.textResponse("echo: " + ScriptedLlm.userText(req)).toBuilder()
              .usageMetadata(
                  GenerateContentResponseUsageMetadata.builder()
                      .promptTokenCount(7)
                      .candidatesTokenCount(3)
                      .build())
              .build();
        });
  }

  public static Map<String, Object> lookup(@Schema(name = "key") String key) {
    return Map.of("value", "v-" + key);
  }

  static LlmAgent agent(String name) {
    return LlmAgent.builder()
        .name(name)
        .model(echoModel())
        .instruction("Answer.")
        .tools(FunctionTool.create(TestAgents.class, "lookup"))
        .build();
  }

  /** Runs one turn and returns its events. */
  static List<Event> turn(Runner runner, String user, String session, String text) {
    if (runner
        .sessionService()
        .getSession(runner.appName(), user, session, java.util.Optional.empty())
        .isEmpty()
        .blockingGet()) {
      runner.sessionService().createSession(runner.appName(), user, null, session).blockingGet();
    }
    return runner
        .runAsync(user, session, Content.fromParts(Part.fromText(text)))
        .toList()
        .blockingGet();
  }

  /** The text of the last event. */
  static String lastText(List<Event> events) {
    Event last = events.get(events.size() - 1);
    return last.content().orElseThrow().parts().orElseThrow().get(0).text().orElseThrow();
  }
}
