package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.FunctionDeclaration;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.Gemini;
import dev.adk4j.models.LlmException;
import dev.adk4j.runner.TestBackends.Backend;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionLease;
import dev.adk4j.sessions.SessionLimits;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.testsupport.FakeGeminiServer;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A model call that fails or never answers, on every backend. Each scenario is one turn: the model
 * calls a tool (which writes state), then its second call fails. The turn must end with the error
 * reaching the caller of {@code runAsync} and a final stored event with {@code errorCode} and
 * {@code errorMessage} (docs/architecture.md, "Agents and runner"), and leave the session
 * consistent: every function call answered, the completed steps' state stored and nothing of the
 * failed step's, the lease released, and the next turn on the session succeeding.
 */
class ModelFaultsTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  static final String APP = "faults";

  @TempDir static Path dir;
  static TestBackends backends;
  static final AtomicInteger SESSIONS = new AtomicInteger();

  final List<AutoCloseable> servers = new ArrayList<>();

  /** Errors RxJava could not deliver: an abandoned model call must fail quietly, not here. */
  static final List<Throwable> UNDELIVERED = new java.util.concurrent.CopyOnWriteArrayList<>();

  @BeforeAll
  static void open() throws Exception {
    backends = new TestBackends(POSTGRES, dir, SessionLimits.defaults());
    io.reactivex.rxjava3.plugins.RxJavaPlugins.setErrorHandler(UNDELIVERED::add);
  }

  @AfterAll
  static void close() throws Exception {
    try {
      backends.close();
      // Abandoned calls fail once their servers are closed; let them finish.
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (System.nanoTime() < deadline
          && Thread.getAllStackTraces().keySet().stream()
              .anyMatch(
                  t ->
                      t.getName().startsWith("adk4j-model-call")
                          && t.getState() == Thread.State.RUNNABLE)) {
        Thread.sleep(50);
      }
      assertThat(UNDELIVERED)
          .as("errors of abandoned model calls sent to RxJava's handler")
          .isEmpty();
    } finally {
      io.reactivex.rxjava3.plugins.RxJavaPlugins.setErrorHandler(null);
    }
  }

  @AfterEach
  void stopServers() throws Exception {
    for (AutoCloseable s : servers) {
      s.close();
    }
  }

  // ---- the turn ----

  /** Writes a session key and increments a user counter: the step that completes. */
  static final BaseTool COUNT =
      new BaseTool("count", "Counts.") {
        @Override
        public Optional<FunctionDeclaration> declaration() {
          return Optional.of(FunctionDeclaration.builder().name("count").build());
        }

        @Override
        public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext ctx) {
          return Single.fromCallable(
              () -> {
                ctx.state().increment("user:count", 1);
                ctx.state().put("counted", true);
                return Map.of("ok", true);
              });
        }
      };

  /**
   * The agent of every scenario. Before each model call a callback records the call's number under
   * {@code lastCall}: that write is stored with the call's response, so it must never show the
   * number of a call that failed.
   */
  static LlmAgent agent(BaseLlm model) {
    AtomicInteger calls = new AtomicInteger();
    return LlmAgent.builder()
        .name("assistant")
        .model(model)
        .instruction("Count, then answer.")
        .tools(COUNT)
        .beforeModelCallback(
            (cc, request) -> {
              cc.state().put("lastCall", calls.incrementAndGet());
              return Maybe.empty();
            })
        .build();
  }

  /** Builds a scenario's model: first call asks for {@code count}, second fails, third answers. */
  interface ModelMaker {
    BaseLlm model(ModelFaultsTest test) throws Exception;
  }

  /**
   * How a scenario's second model call goes wrong: its model, the run configuration of the failing
   * turn, what the error message says besides the model's name, its error code and type.
   */
  record Fault(
      ModelMaker maker,
      RunConfig runConfig,
      String says,
      String errorCode,
      Class<? extends Throwable> errorType) {

    /** A model error ({@code MODEL_ERROR}, an {@link LlmException}) with the default config. */
    static Fault of(String says, ModelMaker maker) {
      return new Fault(maker, RunConfig.builder().build(), says, "MODEL_ERROR", LlmException.class);
    }

    Fault with(RunConfig config) {
      return new Fault(maker, config, says, errorCode, errorType);
    }

    Fault with(String code, Class<? extends Throwable> type) {
      return new Fault(maker, runConfig, says, code, type);
    }

    BaseLlm model(ModelFaultsTest test) throws Exception {
      return maker.model(test);
    }
  }

  record Named(String name, Fault fault) {
    @Override
    public String toString() {
      return name;
    }
  }

  static final ObjectNode COUNT_CALL = FakeGeminiServer.functionCallResponse("count", Map.of());
  static final ObjectNode RECOVERED = FakeGeminiServer.textResponse("recovered");

  /** A Gemini model whose second call hangs on a server that accepts and never answers. */
  static BaseLlm hangingGemini(ModelFaultsTest t, @Nullable Duration httpTimeout)
      throws IOException {
    RawServer server = t.rawServer();
    server.reply(200, COUNT_CALL.toString());
    server.hang();
    server.reply(200, RECOVERED.toString());
    return gemini(server.baseUrl(), httpTimeout);
  }

  static List<Named> faults() {
    return List.of(
        new Named(
            "ScriptedLlm: an LlmException (HTTP 503)",
            Fault.of(
                "answered 503",
                t ->
                    ScriptedLlm.builder()
                        .model("fake-model")
                        .thenFunctionCall("count", Map.of())
                        .thenError(
                            new LlmException("fake-model", 503, "fake-model answered 503", null))
                        .thenText("recovered")
                        .build())),
        new Named(
            "ScriptedLlm: a RuntimeException of the model's own",
            Fault.of(
                    "fake-model broke",
                    t ->
                        ScriptedLlm.builder()
                            .model("fake-model")
                            .thenFunctionCall("count", Map.of())
                            .thenError(new IllegalStateException("fake-model broke"))
                            .thenText("recovered")
                            .build())
                .with("INTERNAL_ERROR", IllegalStateException.class)),
        new Named(
            "ScriptedLlm: fails while streaming, after partial responses",
            Fault.of(
                    "stream cut",
                    t ->
                        ScriptedLlm.builder()
                            .model("fake-model")
                            .thenFunctionCall("count", Map.of())
                            .thenErrorAfterPartials(
                                new LlmException("fake-model", 0, "fake-model: stream cut", null),
                                "Half an ans",
                                "wer")
                            .thenText("recovered")
                            .build())
                .with(RunConfig.builder().streamingMode(RunConfig.StreamingMode.SSE).build())),
        new Named(
            "a model that never answers (RunConfig.llmCallTimeout)",
            Fault.of(
                    "no response within 300 ms (RunConfig.llmCallTimeout)",
                    t ->
                        ScriptedLlm.builder()
                            .model("silent-model")
                            .thenFunctionCall("count", Map.of())
                            .thenNoAnswer()
                            .thenText("recovered")
                            .build())
                .with(RunConfig.builder().llmCallTimeout(Duration.ofMillis(300)).build())),
        new Named(
            "Gemini: HTTP 500",
            Fault.of(
                "HTTP 500",
                t -> {
                  FakeGeminiServer server = t.fakeGemini();
                  server.enqueue(COUNT_CALL);
                  server.enqueueError(500, "backend exploded");
                  server.enqueue(RECOVERED);
                  return gemini(server.baseUrl(), null);
                })),
        new Named(
            "Gemini: a body that is JSON but not a response",
            Fault.of(
                "malformed",
                t -> {
                  FakeGeminiServer server = t.fakeGemini();
                  server.enqueue(COUNT_CALL);
                  ObjectNode wrong = JsonNodeFactory.instance.objectNode();
                  wrong.put("candidates", "not a list");
                  server.enqueue(wrong);
                  server.enqueue(RECOVERED);
                  return gemini(server.baseUrl(), null);
                })),
        new Named(
            "Gemini: a body that is not JSON",
            Fault.of(
                "malformed",
                t -> {
                  RawServer server = t.rawServer();
                  server.reply(200, COUNT_CALL.toString());
                  server.reply(200, "<html>Bad gateway, really</html>");
                  server.reply(200, RECOVERED.toString());
                  return gemini(server.baseUrl(), null);
                })),
        new Named(
            "Gemini: a server that never answers (RunConfig.llmCallTimeout)",
            Fault.of(
                    "no response within 500 ms (RunConfig.llmCallTimeout)",
                    t -> hangingGemini(t, null))
                .with(RunConfig.builder().llmCallTimeout(Duration.ofMillis(500)).build())),
        new Named(
            "Gemini: a server that never answers (Gemini.Builder.timeout)",
            Fault.of(
                "could not be reached: Failed to execute HTTP request."
                    + " (InterruptedIOException: timeout)",
                t -> hangingGemini(t, Duration.ofMillis(500)))));
  }

  static Gemini gemini(String baseUrl, Duration timeout) {
    Gemini.Builder b =
        Gemini.builder()
            .modelName("gemini-fault")
            .apiKey("test-key")
            .baseUrl(baseUrl)
            .retryAttempts(1)
            .environment(Map.<String, String>of()::get);
    if (timeout != null) {
      b.timeout(timeout);
    }
    return b.build();
  }

  FakeGeminiServer fakeGemini() {
    FakeGeminiServer server = FakeGeminiServer.start();
    servers.add(server);
    return server;
  }

  RawServer rawServer() throws IOException {
    RawServer server = new RawServer();
    servers.add(server);
    return server;
  }

  static Stream<Arguments> scenarios() {
    return Stream.of(Backend.values()).flatMap(b -> faults().stream().map(f -> Arguments.of(f, b)));
  }

  @ParameterizedTest(name = "[{index}] {1}: {0}")
  @MethodSource("scenarios")
  @Timeout(30) // a regression that hangs a turn fails here instead of stalling the build
  void aFailingModelCall_endsTheTurnWithAClearError_andLeavesTheSessionConsistent(
      Named scenario, Backend backend) throws Exception {
    Fault fault = scenario.fault();
    BaseSessionService sessions = backends.get(backend);
    // A user of its own: the tool's user:count starts at 0.
    String user = "u" + SESSIONS.incrementAndGet();
    String sid = "s";
    sessions.createSession(APP, user, null, sid).blockingGet();
    BaseLlm model = fault.model(this);
    Runner runner = new Runner(agent(model), APP, null, sessions);
    List<Event> seen = new CopyOnWriteArrayList<>();
    Throwable[] error = new Throwable[1];

    long started = System.nanoTime();
    runner
        .runAsync(user, sid, Contents.user("count, please"), fault.runConfig())
        .blockingSubscribe(seen::add, e -> error[0] = e);
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    // The failure reaches the caller as the run's last event (not an error signal), with the
    // exception behind it, naming the model and what went wrong.
    assertThat(error[0]).isNull();
    InvocationFailedException failure = InvocationFailedException.of(seen).orElseThrow();
    assertThat(failure.errorCode()).isEqualTo(fault.errorCode());
    assertThat(failure.failure()).isInstanceOf(fault.errorType());
    assertThat(failure.failure().getMessage()).contains(model.model()).contains(fault.says());
    assertThat(took).isLessThan(Duration.ofSeconds(20));
    // The stored history: the user's message, the call, its response, the final error event.
    List<Event> stored = sessions.listEvents(APP, user, sid).blockingGet().events();
    assertThat(StoredHistory.unansweredCalls(stored)).isEmpty();
    assertThat(stored).noneMatch(e -> e.partial().orElse(false));
    assertThat(stored).hasSize(4);
    Event last = stored.get(stored.size() - 1);
    assertThat(last.errorCode()).contains(fault.errorCode());
    assertThat(last.errorMessage().orElse("")).contains(fault.says());
    assertThat(last.content()).isEmpty();
    assertThat(last.actions().stateDelta()).isEmpty();
    // Every stored event but the user's message was emitted, in order, before the error.
    assertThat(seen.stream().filter(e -> !e.partial().orElse(false)).map(Event::id).toList())
        .isEqualTo(stored.subList(1, stored.size()).stream().map(Event::id).toList());
    // The completed steps' state is stored; the failed call's callback write is not.
    Session after = sessions.getSession(APP, user, sid).blockingGet();
    assertThat(after.state())
        .containsOnly(
            Map.entry("lastCall", 1), Map.entry("counted", true), Map.entry("user:count", 1));
    // The lease is free: nobody waits for it.
    try (SessionLease lease = sessions.acquireLease(APP, user, sid, Duration.ZERO).blockingGet()) {
      assertThat(lease.isHeld()).isTrue();
    }

    // The next turn on the session succeeds, on a history the model accepts.
    List<Event> next = runner.runAsync(user, sid, Contents.user("again")).toList().blockingGet();
    assertThat(next).last().satisfies(e -> assertThat(e.stringifyContent()).isEqualTo("recovered"));
    Session recovered = sessions.getSession(APP, user, sid).blockingGet();
    assertThat(recovered.events()).hasSize(6);
    assertThat(recovered.state()).containsEntry("lastCall", 3);
    assertThat(StoredHistory.unansweredCalls(recovered.events())).isEmpty();
  }

  @Test
  void llmCallTimeout_defaultsToFiveMinutes_andZeroWaitsForEver() {
    assertThat(RunConfig.builder().build().llmCallTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(RunConfig.builder().llmCallTimeout(Duration.ZERO).build().llmCallTimeout()).isZero();
    assertThatThrownBy(() -> RunConfig.builder().llmCallTimeout(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("llmCallTimeout");
    assertThatThrownBy(() -> Gemini.builder().modelName("m").apiKey("k").timeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeout");
  }

  @Test
  void aSlowModelWithinTheTimeout_isWaitedFor_evenWhenItStreamsSlowly() {
    BaseSessionService sessions = backends.get(Backend.MEMORY);
    String user = "slow" + SESSIONS.incrementAndGet();
    String sid = "s";
    sessions.createSession(APP, user, null, sid).blockingGet();
    // Each chunk comes 150 ms after the last, 600 ms in all: only the gaps count.
    BaseLlm slow =
        ScriptedLlm.builder()
            .model("slow-model")
            .thenStreamedText("a", "b", "c")
            .delayed(Duration.ofMillis(150))
            .build();
    Runner runner =
        new Runner(LlmAgent.builder().name("a").model(slow).build(), APP, null, sessions);

    List<Event> events =
        runner
            .runAsync(
                user,
                sid,
                Contents.user("hi"),
                RunConfig.builder()
                    .streamingMode(RunConfig.StreamingMode.SSE)
                    .llmCallTimeout(Duration.ofMillis(400))
                    .build())
            .toList()
            .blockingGet();

    assertThat(events).last().satisfies(e -> assertThat(e.stringifyContent()).isEqualTo("abc"));
  }

  // ---- test doubles ----

  /**
   * An HTTP server answering each request with the next scripted raw reply: a status and a body
   * sent as they are, or no answer at all until the server stops.
   */
  static final class RawServer implements AutoCloseable {
    private final HttpServer http;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Deque<Object> replies = new ArrayDeque<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private static final Object HANG = new Object();

    RawServer() throws IOException {
      http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      http.createContext("/", this::handle);
      http.setExecutor(executor);
      http.start();
    }

    String baseUrl() {
      return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    void reply(int status, String body) {
      synchronized (replies) {
        replies.add(new Object[] {status, body});
      }
    }

    void hang() {
      synchronized (replies) {
        replies.add(HANG);
      }
    }

    private void handle(HttpExchange exchange) throws IOException {
      exchange.getRequestBody().readAllBytes();
      Object next;
      synchronized (replies) {
        next = replies.poll();
      }
      if (next == HANG) {
        try {
          stopped.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        exchange.close();
        return;
      }
      Object[] reply = next == null ? new Object[] {500, "nothing scripted"} : (Object[]) next;
      byte[] body = ((String) reply[1]).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders((Integer) reply[0], body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }

    @Override
    public void close() {
      stopped.countDown();
      http.stop(0);
      executor.shutdownNow();
    }
  }
}
