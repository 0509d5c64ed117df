package dev.adk4j.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import io.reactivex.rxjava3.core.Flowable;
import java.io.BufferedReader;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An SSE client that disconnects mid-turn (a raw socket, closed after the first frame) leaves a
 * closed history in a SQLite store: the user's message, then the invocation's closing event ({@code
 * CANCELLED}), and an error response for a function call it left open; the next turn runs.
 */
class SseDisconnectTest {
  @TempDir Path dir;

  private AdkServer server;
  private DatabaseSessionService sessions;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    if (sessions != null) {
      sessions.close();
    }
  }

  private void start(LlmAgent agent) {
    sessions = new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("sse.db"));
    sessions.createSession("app", "u", null, "s").blockingGet();
    server =
        AdkServer.builder()
            .app("app", agent)
            .sessionService(sessions)
            .port(0)
            .sseHeartbeat(Duration.ofMillis(100))
            .start();
  }

  /** Sends a run over a raw socket, reads up to the first data frame, then closes the socket. */
  private void runAndHangUp(String text) throws Exception {
    String body = ServerClient.runBody("app", "u", "s", text, true);
    try (Socket socket = new Socket(server.url().getHost(), server.port())) {
      socket.setSoTimeout(20_000);
      BufferedReader in = ServerClient.postRunSse(socket, server.port(), body);
      assertThat(in.readLine()).startsWith("HTTP/1.1 200");
      String line;
      while ((line = in.readLine()) != null && !line.contains("data: ")) {
        // headers, chunk sizes, keep-alives
      }
      assertThat(line).as("a first frame arrived").isNotNull();
    } // the client goes away mid-turn
  }

  /** The session, re-read through the service until {@code done} holds (10 s at most). */
  private Session awaitSession(Predicate<Session> done) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    Session s = sessions.getSession("app", "u", "s").blockingGet();
    while (!done.test(s) && System.nanoTime() < deadline) {
      Thread.sleep(50);
      s = sessions.getSession("app", "u", "s").blockingGet();
    }
    return s;
  }

  private static boolean closed(Session s) {
    List<Event> events = s.events();
    return !events.isEmpty()
        && "CANCELLED".equals(events.get(events.size() - 1).errorCode().orElse(null));
  }

  @Test
  void aClientThatHangsUpMidAnswer_leavesTheTurnClosedWithACancelledEvent() throws Exception {
    CountDownLatch cancelled = new CountDownLatch(1);
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFlowable(
                req ->
                    Flowable.concat(
                        Flowable.just(ScriptedLlm.partialResponse("Thinking")),
                        Flowable.<LlmResponse>never().doOnCancel(cancelled::countDown)))
            .thenText("second answer")
            .build();
    start(LlmAgent.builder().name("bot").model(model).instruction("Answer.").build());

    runAndHangUp("first question");

    assertThat(cancelled.await(10, TimeUnit.SECONDS)).as("the model call was cancelled").isTrue();
    Session s = awaitSession(SseDisconnectTest::closed);
    List<Event> events = s.events();
    assertThat(events).as("the user's message, then the closing event").hasSize(2);
    Event user = events.get(0);
    assertThat(user.author()).isEqualTo("user");
    assertThat(user.content().flatMap(Content::parts).orElseThrow().get(0).text())
        .hasValue("first question");
    Event closing = events.get(1);
    assertThat(closing.author()).isEqualTo("bot");
    assertThat(closing.invocationId()).isEqualTo(user.invocationId());
    assertThat(closing.errorCode()).hasValue("CANCELLED");
    assertThat(closing.errorMessage().orElse("")).contains("cancelled");
    assertThat(closing.turnComplete()).hasValue(true);

    // the session is free and its history valid: the next turn runs
    ServerClient client = new ServerClient(server);
    var next = client.post("/run", ServerClient.runBody("app", "u", "s", "again", false));
    assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
    Session after = sessions.getSession("app", "u", "s").blockingGet();
    Event last = after.events().get(after.events().size() - 1);
    assertThat(last.content().flatMap(Content::parts).orElseThrow().get(0).text())
        .hasValue("second answer");
  }

  @Test
  void aServerStoppedMidTurn_storesTheClosingEventBeforeClosingItsStore() throws Exception {
    CountDownLatch called = new CountDownLatch(1);
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFlowable(
                req -> Flowable.<LlmResponse>never().doOnSubscribe(s -> called.countDown()))
            .build();
    String url = "jdbc:sqlite:" + dir.resolve("owned.db");
    server =
        AdkServer.builder()
            .app("app", LlmAgent.builder().name("bot").model(model).build())
            .store(url) // the server opens and closes this store
            .port(0)
            .start();
    ServerClient client = new ServerClient(server);
    assertThat(client.post("/apps/app/users/u/sessions/s", null).statusCode()).isEqualTo(200);
    var stream =
        client.http.sendAsync(
            client
                .request("POST", "/run_sse", ServerClient.runBody("app", "u", "s", "hi", true))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(called.await(10, TimeUnit.SECONDS)).isTrue();

    server.close();
    server = null;
    stream.handle((r, e) -> null).get(10, TimeUnit.SECONDS);

    sessions = new DatabaseSessionService(url);
    List<Event> events = sessions.getSession("app", "u", "s").blockingGet().events();
    assertThat(events).hasSize(2);
    assertThat(events.get(1).errorCode()).hasValue("CANCELLED");
  }

  static final CountDownLatch TOOL_STARTED = new CountDownLatch(1);

  public static Map<String, Object> slowLookup(@Schema(name = "q") String q) throws Exception {
    TOOL_STARTED.countDown();
    new CountDownLatch(1).await(30, TimeUnit.SECONDS); // until the run is cancelled
    return Map.of("found", q);
  }

  @Test
  void aClientThatHangsUpDuringAToolCall_leavesTheCallAnsweredAndTheTurnClosed() throws Exception {
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("slowLookup", Map.of("q", "x"))
            .thenText("next turn")
            .build();
    start(
        LlmAgent.builder()
            .name("bot")
            .model(model)
            .tools(FunctionTool.create(SseDisconnectTest.class, "slowLookup"))
            .build());

    runAndHangUp("look it up"); // the first frame is the function call
    assertThat(TOOL_STARTED.await(10, TimeUnit.SECONDS)).isTrue();

    Session s = awaitSession(SseDisconnectTest::closed);
    List<Event> events = s.events();
    assertThat(events).hasSize(4);
    assertThat(events.get(1).functionCalls()).hasSize(1);
    Part answer = events.get(2).content().flatMap(Content::parts).orElseThrow().get(0);
    assertThat(answer.functionResponse()).isPresent();
    assertThat(answer.functionResponse().get().id())
        .isEqualTo(events.get(1).functionCalls().get(0).id());
    // an error: the tool was interrupted, or the call was closed for the cancelled invocation
    assertThat(answer.functionResponse().get().response().orElseThrow()).containsKey("error");
    assertThat(events.get(3).errorCode()).hasValue("CANCELLED");
    assertThat(events.stream().map(Event::invocationId).distinct()).hasSize(1);
  }
}
