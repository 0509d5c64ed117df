package dev.adk4j.a2a;

import static dev.adk4j.a2a.A2aFixtures.rpc;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.agents.SequentialAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.LongRunningFunctionTool;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A remote task that needs input pauses the local invocation as a long-running tool does, and the
 * next turn resumes it on other instances: the local side on a second runner over the same SQLite
 * file, the remote side on a second {@link A2aServer} over the remote's SQLite file, each with new
 * agents and models, nothing shared in memory.
 */
class A2aLongRunningTest {

  @TempDir Path dir;

  /** The remote's long-running tool: asks a manager, who answers later. */
  public static final class Approvals {
    @Schema(name = "ask_for_approval", description = "Asks the manager to approve an expense.")
    public Map<String, Object> askForApproval(@Schema(name = "amount") int amount) {
      return Map.of("status", "pending", "amount", amount);
    }
  }

  static LlmAgent approver(ScriptedLlm model) {
    return LlmAgent.builder()
        .name("approver")
        .description("Gets expenses approved.")
        .model(model)
        .tools(LongRunningFunctionTool.create(new Approvals(), "askForApproval"))
        .build();
  }

  static SequentialAgent local(String remoteUrl, ScriptedLlm afterModel) {
    return SequentialAgent.builder()
        .name("expenses")
        .subAgents(
            RemoteA2aAgent.builder().name("approver").url(remoteUrl).outputKey("decision").build(),
            LlmAgent.builder().name("after").model(afterModel).build())
        .build();
  }

  @Test
  void inputRequired_pausesTheInvocation_andTheNextTurnResumesItOnOtherInstances()
      throws Exception {
    String remoteDb = "jdbc:sqlite:" + dir.resolve("remote.db");
    String localDb = "jdbc:sqlite:" + dir.resolve("local.db");
    RunConfig create = RunConfig.builder().autoCreateSession(true).build();

    // Turn 1: the remote agent calls its long-running tool; its task ends input-required.
    Event paused;
    String contextId;
    ScriptedLlm afterModel1 = ScriptedLlm.builder().build();
    try (DatabaseSessionService remoteSessions = new DatabaseSessionService(remoteDb);
        A2aServer remote1 =
            A2aFixtures.serve(
                approver(
                    ScriptedLlm.builder()
                        .thenFunctionCall("ask_for_approval", Map.of("amount", 50))
                        .build()),
                remoteSessions);
        DatabaseSessionService localSessions = new DatabaseSessionService(localDb);
        Runner runner =
            new Runner(local(remote1.url().toString(), afterModel1), "app", null, localSessions)) {
      List<Event> events =
          runner.runAsync("u", "s", Contents.user("approve 50"), create).toList().blockingGet();

      assertThat(events).extracting(Event::author).containsExactly("approver");
      paused = events.get(0);
      assertThat(paused.hasPendingLongRunningToolCall()).isTrue();
      FunctionCall call = paused.functionCalls().get(0);
      assertThat(call.name()).contains(RemoteA2aAgent.INPUT_REQUIRED_FUNCTION);
      assertThat(paused.stringifyContent())
          .contains("The agent waits for the answer to its call of 'ask_for_approval'")
          .contains("\"status\":\"pending\"");
      assertThat(afterModel1.callCount()).isZero();
      contextId = (String) call.args().orElseThrow().get("contextId");
      String taskId = (String) call.args().orElseThrow().get("taskId");
      JsonNodeAssert.state(rpc(remote1.url(), "tasks/get", taskParams(taskId)), "input-required");
    }

    // Turn 2, on new instances of both sides: the answer resumes the remote task, then the
    // sequence goes on with the agent after the remote one.
    FunctionCall call = paused.functionCalls().get(0);
    String taskId = (String) call.args().orElseThrow().get("taskId");
    ScriptedLlm remoteModel2 =
        ScriptedLlm.builder()
            .thenAnswer(
                req ->
                    ScriptedLlm.textResponse(
                        "manager says "
                            + ScriptedLlm.functionResponses(req).get(0).response().orElseThrow()))
            .build();
    ScriptedLlm afterModel2 = ScriptedLlm.builder().thenText("filed").build();
    try (DatabaseSessionService remoteSessions = new DatabaseSessionService(remoteDb);
        A2aServer remote2 = A2aFixtures.serve(approver(remoteModel2), remoteSessions);
        DatabaseSessionService localSessions = new DatabaseSessionService(localDb);
        Runner runner =
            new Runner(local(remote2.url().toString(), afterModel2), "app", null, localSessions)) {
      Content answer =
          Content.builder()
              .role("user")
              .parts(
                  Part.builder()
                      .functionResponse(
                          FunctionResponse.builder()
                              .id(call.id().orElseThrow())
                              .name(RemoteA2aAgent.INPUT_REQUIRED_FUNCTION)
                              .response(Map.of("text", "yes, approved"))
                              .build())
                      .build())
              .build();
      List<Event> events = runner.runAsync("u", "s", answer, create).toList().blockingGet();

      assertThat(events).extracting(Event::author).containsExactly("approver", "after");
      assertThat(events.get(0).stringifyContent()).isEqualTo("manager says {text=yes, approved}");
      assertThat(events).allMatch(e -> paused.invocationId().equals(e.invocationId()));
      Session local = localSessions.getSession("app", "u", "s", Optional.empty()).blockingGet();
      assertThat(local.state()).containsEntry("decision", "manager says {text=yes, approved}");
      JsonNodeAssert.state(rpc(remote2.url(), "tasks/get", taskParams(taskId)), "completed");
      Session remoteSession = A2aFixtures.remoteSession(remoteSessions, contextId);
      assertThat(remoteSession.events().get(remoteSession.events().size() - 1).stringifyContent())
          .isEqualTo("manager says {text=yes, approved}");
    }
  }

  static com.fasterxml.jackson.databind.node.ObjectNode taskParams(String id) {
    return A2aWire.NODES.objectNode().put("id", id);
  }

  /** Asserts the state of a tasks/get answer. */
  static final class JsonNodeAssert {
    static void state(com.fasterxml.jackson.databind.JsonNode answer, String state) {
      assertThat(answer.path("result").path("status").path("state").asText())
          .as("task state in %s", answer)
          .isEqualTo(state);
    }
  }
}
