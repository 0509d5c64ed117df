package dev.adk4j.benchmarks.compare;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * adk4j vs Google's ADK for Java: the cost of one in-memory append when the session already holds
 * {@code at} events, for the target "append cost independent of session length": compare the {@code
 * at=10000} row with the {@code at=0} row of the same side.
 *
 * <p>Before each iteration (untimed): a new service and session, filled with {@code at} standard
 * events through the caller's copy, and {@value #SETUP_APPENDS}{@code - at} more appends to another
 * session, so that every setup does the same work. The operation: {@value #BATCH} more appends of
 * events built in the loop (from {@code at} to {@code at + }{@value #BATCH}: 1 % growth at 10,000),
 * through the same copy. {@code SingleShotTime} because the session must be back at {@code at}
 * events for every measurement, which a timed loop cannot do; the score is divided by {@value
 * #BATCH}, so it is the time of one append. Bytes per append: {@link AllocatedBytes} ({@code -prof
 * gc} would count the setup's fill too).
 *
 * <p>Run: {@code java -jar adk-benchmarks/target/benchmarks.jar AppendAtCompare}.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 20)
@Measurement(iterations = 40)
@Fork(1)
@State(Scope.Thread)
public class AppendAtCompare {

  static final int BATCH = 100;

  @Param({Workload.ADK4J, Workload.ADK_JAVA})
  public String impl;

  @Param({"0", "10000"})
  public int at;

  private SessionOps ops;
  private Object session;
  private long allocatedBefore;

  /** Appends made before the first iteration, on a throwaway service, to compile the path. */
  static final int WARM_UP_APPENDS = 20_000;

  @Setup(Level.Trial)
  public void warmUp() {
    SessionOps warm = SessionOps.create(impl);
    Checks.sessions(warm, impl);
    for (int s = 0; s < WARM_UP_APPENDS / 1_000; s++) {
      Object session = warm.createSession("warm-" + s);
      for (int i = 0; i < 1_000; i++) {
        warm.appendNew(session, i);
      }
      warm.deleteSession("warm-" + s);
    }
  }

  /**
   * Appends every setup makes: {@code at} to the measured session, the rest to another session of
   * the same service. So the shot of {@code at=0} follows the same work as that of {@code at=10000}
   * (without it, the first came right after an idle setup, on cold caches, and took several times
   * longer than in a loop).
   */
  static final int SETUP_APPENDS = 10_000;

  @Setup(Level.Iteration)
  public void fill() {
    ops = SessionOps.create(impl);
    Object ballast = ops.createSession("ballast");
    for (int i = 0; i < SETUP_APPENDS - at; i++) {
      ops.appendNew(ballast, i);
    }
    session = ops.createSession("at");
    for (int i = 0; i < at; i++) {
      ops.appendNew(session, i);
    }
    allocatedBefore = AllocatedBytes.now();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void append(Blackhole bh) {
    for (int i = 0; i < BATCH; i++) {
      bh.consume(ops.appendNew(session, at + i));
    }
  }

  @TearDown(Level.Iteration)
  public void count(AllocatedBytes bytes) {
    bytes.allocBytesPerOp = (AllocatedBytes.now() - allocatedBefore) / BATCH;
    Checks.expect(impl, "events after the batch", at + BATCH, ops.eventCount(session));
  }
}
