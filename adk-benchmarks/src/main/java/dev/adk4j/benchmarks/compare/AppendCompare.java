package dev.adk4j.benchmarks.compare;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * adk4j vs Google's ADK for Java: one in-memory {@code appendEvent} of the standard event (a short
 * model text and a state delta of one session key, one {@code user:} key and one {@code app:} key;
 * see {@link Workload}), awaited.
 *
 * <ul>
 *   <li>{@code built}: the event is built in the operation, as a runner builds it: each side's
 *       builder, with a fresh random id from the side's own generator ({@code
 *       Event.generateEventId()} on both) and the current time.
 *   <li>{@code prebuilt}: the events were built before the trial, and the operation only appends
 *       one.
 * </ul>
 *
 * <p>Both sides append to sessions of at most {@value Workload#EVENTS_PER_SESSION} events: every
 * {@value Workload#EVENTS_PER_SESSION} appends the operation deletes its session and creates a
 * fresh one (cost shared by those appends). This keeps the session short, so that these figures are
 * the cost of an append near the start of a session ({@link AppendAtCompare} measures it at 10,000
 * events), and it lets the prebuilt events be appended again: a session receives each of the
 * {@value Workload#EVENTS_PER_SESSION} prebuilt events (distinct ids) exactly once, so no side ever
 * sees one id twice in a session. Neither in-memory service checks ids today, but a service may
 * reject a repeated id, and both sides must do the same work.
 *
 * <p>Run: {@code java -jar adk-benchmarks/target/benchmarks.jar AppendCompare -prof gc}; or all the
 * comparisons, with the chart: {@code adk-benchmarks/compare.sh}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class AppendCompare {

  @Param({Workload.ADK4J, Workload.ADK_JAVA})
  public String impl;

  private SessionOps ops;
  private final Object[] prebuilt = new Object[Workload.EVENTS_PER_SESSION];
  private Object session;
  private String sessionId;
  private int sessionNumber;
  private int position;

  @Setup(Level.Trial)
  public void setUp() {
    ops = SessionOps.create(impl);
    Checks.sessions(ops, impl);
    // Another session of the user stays, so that no side drops and recreates its per-user maps.
    ops.createSession("anchor");
    for (int i = 0; i < prebuilt.length; i++) {
      prebuilt[i] = ops.prebuild(i, "prebuilt-" + i);
    }
    nextSession();
  }

  private void nextSession() {
    if (sessionId != null) {
      ops.deleteSession(sessionId);
    }
    sessionId = "append-" + ++sessionNumber;
    session = ops.createSession(sessionId);
    position = 0;
  }

  @Benchmark
  public Object built() {
    if (position == Workload.EVENTS_PER_SESSION) {
      nextSession();
    }
    return ops.appendNew(session, position++);
  }

  @Benchmark
  public Object prebuilt() {
    if (position == Workload.EVENTS_PER_SESSION) {
      nextSession();
    }
    return ops.append(session, prebuilt[position++]);
  }
}
