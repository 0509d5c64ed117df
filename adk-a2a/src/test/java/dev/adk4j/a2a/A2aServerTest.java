package dev.adk4j.a2a;

import static dev.adk4j.a2a.A2aFixtures.lastText;
import static dev.adk4j.a2a.A2aFixtures.rpc;
import static dev.adk4j.runner.InvocationFailedException.throwIfFailed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testsupport.Contents;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An adk4j agent served over A2A and called by another adk4j app through {@link RemoteA2aAgent}:
 * the card, one A2A context as one session of the remote app on every backend, the JSON-RPC methods
 * and their errors.
 */
class A2aServerTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  @TempDir static Path dir;

  @ParameterizedTest
  @EnumSource(A2aFixtures.Backend.class)
  void aContext_isOneSession_whoseStateLastsAcrossTurns(A2aFixtures.Backend backend)
      throws Exception {
    BaseSessionService remoteSessions = A2aFixtures.sessions(backend, dir, POSTGRES);
    try (A2aServer server = A2aFixtures.serve(A2aFixtures.helper(), remoteSessions)) {
      RemoteA2aAgent remote =
          RemoteA2aAgent.builder().name("helper").url(server.url().toString()).build();
      Runner local = new InMemoryRunner(remote, "local-app");
      RunConfig create = RunConfig.builder().autoCreateSession(true).build();

      List<Event> first =
          local.runAsync("u", "s", Contents.user("hello"), create).toList().blockingGet();
      List<Event> second =
          local.runAsync("u", "s", Contents.user("again"), create).toList().blockingGet();

      assertThat(lastText(first)).isEqualTo("turn 1: hello");
      assertThat(lastText(second)).isEqualTo("turn 2: again");
      Session localSession =
          local
              .sessionService()
              .getSession("local-app", "u", "s", java.util.Optional.empty())
              .blockingGet();
      String contextId = (String) localSession.state().get(remote.contextStateKey());
      assertThat(contextId).isNotBlank();
      Session remoteSession = A2aFixtures.remoteSession(remoteSessions, contextId);
      assertThat(remoteSession.state()).containsEntry("turns", 2);
      // Each turn: the user's message, the callback's state event, the answer.
      assertThat(remoteSession.events())
          .extracting(Event::stringifyContent)
          .containsExactly("hello", "", "turn 1: hello", "again", "", "turn 2: again");
    }
  }

  @Test
  void agentCard_describesTheAgent_itsTools_andTheEndpoint() throws Exception {
    try (A2aServer server =
        A2aFixtures.serve(A2aFixtures.helper(), new dev.adk4j.sessions.InMemorySessionService())) {
      RemoteA2aAgent remote =
          RemoteA2aAgent.builder().name("r").url(server.url().toString()).build();
      JsonNode card = A2aWire.JSON.readTree(remote.agentCardJson());

      assertThat(remote.agentCardUrl().toString()).endsWith("/.well-known/agent-card.json");
      assertThat(remote.description())
          .isEqualTo("Answers with the turn number of the conversation.");
      assertThat(remote.endpoint()).isEqualTo(server.url());
      assertThat(remote.streaming()).isTrue();
      assertThat(card.path("protocolVersion").asText()).isEqualTo("0.3.0");
      assertThat(card.path("preferredTransport").asText()).isEqualTo("JSONRPC");
      assertThat(card.path("skills").findValuesAsText("name"))
          .containsExactly("helper", "forecast");
      assertThat(card.path("skills").get(1).path("description").asText())
          .isEqualTo("Tells the weather of a city.");
    }
  }

  @Test
  void jsonRpc_sendGetCancel_andTheirErrors() throws Exception {
    try (A2aServer server =
        A2aFixtures.serve(A2aFixtures.helper(), new dev.adk4j.sessions.InMemorySessionService())) {
      JsonNode sent =
          rpc(server.url(), "message/send", A2aFixtures.userMessage("hi", "ctx-1", null));
      JsonNode task = sent.path("result");
      assertThat(task.path("kind").asText()).isEqualTo("task");
      assertThat(task.path("contextId").asText()).isEqualTo("ctx-1");
      assertThat(task.path("status").path("state").asText()).isEqualTo("completed");
      assertThat(task.path("artifacts").get(0).path("parts").get(0).path("text").asText())
          .isEqualTo("turn 1: hi");
      assertThat(task.path("history").findValuesAsText("role")).containsExactly("user", "agent");

      String id = task.path("id").asText();
      JsonNode got = rpc(server.url(), "tasks/get", A2aWire.NODES.objectNode().put("id", id));
      assertThat(got.path("result").path("status").path("state").asText()).isEqualTo("completed");
      JsonNode cancel = rpc(server.url(), "tasks/cancel", A2aWire.NODES.objectNode().put("id", id));
      assertThat(cancel.path("error").path("code").asInt()).isEqualTo(-32002);

      JsonNode unknown =
          rpc(server.url(), "tasks/get", A2aWire.NODES.objectNode().put("id", "nope"));
      assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32001);
      assertThat(unknown.path("error").path("message").asText()).contains("nope");
      assertThat(
              rpc(server.url(), "tasks/launch", A2aWire.NODES.objectNode())
                  .path("error")
                  .path("code")
                  .asInt())
          .isEqualTo(-32601);
      JsonNode noParts =
          rpc(
              server.url(),
              "message/send",
              A2aWire.JSON.readTree(
                  "{\"message\":{\"kind\":\"message\",\"messageId\":\"m\",\"role\":\"user\",\"parts\":[]}}"));
      assertThat(noParts.path("error").path("code").asInt()).isEqualTo(-32602);
      assertThat(noParts.path("error").path("message").asText())
          .isEqualTo("params.message.parts must be a non-empty array");
      JsonNode garbage = A2aFixtures.post(server.url(), "{not json", Map.of());
      assertThat(garbage.path("error").path("code").asInt()).isEqualTo(-32700);
      JsonNode notInput =
          rpc(server.url(), "message/send", A2aFixtures.userMessage("more", "ctx-1", id));
      assertThat(notInput.path("error").path("message").asText())
          .contains(id, "completed", "not input-required");
    }
  }

  @Test
  void bearerToken_isRequired_andSentByTheRemoteAgentAsAHeader() throws Exception {
    Runner runner =
        new Runner(
            A2aFixtures.helper(),
            "remote-app",
            null,
            new dev.adk4j.sessions.InMemorySessionService());
    try (A2aServer server = A2aServer.builder().runner(runner).bearerToken("s3cret").build()) {
      server.start("127.0.0.1", 0);
      JsonNode card = A2aWire.JSON.readTree(server.agentCardJson());
      assertThat(card.path("securitySchemes").path("bearer").path("scheme").asText())
          .isEqualTo("bearer");
      assertThat(A2aFixtures.post(server.url(), "{}", Map.of()).path("httpStatus").asInt())
          .isEqualTo(401);

      RemoteA2aAgent without =
          RemoteA2aAgent.builder().name("r").url(server.url().toString()).build();
      assertThatThrownBy(
              () ->
                  throwIfFailed(
                      new InMemoryRunner(without, "l")
                          .runAsync(
                              "u",
                              "s",
                              Contents.user("x"),
                              RunConfig.builder().autoCreateSession(true).build())
                          .toList()
                          .blockingGet()))
          .isInstanceOf(A2aException.class)
          .hasMessageContaining("HTTP 401")
          .hasMessageContaining(server.url().toString());
      RemoteA2aAgent with =
          RemoteA2aAgent.builder()
              .name("r")
              .url(server.url().toString())
              .header("Authorization", "Bearer s3cret")
              .build();
      List<Event> events =
          new InMemoryRunner(with, "l")
              .runAsync(
                  "u", "s", Contents.user("x"), RunConfig.builder().autoCreateSession(true).build())
              .toList()
              .blockingGet();
      assertThat(lastText(events)).isEqualTo("turn 1: x");
    }
  }
}
