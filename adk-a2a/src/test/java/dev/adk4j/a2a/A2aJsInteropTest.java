package dev.adk4j.a2a;

import static dev.adk4j.a2a.A2aFixtures.lastText;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testsupport.Contents;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * adk4j against the official A2A JavaScript SDK ({@code @a2a-js/sdk} 1.3.0 from npm, its v0.3
 * compatibility layer on): the SDK's client calling an adk4j {@link A2aServer}, and {@link
 * RemoteA2aAgent} calling an agent served by the SDK's server, including a task that needs input.
 */
class A2aJsInteropTest {

  static final RunConfig CREATE = RunConfig.builder().autoCreateSession(true).build();

  @Test
  void theJsSdkClient_talksToAnAdk4jServer() throws Exception {
    Path script = NodeA2a.script("js-client.mjs");
    InMemorySessionService sessions = new InMemorySessionService();
    try (A2aServer server = A2aFixtures.serve(A2aFixtures.helper(), sessions)) {
      Process p = new ProcessBuilder("node", script.toString(), server.url().toString()).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as("js-client.mjs failed: %s%s", out, err).isZero();
      JsonNode seen = A2aWire.JSON.readTree(out.trim());

      assertThat(seen.path("card").path("name").asText()).isEqualTo("helper");
      assertThat(seen.path("card").path("skills").toString())
          .isEqualTo("[\"helper\",\"forecast\"]");
      assertThat(seen.path("first").path("answer").asText()).isEqualTo("turn 1: hello from js");
      assertThat(seen.path("second").path("answer").asText()).isEqualTo("turn 2: again");
      String contextId = seen.path("first").path("contextId").asText();
      assertThat(seen.path("second").path("contextId").asText()).isEqualTo(contextId);
      assertThat(seen.path("stream").path("answer").asText()).isEqualTo("turn 3: streamed");
      assertThat(seen.path("stream").path("kinds").toString())
          .contains("task", "statusUpdate", "artifactUpdate");
      assertThat(seen.path("get").path("answer").asText()).isEqualTo("turn 1: hello from js");
      assertThat(seen.path("unknownTask").asText()).containsIgnoringCase("not found");
      Session session = A2aFixtures.remoteSession(sessions, contextId);
      assertThat(session.state()).containsEntry("turns", 3);
    }
  }

  static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aRemoteA2aAgent_callsAJsSdkServer_andAnswersItsInputRequest(boolean streaming)
      throws Exception {
    NodeA2a.requireNode();
    int port = freePort();
    Process js = NodeA2a.startServer(port);
    try {
      RemoteA2aAgent remote =
          RemoteA2aAgent.builder()
              .name("js_echo")
              .url("http://127.0.0.1:" + port)
              .streaming(streaming)
              .outputKey("echo")
              .build();
      assertThat(remote.description()).isEqualTo("Echoes what it hears (an agent on @a2a-js/sdk).");
      Runner runner = new InMemoryRunner(remote, "app");

      List<Event> first =
          runner.runAsync("u", "s", Contents.user("ping"), CREATE).toList().blockingGet();
      assertThat(lastText(first)).isEqualTo("js heard: ping");

      List<Event> paused =
          runner.runAsync("u", "s", Contents.user("need input"), CREATE).toList().blockingGet();
      Event question = paused.get(paused.size() - 1);
      assertThat(question.hasPendingLongRunningToolCall()).isTrue();
      assertThat(question.stringifyContent()).isEqualTo("js asks: which city?");
      FunctionCall call = question.functionCalls().get(0);

      Content answer =
          Content.builder()
              .role("user")
              .parts(
                  Part.builder()
                      .functionResponse(
                          FunctionResponse.builder()
                              .id(call.id().orElseThrow())
                              .name(RemoteA2aAgent.INPUT_REQUIRED_FUNCTION)
                              .response(Map.of("text", "Lisbon"))
                              .build())
                      .build())
              .build();
      List<Event> resumed = runner.runAsync("u", "s", answer, CREATE).toList().blockingGet();
      assertThat(lastText(resumed)).isEqualTo("js got: Lisbon");
      Session s =
          runner
              .sessionService()
              .getSession("app", "u", "s", java.util.Optional.empty())
              .blockingGet();
      assertThat(s.state()).containsEntry("echo", "js got: Lisbon");
      // The remote conversation is one context throughout.
      assertThat(s.state().get(remote.contextStateKey()))
          .isEqualTo(call.args().orElseThrow().get("contextId"));
    } finally {
      NodeA2a.stop(js);
    }
  }
}
