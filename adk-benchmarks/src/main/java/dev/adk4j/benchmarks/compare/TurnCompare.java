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
 * adk4j vs Google's ADK for Java: one {@code Runner} turn on a fresh session, in a steady loop (see
 * {@link TurnOps} for the turn: user message, function call, a tool writing state, final answer
 * stored by output key, with a scripted model of no latency). One operation = create a session, run
 * one turn on it to completion, delete the session; one runner serves all of them, as in a server.
 * Time and, with {@code -prof gc}, bytes per turn ({@code gc.alloc.rate.norm} counts all threads,
 * so it includes the work adk4j's runner does on its own threads).
 *
 * <p>Ten warm-up seconds: both runners need several thousand turns before the JIT has compiled
 * their paths.
 *
 * <p>{@link TurnHistoryCompare} measures a turn on sessions with a history.
 *
 * <p>Run: {@code java -jar adk-benchmarks/target/benchmarks.jar TurnCompare -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 10, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class TurnCompare {

  @Param({Workload.ADK4J, Workload.ADK_JAVA})
  public String impl;

  private TurnOps ops;
  private int sessions;

  @Setup(Level.Trial)
  public void setUp() {
    ops = TurnOps.create(impl);
    Checks.turns(ops, impl);
  }

  @Benchmark
  public int freshSession() {
    String id = "fresh-" + ++sessions;
    ops.createSession(id);
    int emitted = ops.turn(id);
    ops.deleteSession(id);
    return emitted;
  }
}
