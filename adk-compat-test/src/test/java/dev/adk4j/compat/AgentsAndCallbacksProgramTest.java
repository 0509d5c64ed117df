package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.events.Event,
// com.google.adk.runner.InMemoryRunner, com.google.adk.sessions.Session,
// com.google.adk.tools.* (prefix swap only).
import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.Instruction;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * An LlmAgent with a name ADK accepts (with a space), an instruction template, a tool and the four
 * kinds of callbacks, run by {@code new InMemoryRunner(agent)} on a session created under {@code
 * runner.appName()}.
 */
class AgentsAndCallbacksProgramTest {

  public static Map<String, Object> getWeather(
      @Schema(name = "city", description = "the city") String city, ToolContext toolContext) {
    toolContext.state().put("last_city", city);
    return Map.of("city", city, "forecast", "sunny");
  }

  @Test
  void weatherAgent_runsWithCallbacks_onASessionOfTheRunnersApp() {
    QueueModel model =
        new QueueModel(
            QueueModel.call("getWeather", Map.of("city", "Paris")),
            QueueModel.text("It is sunny in Paris."));
    List<String> calls = new CopyOnWriteArrayList<>();
    LlmAgent agent =
        LlmAgent.builder()
            .name("weather agent")
            .description("Answers weather questions")
            .model(model)
            .instruction("You answer {user:name}'s weather questions.")
            .tools(FunctionTool.create(AgentsAndCallbacksProgramTest.class, "getWeather"))
            .beforeAgentCallback(
                callbackContext -> {
                  calls.add("beforeAgent");
                  return Maybe.empty();
                })
            .beforeModelCallback(
                (callbackContext, llmRequest) -> {
                  calls.add("beforeModel");
                  return Maybe.empty();
                })
            .afterModelCallback(
                (callbackContext, llmResponse) -> {
                  calls.add("afterModel");
                  return Maybe.empty();
                })
            .beforeToolCallback(
                (invocationContext, tool, args, toolContext) -> {
                  calls.add("beforeTool " + tool.name());
                  return Maybe.empty();
                })
            .afterToolCallback(
                (invocationContext, tool, args, toolContext, response) -> {
                  calls.add("afterTool " + tool.name());
                  return Maybe.empty();
                })
            .build();
    InMemoryRunner runner = new InMemoryRunner(agent);
    ConcurrentHashMap<String, Object> state = new ConcurrentHashMap<>();
    state.put("user:name", "Ada");
    Session session =
        runner.sessionService().createSession(runner.appName(), "user1", state, null).blockingGet();

    List<Event> events =
        runner
            .runAsync("user1", session.id(), Content.fromParts(Part.fromText("Weather in Paris?")))
            .toList()
            .blockingGet();

    assertThat(runner.appName()).isEqualTo("weather agent");
    assertThat(events.get(events.size() - 1).stringifyContent()).isEqualTo("It is sunny in Paris.");
    assertThat(events.get(events.size() - 1).finalResponse()).isTrue();
    assertThat(calls)
        .containsExactly(
            "beforeAgent",
            "beforeModel",
            "afterModel",
            "beforeTool getWeather",
            "afterTool getWeather",
            "beforeModel",
            "afterModel");
    assertThat(model.requests.get(0).getSystemInstructions().toString())
        .contains("You answer Ada's weather questions.");
    Session after =
        runner
            .sessionService()
            .getSession(runner.appName(), "user1", session.id(), java.util.Optional.empty())
            .blockingGet();
    assertThat(after.state()).containsEntry("last_city", "Paris");
  }

  @Test
  void agentGetters_answerAsAdks() {
    LlmAgent agent =
        LlmAgent.builder()
            .name("helper")
            .model(new QueueModel())
            .instruction("Be brief.")
            .globalInstruction("Be kind.")
            .beforeAgentCallback(callbackContext -> Maybe.empty())
            .tools(FunctionTool.create(AgentsAndCallbacksProgramTest.class, "getWeather"))
            .build();

    assertThat(agent.instruction()).isEqualTo(new Instruction.Static("Be brief."));
    assertThat(agent.globalInstruction()).isEqualTo(new Instruction.Static("Be kind."));
    assertThat(agent.canonicalBeforeAgentCallbacks()).hasSize(1);
    assertThat(agent.canonicalAfterAgentCallbacks()).isEmpty();
    assertThat(agent.canonicalTools().map(t -> t.name()).toList().blockingGet())
        .containsExactly("getWeather");
    assertThat(LlmAgent.builder().name("x").model(new QueueModel()).build().instruction())
        .isEqualTo(new Instruction.Static(""));
  }

  @Test
  void syncCallbacks_modelAndTool_runAndMayAnswer() {
    QueueModel model =
        new QueueModel(
            QueueModel.call("getWeather", Map.of("city", "Oslo")), QueueModel.text("unused"));
    List<String> calls = new CopyOnWriteArrayList<>();
    LlmAgent agent =
        LlmAgent.builder()
            .name("sync agent")
            .model(model)
            .tools(FunctionTool.create(AgentsAndCallbacksProgramTest.class, "getWeather"))
            .beforeModelCallbackSync(
                (callbackContext, llmRequest) -> {
                  calls.add("beforeModel");
                  return java.util.Optional.empty();
                })
            .afterModelCallbackSync(
                (callbackContext, llmResponse) -> {
                  calls.add("afterModel");
                  return calls.size() > 3
                      ? java.util.Optional.of(QueueModel.text("replaced"))
                      : java.util.Optional.empty();
                })
            .beforeToolCallbackSync(
                (invocationContext, tool, args, toolContext) -> {
                  calls.add("beforeTool " + args.get("city"));
                  return java.util.Optional.empty();
                })
            .afterToolCallbackSync(
                (invocationContext, tool, args, toolContext, response) -> {
                  calls.add("afterTool " + ((Map<?, ?>) response).get("forecast"));
                  return java.util.Optional.of(Map.<String, Object>of("forecast", "snow"));
                })
            .build();
    InMemoryRunner runner = new InMemoryRunner(agent);
    Session session = runner.sessionService().createSession(runner.appName(), "u").blockingGet();

    List<Event> events =
        runner
            .runAsync("u", session.id(), Content.fromParts(Part.fromText("Oslo?")))
            .toList()
            .blockingGet();

    assertThat(calls)
        .containsExactly(
            "beforeModel",
            "afterModel",
            "beforeTool Oslo",
            "afterTool sunny",
            "beforeModel",
            "afterModel");
    assertThat(events.get(events.size() - 1).stringifyContent()).isEqualTo("replaced");
    assertThat(events)
        .anySatisfy(
            e ->
                assertThat(e.functionResponses())
                    .anySatisfy(
                        r ->
                            assertThat(r.response().orElseThrow())
                                .containsExactly(Map.entry("forecast", "snow"))));
  }
}
