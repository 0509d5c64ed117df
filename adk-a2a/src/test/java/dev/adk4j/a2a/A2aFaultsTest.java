package dev.adk4j.a2a;

import static dev.adk4j.a2a.A2aFixtures.rpc;
import static dev.adk4j.runner.InvocationFailedException.throwIfFailed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.ParallelAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.disposables.Disposable;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What {@link RemoteA2aAgent} does when the remote is not there, answers malformed A2A messages, is
 * slow, or is still working when the local invocation fails or is disposed.
 */
class A2aFaultsTest {

  static final RunConfig CREATE = RunConfig.builder().autoCreateSession(true).build();

  @Test
  void aRemoteThatIsNotThere_failsAtBuild_namingTheUrl() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    String url = "http://127.0.0.1:" + port;

    assertThatThrownBy(() -> RemoteA2aAgent.builder().name("gone").url(url).build())
        .isInstanceOf(A2aException.class)
        .hasMessageContaining("Remote A2A agent 'gone'")
        .hasMessageContaining(url + "/.well-known/agent-card.json")
        .hasMessageContaining("connection refused");
  }

  @Test
  void aCardOfA2a10Only_failsAtBuild_namingWhatItOffers() throws Exception {
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    String card =
        "{\"name\":\"new\",\"supportedInterfaces\":[{\"url\":\"http://x/\","
            + "\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\"}]}";
    http.createContext(
        "/",
        ex -> {
          byte[] out = card.getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, out.length);
          try (OutputStream o = ex.getResponseBody()) {
            o.write(out);
          }
        });
    http.start();
    try {
      String url = "http://127.0.0.1:" + http.getAddress().getPort();
      assertThatThrownBy(() -> RemoteA2aAgent.builder().name("new").url(url).build())
          .isInstanceOf(A2aException.class)
          .hasMessageContaining(url + "/.well-known/agent-card.json")
          .hasMessageContaining("offers [JSONRPC 1.0] but no JSON-RPC interface of A2A 0.3");
    } finally {
      http.stop(0);
    }
  }

  /** A server that serves a card and answers every JSON-RPC request with {@code body}. */
  static HttpServer scripted(String contentType, String body) throws Exception {
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    String base = "http://127.0.0.1:" + http.getAddress().getPort() + "/";
    String card =
        "{\"protocolVersion\":\"0.3.0\",\"name\":\"bad\",\"description\":\"d\",\"url\":\""
            + base
            + "\",\"preferredTransport\":\"JSONRPC\",\"version\":\"1\",\"capabilities\":{\"streaming\":"
            + contentType.equals("text/event-stream")
            + "},\"skills\":[]}";
    http.createContext(
        "/",
        ex -> {
          byte[] out =
              (ex.getRequestMethod().equals("GET") ? card : body).getBytes(StandardCharsets.UTF_8);
          ex.getRequestBody().readAllBytes();
          ex.getResponseHeaders()
              .add(
                  "Content-Type",
                  ex.getRequestMethod().equals("GET") ? "application/json" : contentType);
          ex.sendResponseHeaders(200, out.length);
          try (OutputStream o = ex.getResponseBody()) {
            o.write(out);
          }
        });
    http.start();
    return http;
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '~',
      value = {
        "application/json|<html>oops</html>|a body that is not JSON",
        "application/json|{\"jsonrpc\":\"2.0\",\"id\":1}|a response with neither result nor error",
        "application/json|{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"poem\"}}|a result whose kind is 'poem'",
        "application/json|{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"task\",\"id\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"pondering\"}}}|the task has the unknown state 'pondering'",
        "application/json|{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"message\",\"role\":\"agent\",\"parts\":[{\"kind\":\"text\"}]}}|the message.parts[0].text must be a string",
        "text/event-stream|data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"status-update\",\"taskId\":\"t\"}}\\n\\n|the status update has no contextId",
        "text/event-stream|data: {not json}\\n\\n|a stream event that is not JSON",
      })
  void malformedA2aMessages_failTheInvocation_namingTheUrl_andLeaveAValidHistory(
      String contentType, String body, String problem) throws Exception {
    HttpServer http = scripted(contentType, body.replace("\\n", "\n"));
    try {
      String url = "http://127.0.0.1:" + http.getAddress().getPort() + "/";
      RemoteA2aAgent remote = RemoteA2aAgent.builder().name("bad").url(url).build();
      Runner runner = new InMemoryRunner(remote, "app");

      assertThatThrownBy(
              () ->
                  throwIfFailed(
                      runner
                          .runAsync("u", "s", Contents.user("hi"), CREATE)
                          .toList()
                          .blockingGet()))
          .isInstanceOf(A2aException.class)
          .hasMessageContaining("Remote A2A agent 'bad' at " + url)
          .hasMessageContaining("malformed A2A message: " + problem);
      assertValidHistory(runner, problem);
    } finally {
      http.stop(0);
    }
  }

  /**
   * The session holds the user's message and the runner's error event for the failed invocation
   * (nothing of the remote's), and takes the next turn.
   */
  static void assertValidHistory(Runner runner, String error) {
    Session s = runner.sessionService().getSession("app", "u", "s", Optional.empty()).blockingGet();
    assertThat(s.events()).hasSize(2);
    assertThat(s.events().get(0).author()).isEqualTo("user");
    Event failed = s.events().get(1);
    assertThat(failed.content()).isEmpty();
    assertThat(failed.errorMessage()).hasValueSatisfying(m -> assertThat(m).contains(error));
  }

  /** A remote whose model never answers; {@code started} and {@code canceled} say what happened. */
  record Hanging(A2aServer server, CountDownLatch started, CountDownLatch canceled) {}

  static Hanging hanging() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch canceled = new CountDownLatch(1);
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFlowable(
                req ->
                    Flowable.<LlmResponse>never()
                        .doOnSubscribe(s -> started.countDown())
                        .doOnCancel(canceled::countDown))
            .build();
    LlmAgent slow = LlmAgent.builder().name("slow").model(model).build();
    return new Hanging(A2aFixtures.serve(slow, new InMemorySessionService()), started, canceled);
  }

  @Test
  void aSlowRemote_timesOut_withAClearError_aValidHistory_andItsTaskCanceled() throws Exception {
    Hanging remote = hanging();
    try (A2aServer server = remote.server()) {
      RemoteA2aAgent agent =
          RemoteA2aAgent.builder()
              .name("slow")
              .url(server.url().toString())
              .timeout(Duration.ofSeconds(1))
              .build();
      Runner runner = new InMemoryRunner(agent, "app");

      Throwable error =
          org.assertj.core.api.Assertions.catchThrowable(
              () ->
                  throwIfFailed(
                      runner
                          .runAsync("u", "s", Contents.user("hi"), CREATE)
                          .toList()
                          .blockingGet()));

      assertThat(error)
          .isInstanceOf(A2aException.class)
          .hasMessageContaining("Remote A2A agent 'slow' at " + server.url())
          .hasMessageContaining("did not finish within PT1S")
          .hasMessageContaining("the remote task was canceled");
      assertThat(remote.canceled().await(10, TimeUnit.SECONDS)).isTrue();
      Matcher task = Pattern.compile("\\(task ([^)]+)\\)").matcher(error.getMessage());
      assertThat(task.find()).isTrue();
      A2aLongRunningTest.JsonNodeAssert.state(
          rpc(server.url(), "tasks/get", A2aLongRunningTest.taskParams(task.group(1))), "canceled");
      assertValidHistory(runner, "did not finish within PT1S");
    }
  }

  @Test
  void whenTheLocalInvocationFails_theRemoteTaskIsCanceled() throws Exception {
    Hanging remote = hanging();
    try (A2aServer server = remote.server()) {
      RemoteA2aAgent agent =
          RemoteA2aAgent.builder().name("slow").url(server.url().toString()).build();
      LlmAgent failing =
          LlmAgent.builder()
              .name("failing")
              .model(
                  ScriptedLlm.builder()
                      .thenFlowable(
                          req -> {
                            try {
                              remote.started().await(10, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                              Thread.currentThread().interrupt();
                            }
                            return Flowable.error(new IllegalStateException("local failure"));
                          })
                      .build())
              .build();
      Runner runner =
          new InMemoryRunner(
              ParallelAgent.builder().name("both").subAgents(agent, failing).build(), "app");

      assertThatThrownBy(
              () ->
                  throwIfFailed(
                      runner
                          .runAsync("u", "s", Contents.user("hi"), CREATE)
                          .toList()
                          .blockingGet()))
          .hasMessageContaining("local failure");
      assertThat(remote.canceled().await(10, TimeUnit.SECONDS))
          .as("the remote invocation was disposed by tasks/cancel")
          .isTrue();
    }
  }

  @Test
  void whenTheLocalInvocationIsDisposed_theRemoteTaskIsCanceled() throws Exception {
    Hanging remote = hanging();
    try (A2aServer server = remote.server()) {
      RemoteA2aAgent agent =
          RemoteA2aAgent.builder().name("slow").url(server.url().toString()).build();
      Runner runner = new InMemoryRunner(agent, "app");

      Disposable run =
          runner
              .runAsync("u", "s", Contents.user("hi"), CREATE)
              .subscribeOn(io.reactivex.rxjava3.schedulers.Schedulers.io()) // to cancel midway
              .subscribe(e -> {}, e -> {});
      assertThat(remote.started().await(10, TimeUnit.SECONDS)).isTrue();
      run.dispose();

      assertThat(remote.canceled().await(10, TimeUnit.SECONDS))
          .as("the remote invocation was disposed by tasks/cancel")
          .isTrue();
    }
  }

  @Test
  void aRemoteTaskThatFails_failsTheInvocation_withTheRemotesReason() throws Exception {
    LlmAgent broken =
        LlmAgent.builder()
            .name("broken")
            .model(ScriptedLlm.builder().thenError(new IllegalStateException("model down")).build())
            .build();
    try (A2aServer server = A2aFixtures.serve(broken, new InMemorySessionService())) {
      RemoteA2aAgent agent =
          RemoteA2aAgent.builder().name("broken").url(server.url().toString()).build();
      Runner runner = new InMemoryRunner(agent, "app");

      assertThatThrownBy(
              () ->
                  throwIfFailed(
                      runner
                          .runAsync("u", "s", Contents.user("hi"), CREATE)
                          .toList()
                          .blockingGet()))
          .isInstanceOf(A2aException.class)
          .hasMessageContaining("Remote A2A agent 'broken' at " + server.url())
          .hasMessageContaining(
              " failed: The agent 'broken' failed: IllegalStateException: model down");
      assertValidHistory(runner, "model down");
    }
  }
}
