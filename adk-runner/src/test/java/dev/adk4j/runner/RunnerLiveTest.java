package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Blob;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LiveRequestQueue;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.models.Gemini;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionKey;
import dev.adk4j.tools.Annotations;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.disposables.Disposable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Runner#runLive} on a real google-genai client talking to {@link FakeLiveApi} over a TLS
 * websocket on loopback, with sessions in SQLite: text exchanges, a tool call that writes tracked
 * state, realtime audio, closing the queue, and the server closing the connection midway.
 */
class RunnerLiveTest {
  private static final String APP = "live_app";
  private static final String USER = "ada";

  /** Bytes of the audio each realtime input carried, decoded by the fake. */
  private static final List<byte[]> heardAudio = new java.util.concurrent.CopyOnWriteArrayList<>();

  @TempDir static Path dir;
  private static FakeLiveApi api;
  private static Gemini gemini;
  private static DatabaseSessionService sessions;
  private static Runner runner;

  /** The fake model's script, by the user's words. */
  private static void answer(JsonNode m, FakeLiveApi.Reply reply) {
    if (m.has("setup")) {
      // A model that speaks first, right after setupComplete, before any input (to Grace only).
      if (m.toString().contains("Talk with Grace.")) {
        reply.send(FakeLiveApi.text("Welcome back, Grace"));
        reply.send(FakeLiveApi.turnComplete());
      }
    } else if (m.has("clientContent")) {
      JsonNode content = m.get("clientContent");
      if (!content.path("turnComplete").asBoolean(false) || content.path("turns").size() > 1) {
        return; // history: a real model would answer its last user turn; the fake does not
      }
      String said = FakeLiveApi.lastTurnText(content);
      switch (said) {
        case "hello" -> {
          reply.send(FakeLiveApi.text("Hello"));
          reply.send(FakeLiveApi.text(", Ada"));
          reply.send(FakeLiveApi.usage(7, 3));
          reply.send(FakeLiveApi.turnComplete());
        }
        case "how are you" -> {
          reply.send(FakeLiveApi.text("Fine, thanks"));
          reply.send(FakeLiveApi.turnComplete());
        }
        case "remember blue" ->
            reply.send(FakeLiveApi.toolCall("call-1", "setColor", Map.of("color", "blue")));
        case "break" -> reply.close(1011, "internal error in the fake");
        default -> {
          reply.send(FakeLiveApi.text("You said: " + said));
          reply.send(FakeLiveApi.turnComplete());
        }
      }
    } else if (m.has("toolResponse")) {
      JsonNode answer = m.get("toolResponse").path("functionResponses").path(0);
      reply.send(FakeLiveApi.text("Saved " + answer.path("response").path("saved").asText()));
      reply.send(FakeLiveApi.turnComplete());
    } else if (m.has("realtimeInput")
        && m.get("realtimeInput").toString().contains("audio/pcm;rate=8000")) {
      // a transcribing model: what it heard and what it says, then an interruption
      ObjectNode heard = FakeLiveApi.JSON.createObjectNode();
      heard.putObject("serverContent").putObject("inputTranscription").put("text", "hi there");
      reply.send(heard);
      ObjectNode says = FakeLiveApi.JSON.createObjectNode();
      says.putObject("serverContent").putObject("outputTranscription").put("text", "Hello!");
      reply.send(says);
      ObjectNode interrupted = FakeLiveApi.JSON.createObjectNode();
      interrupted.putObject("serverContent").put("interrupted", true);
      reply.send(interrupted);
    } else if (m.has("realtimeInput")) {
      JsonNode input = m.get("realtimeInput");
      JsonNode blob = input.has("audio") ? input.get("audio") : input.path("mediaChunks").path(0);
      byte[] audio = Base64.getDecoder().decode(blob.path("data").asText());
      heardAudio.add(audio);
      reply.send(FakeLiveApi.text("heard " + audio.length + " bytes"));
      reply.send(FakeLiveApi.turnComplete());
    }
  }

  /** The tool of the live agent: writes user, session and temp state. */
  public static Map<String, Object> setColor(
      @Annotations.Schema(name = "color") String color, ToolContext context) {
    context.state().put("user:favorite_color", color);
    context.state().put("color", color);
    context.state().put("temp:scratch", "about " + color);
    return Map.of("saved", color);
  }

  @BeforeAll
  static void start() throws Exception {
    api = new FakeLiveApi(RunnerLiveTest::answer);
    gemini = Gemini.builder().modelName("gemini-live-fake").client(api.client()).build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("voice")
            .model(gemini)
            .instruction("Talk with {user:name?}.")
            .outputKey("last_reply")
            .tools(FunctionTool.create(RunnerLiveTest.class, "setColor"))
            .build();
    sessions = new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("live.db"));
    runner = new Runner(agent, APP, null, sessions);
  }

  @AfterAll
  static void stop() throws Exception {
    runner.close();
    sessions.close();
    api.close();
  }

  /** A live run's events as they come, and its end. */
  private static final class Run implements AutoCloseable {
    private static final Object DONE = new Object();
    final BlockingQueue<Object> out = new LinkedBlockingQueue<>();
    final List<Event> events = new ArrayList<>();
    final Disposable subscription;

    Run(String sessionId, LiveRequestQueue queue) {
      this(sessionId, queue, RunConfig.builder().build());
    }

    Run(String sessionId, LiveRequestQueue queue, RunConfig config) {
      this(runner.runLive(USER, sessionId, queue, config));
    }

    Run(io.reactivex.rxjava3.core.Flowable<Event> run) {
      subscription = run.subscribe(out::add, out::add, () -> out.add(DONE));
    }

    private Object next() throws InterruptedException {
      Object o = out.poll(20, TimeUnit.SECONDS);
      if (o == null) {
        printThreads();
      }
      assertThat(o)
          .as("the live run went silent; the fake received %s", api.received())
          .isNotNull();
      if (o instanceof Throwable t) {
        throw new AssertionError("the live run failed", t);
      }
      if (o instanceof Event e) {
        events.add(e);
      }
      return o;
    }

    /**
     * Prints every thread's stack to standard error, which a CI log keeps: where the run, the
     * websocket's reader and the fake stood when the run went silent.
     */
    private static void printThreads() {
      StringBuilder dump = new StringBuilder("The live run went silent; this JVM's threads:\n");
      Thread.getAllStackTraces()
          .forEach(
              (thread, stack) -> {
                dump.append('"')
                    .append(thread.getName())
                    .append("\" ")
                    .append(thread.getState())
                    .append('\n');
                for (int i = 0; i < Math.min(stack.length, 25); i++) {
                  dump.append("    at ").append(stack[i]).append('\n');
                }
              });
      System.err.print(dump);
    }

    /** Waits for the next complete model turn and returns it. */
    Event turn() throws InterruptedException {
      while (true) {
        Object o = next();
        assertThat(o).as("the run ended before the model's turn").isNotSameAs(DONE);
        Event e = (Event) o;
        if (e.turnComplete().orElse(false)) {
          return e;
        }
      }
    }

    /** Waits for the run to complete; returns the events seen since the last turn. */
    void awaitEnd() throws InterruptedException {
      while (next() != DONE) {
        // events are collected by next()
      }
    }

    @Override
    public void close() {
      subscription.dispose();
    }
  }

  private static Content user(String text) {
    return Content.builder().role("user").parts(List.of(Part.fromText(text))).build();
  }

  /** The session as a fresh service reads it from the SQLite file. */
  private static Session stored(String sessionId) {
    try (DatabaseSessionService fresh =
        new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("live.db"))) {
      return fresh.getSession(APP, USER, sessionId).blockingGet();
    }
  }

  private static List<String> texts(List<Event> events) {
    return events.stream().map(e -> e.author() + ": " + e.stringifyContent()).toList();
  }

  @Test
  void runLive_twoTextExchanges_areStreamedStoredAndEndWhenTheQueueCloses() throws Exception {
    sessions.createSession(APP, USER, Map.of("user:name", "Ada"), "text").blockingGet();
    LiveRequestQueue queue = new LiveRequestQueue();
    queue.content(user("hello"));
    try (Run run = new Run("text", queue)) {
      Event first = run.turn();
      assertThat(first.stringifyContent()).isEqualTo("Hello, Ada");
      assertThat(first.usageMetadata().orElseThrow().totalTokenCount()).contains(10);
      assertThat(
              run.events.stream()
                  .filter(e -> e.partial().orElse(false))
                  .map(Event::stringifyContent))
          .containsExactly("Hello", ", Ada");
      queue.content(user("how are you"));
      assertThat(run.turn().stringifyContent()).isEqualTo("Fine, thanks");
      queue.close();
      run.awaitEnd();
    }
    Session s = stored("text");
    assertThat(texts(s.events()))
        .containsExactly(
            "user: hello", "voice: Hello, Ada", "user: how are you", "voice: Fine, thanks");
    assertThat(s.state()).containsEntry("last_reply", "Fine, thanks");
    // The setup carried the agent's instruction with the state filled in.
    JsonNode setup = api.received("setup").get(api.received("setup").size() - 1);
    assertThat(setup.toString()).contains("Talk with Ada.").contains("setColor");
    assertThat(api.received("clientContent").stream().map(FakeLiveApi::lastTurnText))
        .contains("hello", "how are you");
  }

  /**
   * A message the server sends right after setupComplete reaches the run: google-genai drops a
   * message that arrives before the session has a receiver, so the connection must have one before
   * the websocket's reader goes on to the next message.
   */
  @Test
  void runLive_modelSpeakingRightAfterSetup_isHeardAndStored() throws Exception {
    sessions.createSession(APP, "grace", Map.of("user:name", "Grace"), "greeted").blockingGet();
    LiveRequestQueue queue = new LiveRequestQueue();
    try (Run run =
        new Run(runner.runLive("grace", "greeted", queue, RunConfig.builder().build()))) {
      assertThat(run.turn().stringifyContent()).isEqualTo("Welcome back, Grace");
      queue.close();
      run.awaitEnd();
    }
    try (DatabaseSessionService fresh =
        new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("live.db"))) {
      Session s = fresh.getSession(APP, "grace", "greeted").blockingGet();
      assertThat(texts(s.events())).containsExactly("voice: Welcome back, Grace");
    }
  }

  @Test
  void runLive_sessionKey_runsTheKeysSession_andAKeyWithoutIdFailsNamingItsAppAndUser()
      throws Exception {
    sessions.createSession(APP, USER, Map.of("user:name", "Ada"), "keyed").blockingGet();
    LiveRequestQueue queue = new LiveRequestQueue();
    queue.content(user("hello"));
    try (Run run =
        new Run(
            runner.runLive(
                new SessionKey(APP, USER, "keyed"), queue, RunConfig.builder().build()))) {
      assertThat(run.turn().stringifyContent()).isEqualTo("Hello, Ada");
      queue.close();
      run.awaitEnd();
    }
    assertThat(texts(stored("keyed").events())).containsExactly("user: hello", "voice: Hello, Ada");

    assertThatThrownBy(
            () ->
                runner
                    .runLive(
                        new SessionKey(APP, USER, null),
                        new LiveRequestQueue(),
                        RunConfig.builder().build())
                    .blockingSubscribe())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("SessionKey of app '" + APP + "' and user '" + USER + "' has no session id");
  }

  @Test
  void runLive_toolCall_writesTrackedStateStoredWithItsDelta() throws Exception {
    sessions.createSession(APP, USER, Map.of(), "tool").blockingGet();
    LiveRequestQueue queue = new LiveRequestQueue();
    queue.content(user("remember blue"));
    try (Run run = new Run("tool", queue)) {
      assertThat(run.turn().stringifyContent()).isEqualTo("Saved blue");
      queue.close();
      run.awaitEnd();
    }
    Session s = stored("tool");
    assertThat(s.state())
        .containsEntry("user:favorite_color", "blue")
        .containsEntry("color", "blue")
        .doesNotContainKey("temp:scratch");
    Event response =
        s.events().stream().filter(e -> !e.functionResponses().isEmpty()).findFirst().orElseThrow();
    assertThat(response.actions().stateDelta())
        .containsEntry("user:favorite_color", "blue")
        .containsEntry("color", "blue")
        .doesNotContainKey("temp:scratch");
    assertThat(response.functionResponses().get(0).id()).contains("call-1");
    Event call =
        s.events().stream().filter(e -> !e.functionCalls().isEmpty()).findFirst().orElseThrow();
    assertThat(call.functionCalls().get(0).name()).contains("setColor");
    // user: state is the user's in every session
    Session other = sessions.createSession(APP, USER, Map.of(), "tool-other").blockingGet();
    assertThat(other.state()).containsEntry("user:favorite_color", "blue");
    JsonNode sent = api.received("toolResponse").get(0).path("functionResponses").path(0);
    assertThat(sent.path("id").asText()).isEqualTo("call-1");
    assertThat(sent.path("response").path("saved").asText()).isEqualTo("blue");
  }

  @Test
  void runLive_realtimeAudio_isForwardedAndNotStored() throws Exception {
    sessions.createSession(APP, USER, Map.of(), "audio").blockingGet();
    byte[] pcm = "PCM!".getBytes(StandardCharsets.US_ASCII);
    LiveRequestQueue queue = new LiveRequestQueue();
    queue.realtime(Blob.builder().data(pcm).mimeType("audio/pcm;rate=16000").build());
    try (Run run = new Run("audio", queue)) {
      assertThat(run.turn().stringifyContent()).isEqualTo("heard 4 bytes");
      queue.close();
      run.awaitEnd();
    }
    assertThat(heardAudio).anySatisfy(b -> assertThat(b).isEqualTo(pcm));
    assertThat(api.received("realtimeInput"))
        .anySatisfy(m -> assertThat(m.toString()).contains("audio/pcm;rate=16000"));
    assertThat(texts(stored("audio").events())).containsExactly("voice: heard 4 bytes");
  }

  @Test
  void runLive_transcriptions_areAskedForInTheSetup_andReachTheStoredEvents() throws Exception {
    sessions.createSession(APP, USER, Map.of(), "transcribed").blockingGet();
    LiveRequestQueue queue = new LiveRequestQueue();
    queue.realtime(Blob.builder().data(new byte[] {1, 2}).mimeType("audio/pcm;rate=8000").build());
    com.google.genai.types.AudioTranscriptionConfig transcribe =
        com.google.genai.types.AudioTranscriptionConfig.builder().build();
    RunConfig config =
        RunConfig.builder()
            .setInputAudioTranscription(transcribe)
            .setOutputAudioTranscription(transcribe)
            .build();
    Event turn;
    try (Run run = new Run("transcribed", queue, config)) {
      turn = run.turn();
      queue.close();
      run.awaitEnd();
    }

    JsonNode setup = api.received("setup").get(api.received("setup").size() - 1);
    assertThat(setup.has("inputAudioTranscription")).as("setup %s", setup).isTrue();
    assertThat(setup.has("outputAudioTranscription")).as("setup %s", setup).isTrue();
    assertThat(turn.interrupted()).contains(true);
    assertThat(turn.outputTranscription().flatMap(t -> t.text())).contains("Hello!");
    List<Event> stored = stored("transcribed").events();
    assertThat(stored).hasSize(2);
    assertThat(stored.get(0).author()).isEqualTo("user");
    assertThat(stored.get(0).inputTranscription().flatMap(t -> t.text())).contains("hi there");
    assertThat(stored.get(1).outputTranscription().flatMap(t -> t.text())).contains("Hello!");
    assertThat(stored.get(1).interrupted()).contains(true);
  }

  @Test
  void runLive_serverClosesMidway_endsWithAClearErrorAndAValidHistory() throws Exception {
    sessions.createSession(APP, USER, Map.of(), "broken").blockingGet();
    LiveRequestQueue queue = new LiveRequestQueue();
    queue.content(user("hello"));
    Event last;
    try (Run run = new Run("broken", queue)) {
      run.turn();
      queue.content(user("break"));
      run.awaitEnd();
      last = run.events.get(run.events.size() - 1);
    }
    assertThat(last.errorCode()).contains("MODEL_ERROR");
    assertThat(last.errorMessage().orElseThrow())
        .contains("gemini-live-fake")
        .contains("closed by the server")
        .contains("1011")
        .contains("internal error in the fake");
    Session s = stored("broken");
    assertThat(texts(s.events()).subList(0, 3))
        .containsExactly("user: hello", "voice: Hello, Ada", "user: break");
    assertThat(s.events().get(s.events().size() - 1).errorCode()).contains("MODEL_ERROR");

    // The lease was released and the history is usable: a new live run sends it as history.
    int before = api.received("clientContent").size();
    LiveRequestQueue again = new LiveRequestQueue();
    again.content(user("how are you"));
    try (Run run = new Run("broken", again)) {
      assertThat(run.turn().stringifyContent()).isEqualTo("Fine, thanks");
      again.close();
      run.awaitEnd();
    }
    JsonNode history = api.received("clientContent").get(before);
    assertThat(history.path("turns").toString()).contains("hello").contains("Hello, Ada");
  }

  @Test
  void runLive_subscriberCancels_closesTheRunAndReleasesTheSession() throws Exception {
    sessions.createSession(APP, USER, Map.of(), "cancelled").blockingGet();
    LiveRequestQueue queue = new LiveRequestQueue();
    queue.content(user("hello"));
    try (Run run = new Run("cancelled", queue)) {
      run.turn();
    } // disposed with the queue still open
    // The next run waits for the cancelled one to release the session, then runs.
    LiveRequestQueue again = new LiveRequestQueue();
    again.content(user("how are you"));
    try (Run run = new Run("cancelled", again)) {
      assertThat(run.turn().stringifyContent()).isEqualTo("Fine, thanks");
      again.close();
      run.awaitEnd();
    }
    List<Event> events = stored("cancelled").events();
    assertThat(texts(events).subList(0, 2)).containsExactly("user: hello", "voice: Hello, Ada");
    assertThat(events.get(2).errorCode()).contains("CANCELLED");
    assertThat(texts(events).subList(3, 5))
        .containsExactly("user: how are you", "voice: Fine, thanks");
  }
}
