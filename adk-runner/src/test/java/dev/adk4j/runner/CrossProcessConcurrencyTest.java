package dev.adk4j.runner;

import static dev.adk4j.runner.TurnWorker.APP;
import static dev.adk4j.runner.TurnWorker.KEY;
import static dev.adk4j.runner.TurnWorker.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import dev.adk4j.events.Event;
import dev.adk4j.runner.TurnWorker.Mode;
import dev.adk4j.runner.TurnWorker.Tally;
import dev.adk4j.runner.TurnWorker.Turn;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testsupport.ChildJvm;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * Turns of the {@link Runner} on a {@link DatabaseSessionService} (SQLite file and embedded
 * PostgreSQL) racing from several threads and from two JVMs: a user-scoped counter written by a
 * plain read-modify-write loses no update silently (a lost race is a {@code StateConflictException}
 * and a closed invocation), an atomic increment loses none at all, turns on one session are
 * serialized whole, and a process killed mid-turn is taken over once its lease expires.
 *
 * <p>The agent and the child JVM's main are in {@link TurnWorker}. Each test prints lines starting
 * with {@code FIGURE} with what it measured.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class CrossProcessConcurrencyTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  private static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);

  /** Logging levels changed for this class, restored after it. */
  private static final Map<String, ch.qos.logback.classic.Level> SAVED_LEVELS =
      new LinkedHashMap<>();

  static {
    // Quiet before the extension starts PostgreSQL: the server, HikariCP and Flyway log every line
    // at debug or info, and the runner warns once per state conflict (hundreds here).
    quiet(org.slf4j.Logger.ROOT_LOGGER_NAME, ch.qos.logback.classic.Level.WARN);
    quiet(Runner.class.getName(), ch.qos.logback.classic.Level.ERROR);
  }

  enum Backend {
    SQLITE,
    POSTGRES,
    /** In-memory service: one JVM only, so only the threads test uses it. */
    MEMORY
  }

  @TempDir Path dir;

  private final List<AutoCloseable> closeAfter = new ArrayList<>();
  private final AtomicInteger files = new AtomicInteger();

  private static void quiet(String name, ch.qos.logback.classic.Level level) {
    if (LoggerFactory.getLogger(name) instanceof ch.qos.logback.classic.Logger logger) {
      SAVED_LEVELS.put(name, logger.getLevel());
      logger.setLevel(level);
    }
  }

  @AfterAll
  static void restoreLogging() {
    SAVED_LEVELS.forEach(
        (name, level) ->
            ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(name)).setLevel(level));
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = closeAfter.size() - 1; i >= 0; i--) {
      closeAfter.get(i).close();
    }
    POSTGRES.dropDatabases();
  }

  static Stream<Arguments> backendsAndModes() {
    return Stream.of(Backend.values())
        .flatMap(b -> Stream.of(Arguments.of(b, Mode.RMW), Arguments.of(b, Mode.ATOMIC)));
  }

  static Stream<Arguments> databaseBackendsAndModes() {
    return backendsAndModes().filter(a -> a.get()[0] != Backend.MEMORY);
  }

  // ---------------------------------------------------------------------------------------------
  // 1. Threads in one JVM
  // ---------------------------------------------------------------------------------------------

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("backendsAndModes")
  void fourThreads_ownSessions_sameUser_noUpdateLostSilently(Backend backend, Mode mode)
      throws Exception {
    int threads = 4;
    int turnsEach = 50;
    BaseSessionService service =
        backend == Backend.MEMORY
            ? new InMemorySessionService()
            : open(newUrl(backend), DEFAULT_LEASE);
    Runner runner = new Runner(TurnWorker.agent(mode, null), APP, null, service);
    List<String> sessions = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      sessions.add(service.createSession(APP, USER, null, "thread" + t).blockingGet().id());
    }
    Tally tally = new Tally();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long start;
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (String session : sessions) {
        futures.add(
            pool.submit(
                () -> {
                  go.await();
                  for (int i = 0; i < turnsEach; i++) {
                    tally.add(TurnWorker.turn(runner, session));
                  }
                  return null;
                }));
      }
      start = System.nanoTime();
      go.countDown();
      for (Future<?> f : futures) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    long elapsed = millisSince(start);
    long count = storedCount(service, sessions.get(0));
    figure(
        "threads backend=%s mode=%s turns=%d ok=%d conflicts=%d others=%d count=%d elapsedMs=%d",
        backend,
        mode,
        threads * turnsEach,
        tally.ok.get(),
        tally.conflicts.get(),
        tally.others.size(),
        count,
        elapsed);

    assertThat(tally.others)
        .as("turns that neither succeeded nor failed with a conflict")
        .isEmpty();
    assertThat(tally.ok.get() + tally.conflicts.get()).isEqualTo(threads * turnsEach);
    if (mode == Mode.ATOMIC) {
      assertThat(tally.conflicts.get()).as("conflicts of atomic increments").isZero();
      assertThat(count).isEqualTo(threads * turnsEach);
    } else {
      assertThat(count)
          .as("stored count vs successful turns (nothing lost)")
          .isEqualTo(tally.ok.get());
    }
    int storedOk = 0;
    int storedConflicts = 0;
    for (String session : sessions) {
      History h = history(service, session);
      h.assertWellFormed();
      storedOk += h.count("OK");
      storedConflicts += h.count("STATE_CONFLICT");
      assertThat(h.count("OK") + h.count("STATE_CONFLICT"))
          .as("invocations stored on %s", session)
          .isEqualTo(turnsEach);
      for (String id : h.outcomes.keySet()) {
        if (tally.conflictInvocations.contains(id)) {
          assertThat(h.outcomes.get(id))
              .as("stored outcome of failed invocation %s", id)
              .isEqualTo("STATE_CONFLICT");
          assertThat(h.last(id).errorCode()).contains("STATE_CONFLICT");
        } else {
          assertThat(tally.okInvocations).as("invocation %s of %s", id, session).contains(id);
        }
      }
    }
    assertThat(storedOk).isEqualTo(tally.ok.get());
    assertThat(storedConflicts).isEqualTo(tally.conflicts.get());
  }

  // ---------------------------------------------------------------------------------------------
  // 2. Two processes, each on its own session of the same user
  // ---------------------------------------------------------------------------------------------

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("databaseBackendsAndModes")
  void twoProcesses_ownSessions_sameUser(Backend backend, Mode mode) throws Exception {
    int n = 100;
    String url = newUrl(backend);
    DatabaseSessionService service = open(url, DEFAULT_LEASE);
    service.createSession(APP, USER, null, "parent").blockingGet();
    service.createSession(APP, USER, null, "child").blockingGet();
    Runner runner = new Runner(TurnWorker.agent(mode, null), APP, null, service);
    Tally tally = new Tally();
    Map<String, Long> child;
    long elapsed;
    try (Child worker = Child.start(dir, url, mode, "child", n, DEFAULT_LEASE)) {
      worker.await("READY", Duration.ofSeconds(60));
      worker.send("GO");
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        tally.add(TurnWorker.turn(runner, "parent"));
      }
      child = worker.result(Duration.ofSeconds(90));
      elapsed = millisSince(start);
      assertThat(child.get("others")).as("child's other failures: %s", worker.others()).isZero();
    }
    long count = storedCount(service, "parent");
    long ok = tally.ok.get() + child.get("ok");
    long conflicts = tally.conflicts.get() + child.get("conflicts");
    figure(
        "twoProcesses backend=%s mode=%s turns=%d ok=%d conflicts=%d (parent %d/%d, child %d/%d)"
            + " count=%d elapsedMs=%d childMs=%d",
        backend,
        mode,
        2 * n,
        ok,
        conflicts,
        tally.ok.get(),
        tally.conflicts.get(),
        child.get("ok"),
        child.get("conflicts"),
        count,
        elapsed,
        child.get("ms"));

    assertThat(tally.others).as("parent's other failures").isEmpty();
    assertThat(ok + conflicts).isEqualTo(2L * n);
    assertThat(count + conflicts).as("count + conflicts").isEqualTo(2L * n);
    if (mode == Mode.ATOMIC) {
      assertThat(count).isEqualTo(2L * n);
    }
    History parent = history(service, "parent");
    History childHistory = history(service, "child");
    parent.assertWellFormed();
    childHistory.assertWellFormed();
    assertThat(parent.count("OK")).isEqualTo(tally.ok.get());
    assertThat(parent.count("STATE_CONFLICT")).isEqualTo(tally.conflicts.get());
    assertThat((long) childHistory.count("OK")).isEqualTo(child.get("ok"));
    assertThat((long) childHistory.count("STATE_CONFLICT")).isEqualTo(child.get("conflicts"));
  }

  // ---------------------------------------------------------------------------------------------
  // 3. Two processes on one session
  // ---------------------------------------------------------------------------------------------

  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = Backend.class,
      names = {"SQLITE", "POSTGRES"})
  void twoProcesses_oneSession_turnsSerializedWhole(Backend backend) throws Exception {
    int n = 100;
    String url = newUrl(backend);
    DatabaseSessionService service = open(url, DEFAULT_LEASE);
    service.createSession(APP, USER, null, "shared").blockingGet();
    Runner runner = new Runner(TurnWorker.agent(Mode.ATOMIC, null), APP, null, service);
    Tally tally = new Tally();
    Map<String, Long> child;
    long elapsed;
    try (Child worker = Child.start(dir, url, Mode.ATOMIC, "shared", n, DEFAULT_LEASE)) {
      worker.await("READY", Duration.ofSeconds(60));
      worker.send("GO");
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        tally.add(TurnWorker.turn(runner, "shared"));
      }
      child = worker.result(Duration.ofSeconds(120));
      elapsed = millisSince(start);
      assertThat(child.get("others")).as("child's other failures: %s", worker.others()).isZero();
    }
    History h = history(service, "shared");
    long count = storedCount(service, "shared");
    // How often the session changed hands between the processes.
    int handovers = 0;
    String previous = null;
    for (String id : h.outcomes.keySet()) {
      String owner = tally.okInvocations.contains(id) ? "parent" : "child";
      if (previous != null && !previous.equals(owner)) {
        handovers++;
      }
      previous = owner;
    }
    figure(
        "oneSession backend=%s turns=%d ok=%d (parent %d, child %d) count=%d events=%d"
            + " handovers=%d elapsedMs=%d childMs=%d",
        backend,
        2 * n,
        tally.ok.get() + child.get("ok"),
        tally.ok.get(),
        child.get("ok"),
        count,
        h.events.size(),
        handovers,
        elapsed,
        child.get("ms"));

    assertThat(tally.others).as("parent's failures (busy, stale, ...)").isEmpty();
    assertThat(tally.ok.get()).isEqualTo(n);
    assertThat(child.get("ok")).isEqualTo(n);
    assertThat(count).isEqualTo(2L * n);
    h.assertWellFormed();
    assertThat(h.outcomes).hasSize(2 * n);
    assertThat(h.count("OK")).as("complete invocations").isEqualTo(2 * n);
    assertThat(h.events).hasSize(4 * 2 * n);
  }

  // ---------------------------------------------------------------------------------------------
  // 4. A process killed mid-turn
  // ---------------------------------------------------------------------------------------------

  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = Backend.class,
      names = {"SQLITE", "POSTGRES"})
  void processKilledMidTurn_nextTurnTakesOverAtOnce_andClosesTheCall(Backend backend)
      throws Exception {
    // A minute: the next turn must not wait for it to run out, since the holder's process is gone
    // (issue 33); a lease that expires is taken over in DatabaseSessionServiceContract.
    Duration lease = Duration.ofMinutes(1);
    String url = newUrl(backend);
    DatabaseSessionService service = open(url, lease);
    service.createSession(APP, USER, null, "victim").blockingGet();
    AtomicLong firstModelCall = new AtomicLong();
    Runner runner = new Runner(TurnWorker.agent(Mode.ATOMIC, firstModelCall), APP, null, service);
    long killedAt;
    Turn turn;
    long done;
    try (Child worker = Child.start(dir, url, Mode.BLOCK, "victim", 1, lease)) {
      worker.await("READY", Duration.ofSeconds(60));
      worker.send("GO");
      worker.await("IN_TOOL", Duration.ofSeconds(30));
      killedAt = System.nanoTime();
      worker.process.destroyForcibly();
      turn = TurnWorker.turn(runner, "victim");
      done = System.nanoTime();
      assertThat(worker.process.waitFor(10, TimeUnit.SECONDS)).as("child died").isTrue();
    }
    long takeoverMs = TimeUnit.NANOSECONDS.toMillis(firstModelCall.get() - killedAt);
    long turnMs = TimeUnit.NANOSECONDS.toMillis(done - killedAt);
    figure(
        "kill backend=%s leaseMs=%d takeoverMs=%d (kill -> first model call) turnDoneMs=%d",
        backend, lease.toMillis(), takeoverMs, turnMs);

    assertThat(turn.ok()).as("turn after the kill: %s", turn.describe()).isTrue();
    assertThat(firstModelCall.get()).as("model called").isNotZero();
    // The dead holder renewed its lease every third of its duration, so at least about 40 s of
    // it were left at the kill: the takeover did not wait for it.
    assertThat(takeoverMs).as("takeover time").isBetween(0L, lease.toMillis() / 2);

    History h = history(service, "victim");
    h.assertWellFormed();
    assertThat(h.outcomes).hasSize(2);
    List<String> ids = new ArrayList<>(h.outcomes.keySet());
    String killed = ids.get(0);
    String next = ids.get(1);
    assertThat(next).isEqualTo(turn.invocationId());
    assertThat(h.outcomes.get(killed)).isEqualTo("INTERRUPTED");
    assertThat(h.outcomes.get(next)).isEqualTo("OK");
    List<Event> killedEvents = h.invocations.get(killed);
    String callId = killedEvents.get(1).functionCalls().get(0).id().orElseThrow();
    FunctionResponse answer = killedEvents.get(2).functionResponses().get(0);
    assertThat(answer.id()).contains(callId);
    assertThat(answer.response().orElseThrow()).containsKey("error");
    assertThat(killedEvents.get(3).errorCode()).contains("INTERRUPTED");
    // The killed turn's increment was never stored (its function response never was).
    assertThat(storedCount(service, "victim")).isEqualTo(1);
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers
  // ---------------------------------------------------------------------------------------------

  private String newUrl(Backend backend) throws Exception {
    return switch (backend) {
      case SQLITE -> "jdbc:sqlite:" + dir.resolve("s" + files.incrementAndGet() + ".db");
      case POSTGRES -> POSTGRES.newMigratedDatabase();
      case MEMORY -> throw new IllegalArgumentException("no URL for the in-memory service");
    };
  }

  private DatabaseSessionService open(String url, Duration lease) {
    DatabaseSessionService service = TurnWorker.service(url, lease);
    closeAfter.add(service);
    return service;
  }

  private static long storedCount(BaseSessionService service, String sessionId) {
    Object v = service.getSession(APP, USER, sessionId).blockingGet().state().get(KEY);
    assertThat(v).as("stored %s", KEY).isInstanceOf(Number.class);
    return ((Number) v).longValue();
  }

  private static History history(BaseSessionService service, String sessionId) {
    return new History(sessionId, service.listEvents(APP, USER, sessionId).blockingGet().events());
  }

  private static long millisSince(long start) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  private static void figure(String format, Object... args) {
    System.out.println("FIGURE " + String.format(format, args));
    System.out.flush();
  }

  /**
   * A session's stored events, grouped by invocation, each invocation classified by its shape:
   * {@code OK} (user message, call of count, its response, the text done) or the error code of its
   * last event (user message, call of count, an error response to it, a final event with the code).
   */
  static final class History {
    final String sessionId;
    final List<Event> events;
    final Map<String, List<Event>> invocations = new LinkedHashMap<>();
    final Map<String, String> outcomes = new LinkedHashMap<>();
    final List<String> problems = new ArrayList<>();
    final Set<String> unansweredCalls = new HashSet<>();

    History(String sessionId, List<Event> events) {
      this.sessionId = sessionId;
      this.events = events;
      String current = null;
      Set<String> calls = new HashSet<>();
      Set<String> answers = new HashSet<>();
      for (int i = 0; i < events.size(); i++) {
        Event e = events.get(i);
        String id = e.invocationId();
        if (id == null) {
          problems.add("event " + i + " has no invocation id");
          continue;
        }
        if (!id.equals(current) && invocations.containsKey(id)) {
          problems.add(
              "event " + i + " of invocation " + id + " comes after invocation " + current);
        }
        current = id;
        invocations.computeIfAbsent(id, k -> new ArrayList<>()).add(e);
        for (FunctionCall fc : e.functionCalls()) {
          calls.add(fc.id().orElse("<no id at event " + i + ">"));
        }
        for (FunctionResponse fr : e.functionResponses()) {
          answers.add(fr.id().orElse("<no id at event " + i + ">"));
        }
      }
      unansweredCalls.addAll(calls);
      unansweredCalls.removeAll(answers);
      invocations.forEach((id, list) -> outcomes.put(id, classify(id, list)));
    }

    private String classify(String id, List<Event> list) {
      String shape = shape(list);
      if (list.size() != 4) {
        problems.add("invocation " + id + " has " + list.size() + " events: " + shape);
        return "BAD";
      }
      Event user = list.get(0);
      Event call = list.get(1);
      Event response = list.get(2);
      Event last = list.get(3);
      if (!"user".equals(user.author()) || !"count".equals(user.stringifyContent())) {
        problems.add("invocation " + id + " does not start with the user message: " + shape);
        return "BAD";
      }
      if (call.functionCalls().size() != 1
          || !call.functionCalls().get(0).name().orElse("").equals("count")
          || call.functionCalls().get(0).id().isEmpty()) {
        problems.add("invocation " + id + ": second event is not one call of count: " + shape);
        return "BAD";
      }
      String callId = call.functionCalls().get(0).id().get();
      if (response.functionResponses().size() != 1
          || !response.functionResponses().get(0).id().orElse("").equals(callId)) {
        problems.add("invocation " + id + ": third event does not answer the call: " + shape);
        return "BAD";
      }
      boolean error =
          response.functionResponses().get(0).response().orElse(Map.of()).containsKey("error");
      if (!error) {
        if (last.errorCode().isPresent() || !"done".equals(last.stringifyContent())) {
          problems.add("invocation " + id + ": answered call not followed by done: " + shape);
          return "BAD";
        }
        return "OK";
      }
      if (last.errorCode().isEmpty() || !last.stringifyContent().isEmpty()) {
        problems.add("invocation " + id + ": error response without a final error: " + shape);
        return "BAD";
      }
      return last.errorCode().get();
    }

    private static String shape(List<Event> list) {
      List<String> parts = new ArrayList<>();
      for (Event e : list) {
        parts.add(
            e.author()
                + ":"
                + e.stringifyContent()
                + (e.functionCalls().isEmpty() ? "" : " calls" + e.functionCalls())
                + (e.functionResponses().isEmpty() ? "" : " responses" + e.functionResponses())
                + e.errorCode().map(c -> " errorCode=" + c).orElse(""));
      }
      return parts.toString();
    }

    int count(String outcome) {
      return (int) outcomes.values().stream().filter(outcome::equals).count();
    }

    Event last(String invocationId) {
      List<Event> list = invocations.get(invocationId);
      return list.get(list.size() - 1);
    }

    void assertWellFormed() {
      assertThat(problems)
          .as("malformed or interleaved invocations on session %s", sessionId)
          .isEmpty();
      assertThat(unansweredCalls)
          .as("function calls without a stored response on session %s", sessionId)
          .isEmpty();
    }
  }

  /**
   * A {@link TurnWorker} child JVM on the test classpath: its stdout read line by line, its stderr
   * kept in a file for diagnosis, destroyed on close.
   */
  static final class Child implements AutoCloseable {
    private static final String EOF = "\u0000EOF";

    final Process process;
    private final Path stderr;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();

    private Child(Process process, Path stderr) {
      this.process = process;
      this.stderr = stderr;
      Thread reader =
          new Thread(
              () -> {
                try (var in =
                    new java.io.BufferedReader(
                        new java.io.InputStreamReader(
                            process.getInputStream(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = in.readLine()) != null) {
                    lines.add(line);
                  }
                } catch (IOException e) {
                  // the process was killed
                } finally {
                  lines.add(EOF);
                }
              },
              "turn-worker-stdout");
      reader.setDaemon(true);
      reader.start();
    }

    static Child start(Path dir, String url, Mode mode, String sessionId, int turns, Duration lease)
        throws IOException {
      Path stderr = Files.createTempFile(dir, "worker", ".err");
      Process process =
          new ProcessBuilder(
                  ChildJvm.command(
                      TurnWorker.class,
                      url,
                      mode.name(),
                      sessionId,
                      String.valueOf(turns),
                      String.valueOf(lease.toMillis())))
              .redirectError(stderr.toFile())
              .start();
      return new Child(process, stderr);
    }

    /** Waits for a line starting with {@code prefix} and returns it. */
    String await(String prefix, Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        long left = deadline - System.nanoTime();
        String line = left <= 0 ? null : lines.poll(left, TimeUnit.NANOSECONDS);
        if (line == null) {
          fail(
              "no '%s' from the child within %s; it wrote %s; stderr:%n%s",
              prefix, timeout, seen, err());
        }
        if (line.equals(EOF)) {
          fail("the child ended before '%s'; it wrote %s; stderr:%n%s", prefix, seen, err());
        }
        seen.add(line);
        if (line.startsWith(prefix)) {
          return line;
        }
      }
    }

    void send(String line) throws IOException {
      OutputStream in = process.getOutputStream();
      in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    }

    /** Waits for the RESULT line and returns its fields. */
    Map<String, Long> result(Duration timeout) throws InterruptedException {
      String line = await("RESULT ", timeout);
      Map<String, Long> fields = new LinkedHashMap<>();
      for (String field : line.substring("RESULT ".length()).split(" ")) {
        String[] kv = field.split("=", 2);
        fields.put(kv[0], Long.parseLong(kv[1]));
      }
      return fields;
    }

    List<String> others() {
      return seen.stream().filter(l -> l.startsWith("OTHER ")).toList();
    }

    private @Nullable String err() {
      try {
        String text = Files.readString(stderr);
        return text.length() > 8000 ? "..." + text.substring(text.length() - 8000) : text;
      } catch (IOException e) {
        return "(unreadable: " + e + ")";
      }
    }

    @Override
    public void close() {
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
