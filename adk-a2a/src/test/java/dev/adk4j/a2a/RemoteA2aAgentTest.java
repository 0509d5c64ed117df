package dev.adk4j.a2a;

import static dev.adk4j.a2a.A2aFixtures.lastText;
import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.agents.SequentialAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.AgentTool;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link RemoteA2aAgent} in adk4j trees, against an adk4j agent served by {@link A2aServer}: in a
 * sequence (its answer under a {@code temp:} output key, read by the next agent's instruction), as
 * the target of a transfer, and wrapped in an {@link AgentTool}; over {@code message/stream} and
 * {@code message/send}.
 */
class RemoteA2aAgentTest {

  static A2aServer server;

  @BeforeAll
  static void start() throws Exception {
    server = A2aFixtures.serve(A2aFixtures.helper(), new InMemorySessionService());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static final RunConfig CREATE = RunConfig.builder().autoCreateSession(true).build();

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void inASequence_theAnswerGoesToTheOutputKey_andTheNextAgentReadsIt(boolean streaming) {
    RemoteA2aAgent remote =
        RemoteA2aAgent.builder()
            .name("helper")
            .url(server.url().toString())
            .streaming(streaming)
            .outputKey("temp:helper_answer")
            .build();
    ScriptedLlm writerModel = ScriptedLlm.builder().thenText("written").build();
    LlmAgent writer =
        LlmAgent.builder()
            .name("writer")
            .model(writerModel)
            .instruction("The helper said: {temp:helper_answer}")
            .outputKey("final")
            .build();
    Runner runner =
        new InMemoryRunner(
            SequentialAgent.builder().name("pipeline").subAgents(remote, writer).build(), "app");

    List<Event> events =
        runner.runAsync("u", "s", Contents.user("plan a trip"), CREATE).toList().blockingGet();

    assertThat(events).extracting(Event::author).containsExactly("helper", "writer");
    Event answer = events.get(0);
    assertThat(answer.stringifyContent()).isEqualTo("turn 1: plan a trip");
    assertThat(answer.actions().stateDelta()).containsKey(remote.contextStateKey());
    assertThat(writerModel.instructions().get(0)).isEqualTo("The helper said: turn 1: plan a trip");
    Session stored =
        runner.sessionService().getSession("app", "u", "s", Optional.empty()).blockingGet();
    assertThat(stored.state())
        .doesNotContainKey("temp:helper_answer")
        .containsEntry("final", "written");
    assertThat(stored.events().get(1).actions().stateDelta())
        .doesNotContainKey("temp:helper_answer");
  }

  @Test
  void aSessionOutputKey_isStored_andTheRemoteGetsWhatEarlierAgentsSaid() {
    LlmAgent first =
        LlmAgent.builder()
            .name("first")
            .model(ScriptedLlm.builder().thenText("the budget is 300").build())
            .build();
    RemoteA2aAgent remote =
        RemoteA2aAgent.builder()
            .name("helper")
            .url(server.url().toString())
            .outputKey("plan")
            .build();
    Runner runner =
        new InMemoryRunner(
            SequentialAgent.builder().name("pipeline").subAgents(first, remote).build(), "app");

    List<Event> events =
        runner.runAsync("u", "s", Contents.user("go"), CREATE).toList().blockingGet();

    // Two parts reach the remote: the user's message, then what the first agent said.
    assertThat(lastText(events))
        .isEqualTo("turn 1: goFor context: [first] said: the budget is 300");
    Session stored =
        runner.sessionService().getSession("app", "u", "s", Optional.empty()).blockingGet();
    assertThat(stored.state()).containsEntry("plan", lastText(events));
  }

  @Test
  void anLlmAgent_transfersToTheRemoteAgent() {
    RemoteA2aAgent remote =
        RemoteA2aAgent.builder().name("helper").url(server.url().toString()).build();
    LlmAgent root =
        LlmAgent.builder()
            .name("root")
            .model(
                ScriptedLlm.builder()
                    .thenFunctionCall("transfer_to_agent", Map.of("agent_name", "helper"))
                    .build())
            .subAgents(remote)
            .build();
    Runner runner = new InMemoryRunner(root, "app");

    List<Event> events =
        runner.runAsync("u", "s", Contents.user("weather?"), CREATE).toList().blockingGet();

    assertThat(events.get(events.size() - 1).author()).isEqualTo("helper");
    assertThat(lastText(events)).isEqualTo("turn 1: weather?");
  }

  @Test
  void wrappedInAnAgentTool_theRemoteAnswersTheModelsCall() {
    RemoteA2aAgent remote =
        RemoteA2aAgent.builder().name("helper").url(server.url().toString()).build();
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("helper", Map.of("request", "name a city"))
            .thenAnswer(
                req ->
                    ScriptedLlm.textResponse(
                        "tool said "
                            + ScriptedLlm.functionResponses(req).get(0).response().orElseThrow()))
            .build();
    LlmAgent root =
        LlmAgent.builder().name("root").model(model).tools(AgentTool.create(remote)).build();

    List<Event> events =
        new InMemoryRunner(root, "app")
            .runAsync("u", "s", Contents.user("go"), CREATE)
            .toList()
            .blockingGet();

    assertThat(lastText(events)).startsWith("tool said {result=turn 1: ");
  }
}
