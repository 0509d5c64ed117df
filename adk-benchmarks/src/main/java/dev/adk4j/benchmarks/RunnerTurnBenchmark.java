package dev.adk4j.benchmarks;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.events.EventCompaction;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.runner.EventSummarizer;
import dev.adk4j.runner.EventsCompactionConfig;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One {@code Runner} turn ({@code runAsync(user, session, message)}, consumed to completion) on a
 * session that already holds {@code events} events, on {@code InMemorySessionService}, SQLite and
 * PostgreSQL, with event compaction off and on. The model answers at once with a short text, so the
 * time is the runner's, the agent's and the session service's: lease, load, the user's event, the
 * request built from the history, the model's event, a compaction when due, lease release.
 *
 * <p><b>Unit</b>: SingleShotTime, one operation = a batch of 20 consecutive turns on the session,
 * reported in <b>milliseconds per batch of 20 turns</b> (divide by 20 for one turn). A turn adds
 * two events (and compaction events), so the session is put back to its {@code events} events
 * before each iteration, and the batch stays short (20 turns: 100 events become at most 140).
 *
 * <p><b>Setup</b>: the session is filled through {@code appendEvent} with alternating user and
 * model text events ("question i" / "answer i", one invocation id per pair). With compaction on,
 * event {@code events - 10} is a compaction event (author "user") summarizing everything before it,
 * so the history ends with a summary followed by five question/answer pairs, as a long compacted
 * session would; the runner compacts every 10 invocations with a summarizer that returns a fixed
 * text at once, so a batch of 20 turns makes two compactions (after turns 5 and 15).
 *
 * <p><b>Between iterations</b>: on the databases the extra event rows are deleted with raw JDBC and
 * the session row is set back (revision, latest compaction, no lease); the same {@code Runner} is
 * kept, so its per-session event cache holds a revision the store no longer has: the first turn of
 * each iteration sees the mismatch and reloads the session from storage (all events, or from the
 * latest compaction on), and the next 19 turns read only what was appended since from storage and
 * the rest from the cache. In memory a new service is filled and a new {@code Runner} built, so the
 * first turn also loads from storage. The last turn's lease release and cache update run after its
 * events complete, so they fall outside the batch's time (the other turns' tails are inside it: the
 * next turn waits for them); the iteration's teardown waits for that tail before the reset.
 *
 * <p><b>Warmup</b>: 20 batches (400 turns). With 2 batches the JIT is still compiling: in memory a
 * batch took 190 ms at first and settled at about 7 ms only after some 15 batches.
 *
 * <p>At the end of each trial, a line {@code CONTENTS ...} gives how many contents the model
 * received in the last request and the smallest and largest request of the trial.
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -B -pl adk-benchmarks -am package -DskipTests
 * java -jar adk-benchmarks/target/benchmarks.jar RunnerTurnBenchmark -f 3
 * # the first turn after a reset alone (batches of one turn; every turn reloads the session):
 * java -jar adk-benchmarks/target/benchmarks.jar RunnerTurnBenchmark -f 1 -bs 1 -wi 200 -i 30
 * </pre>
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 20, batchSize = 20)
@Measurement(iterations = 5, batchSize = 20)
@State(Scope.Benchmark)
public class RunnerTurnBenchmark {

  static final String MEMORY = "memory";
  static final String APP = "bench_app";
  static final String USER = "bench_user";
  static final String SESSION = "long";

  /** Events after the filled compaction event: five question/answer pairs. */
  static final int AFTER_COMPACTION = 10;

  @Param({"100", "1000", "10000"})
  public int events;

  @Param({MEMORY, BenchDatabase.SQLITE, BenchDatabase.POSTGRESQL})
  public String backend;

  @Param({"off", "on"})
  public String compaction;

  /**
   * Tracing: {@code off}, no OpenTelemetry SDK (adk4j's spans are no-ops: the default); {@code
   * spans}, an SDK records every span, as an application's would; {@code content}, and each model
   * call's request and response as JSON, as adk-server's {@code --traces} records them. Only {@code
   * off} by default; {@code -p tracing=off,spans,content} compares them.
   */
  @Param({"off"})
  public String tracing;

  @Nullable BenchDatabase db;
  BaseSessionService service;
  Runner runner;
  final InstantLlm model = new InstantLlm();
  LlmAgent agent;
  final Content message = Content.fromParts(Part.fromText("Next question?"));

  /** Database only: the session's primary key and the seq of its filled compaction event. */
  long sessionPk;

  @Nullable Long compactionSeq;

  @Nullable Connection raw;

  @Setup(Level.Trial)
  public void start() throws SQLException {
    if (!"off".equals(tracing)) {
      recordSpans("content".equals(tracing));
    }
    agent = LlmAgent.builder().name("bench").model(model).instruction("Answer.").build();
    if (MEMORY.equals(backend)) {
      return; // filled at every iteration
    }
    db = BenchDatabase.start(backend);
    service = new DatabaseSessionService(db.url, DatabaseSessionConfig.defaults());
    long started = System.nanoTime();
    fill(service, events, compactionOn());
    Properties props = new Properties();
    if (db.isSqlite()) {
      props.setProperty("journal_mode", "WAL");
      props.setProperty("busy_timeout", "5000");
    }
    raw = DriverManager.getConnection(db.url, props);
    try (PreparedStatement ps =
        raw.prepareStatement(
            "SELECT pk, revision, last_compaction_seq FROM adk_sessions"
                + " WHERE app_name = ? AND user_id = ? AND session_id = ?")) {
      ps.setString(1, APP);
      ps.setString(2, USER);
      ps.setString(3, SESSION);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        sessionPk = rs.getLong(1);
        long revision = rs.getLong(2);
        long seq = rs.getLong(3);
        compactionSeq = rs.wasNull() ? null : seq;
        if (revision != events) {
          throw new IllegalStateException("filled " + events + " events, revision " + revision);
        }
        Long expected = compactionOn() ? Long.valueOf(events - AFTER_COMPACTION) : null;
        if (!Objects.equals(compactionSeq, expected)) {
          throw new IllegalStateException(
              "last_compaction_seq " + compactionSeq + ", expected " + expected);
        }
      }
    }
    if (!db.isSqlite()) {
      try (var s = raw.createStatement()) {
        s.execute("ANALYZE adk_events");
        s.execute("ANALYZE adk_sessions");
      }
    }
    System.out.printf(
        "%nFilled %d events on %s in %d ms%n",
        events, backend, (System.nanoTime() - started) / 1_000_000);
    runner = newRunner();
  }

  /**
   * Registers an OpenTelemetry SDK that records every span and hands each ended one to a processor
   * that reads its data, as an exporter would; with {@code content}, turns on adk4j's capture of
   * model requests and responses. Each JMH fork is a JVM of its own, so the global stays per trial.
   */
  static void recordSpans(boolean content) {
    if (content) {
      System.setProperty("adk4j.telemetry.captureContent", "true");
    }
    io.opentelemetry.sdk.trace.SdkTracerProvider provider =
        io.opentelemetry.sdk.trace.SdkTracerProvider.builder()
            .addSpanProcessor(
                new io.opentelemetry.sdk.trace.SpanProcessor() {
                  @Override
                  public void onStart(
                      io.opentelemetry.context.Context parent,
                      io.opentelemetry.sdk.trace.ReadWriteSpan span) {}

                  @Override
                  public boolean isStartRequired() {
                    return false;
                  }

                  @Override
                  public void onEnd(io.opentelemetry.sdk.trace.ReadableSpan span) {
                    span.toSpanData();
                  }

                  @Override
                  public boolean isEndRequired() {
                    return true;
                  }
                })
            .build();
    io.opentelemetry.api.GlobalOpenTelemetry.set(
        new io.opentelemetry.api.OpenTelemetry() {
          @Override
          public io.opentelemetry.api.trace.TracerProvider getTracerProvider() {
            return provider;
          }

          @Override
          public io.opentelemetry.context.propagation.ContextPropagators getPropagators() {
            return io.opentelemetry.context.propagation.ContextPropagators.noop();
          }
        });
  }

  @Setup(Level.Iteration)
  public void reset() throws SQLException {
    if (MEMORY.equals(backend)) {
      service = new InMemorySessionService();
      fill(service, events, compactionOn());
      runner = newRunner();
      return;
    }
    boolean autoCommit = raw.getAutoCommit();
    raw.setAutoCommit(false);
    try (PreparedStatement deleteEvents =
            raw.prepareStatement("DELETE FROM adk_events WHERE session_pk = ? AND seq > ?");
        PreparedStatement resetSession =
            raw.prepareStatement(
                "UPDATE adk_sessions SET revision = ?, last_compaction_seq = ?,"
                    + " lease_owner = NULL, lease_until = NULL, next_owner = NULL,"
                    + " next_until = NULL WHERE pk = ?")) {
      deleteEvents.setLong(1, sessionPk);
      deleteEvents.setLong(2, events);
      deleteEvents.executeUpdate();
      resetSession.setLong(1, events);
      if (compactionSeq == null) {
        resetSession.setNull(2, Types.BIGINT);
      } else {
        resetSession.setLong(2, compactionSeq);
      }
      resetSession.setLong(3, sessionPk);
      if (resetSession.executeUpdate() != 1) {
        throw new IllegalStateException("session row " + sessionPk + " is gone");
      }
      raw.commit();
    } catch (SQLException | RuntimeException e) {
      raw.rollback();
      throw e;
    } finally {
      raw.setAutoCommit(autoCommit);
    }
  }

  /**
   * Waits for the tail of the iteration's last turn: the runner releases the session's lease (and
   * updates its cache) after the turn's events complete. Taking and returning the lease here waits
   * for that, so that the reset and the end of the trial never race with it.
   */
  @TearDown(Level.Iteration)
  public void settle() {
    service.acquireLease(APP, USER, SESSION, Duration.ofSeconds(30)).blockingGet().close();
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    System.out.printf(
        "%nCONTENTS events=%d compaction=%s backend=%s lastRequestContents=%d"
            + " minRequestContents=%d maxRequestContents=%d requests=%d%n",
        events, compaction, backend, model.last, model.min, model.max, model.requests);
    if (raw != null) {
      raw.close();
    }
    if (service instanceof DatabaseSessionService) {
      ((DatabaseSessionService) service).close();
    }
    if (db != null) {
      db.close();
    }
  }

  private boolean compactionOn() {
    return "on".equals(compaction);
  }

  private Runner newRunner() {
    if (!compactionOn()) {
      return new Runner(agent, APP, null, service);
    }
    EventSummarizer fixed =
        (previous, evs) ->
            Maybe.just(
                new EventCompaction(
                    previous != null ? previous.startTimestamp() : evs.get(0).timestamp(),
                    evs.get(evs.size() - 1).timestamp(),
                    summary("The user asked questions; the agent answered them.")));
    return new Runner(
        agent, APP, null, service, EventsCompactionConfig.of(10, 0).withSummarizer(fixed));
  }

  /**
   * Creates the session and appends {@code n} events through {@code service}: "question i" by the
   * user and "answer i" by the agent, each pair one invocation; with {@code compaction}, event
   * {@code n - 10} is a compaction event summarizing events 1 to {@code n - 11}. Timestamps are one
   * millisecond apart and end in the past.
   */
  static void fill(BaseSessionService service, int n, boolean compaction) {
    Session session = service.createSession(APP, USER, null, SESSION).blockingGet();
    long first = System.currentTimeMillis() - 60_000 - n;
    int compactionAt = compaction ? n - AFTER_COMPACTION : -1;
    for (int i = 1; i <= n; i++) {
      long ts = first + i - 1;
      String invocation = "fill-" + ((i + 1) / 2);
      Event.Builder e = Event.builder().timestamp(ts);
      if (i == compactionAt) {
        e.invocationId("fill-compaction")
            .author("user")
            .actions(
                EventActions.builder()
                    .compaction(
                        new EventCompaction(
                            first,
                            ts - 1,
                            summary("Questions 1 to " + (i / 2) + " were asked and answered.")))
                    .build());
      } else if (i % 2 == 1) {
        e.invocationId(invocation)
            .author("user")
            .content(Content.builder().role("user").parts(Part.fromText("question " + i)).build());
      } else {
        e.invocationId(invocation)
            .author("bench")
            .content(Content.builder().role("model").parts(Part.fromText("answer " + i)).build());
      }
      service.appendEvent(session, e.build()).blockingGet();
    }
  }

  static Content summary(String text) {
    return Content.builder().role("model").parts(Part.fromText(text)).build();
  }

  /** One turn: the user's message, the model's answer, a compaction when due. */
  @Benchmark
  public int turn() {
    int[] count = {0};
    AtomicReference<Throwable> error = new AtomicReference<>();
    runner.runAsync(USER, SESSION, message).blockingSubscribe(e -> count[0]++, error::set);
    if (error.get() != null) {
      throw new IllegalStateException("turn failed", error.get());
    }
    return count[0];
  }

  /**
   * A model with no latency: every request gets the same short answer. Records the number of
   * contents of the last request, and the smallest and largest seen.
   */
  static final class InstantLlm extends BaseLlm {
    private static final LlmResponse ANSWER =
        LlmResponse.builder()
            .content(Content.builder().role("model").parts(Part.fromText("OK.")).build())
            .build();

    volatile int last;
    volatile int min = Integer.MAX_VALUE;
    volatile int max;
    volatile long requests;

    InstantLlm() {
      super("instant-bench-model");
    }

    @Override
    public boolean blocksSubscriber() {
      return false; // answers at once
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
      return Flowable.fromCallable(
          () -> {
            record(request.contents().size());
            return ANSWER;
          });
    }

    private synchronized void record(int contents) {
      last = contents;
      min = Math.min(min, contents);
      max = Math.max(max, contents);
      requests++;
    }
  }
}
