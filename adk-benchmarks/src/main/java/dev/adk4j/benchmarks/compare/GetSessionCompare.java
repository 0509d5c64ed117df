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
 * adk4j vs Google's ADK for Java: in-memory {@code getSession} of a session of {@code events}
 * standard events (appended through the service at setup), whole ({@code whole}) and only its last
 * 10 events ({@code last10}: {@code GetSessionConfig.numRecentEvents(10)} in both APIs).
 *
 * <p>Run: {@code java -jar adk-benchmarks/target/benchmarks.jar GetSessionCompare -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class GetSessionCompare {

  static final String SESSION = "long";
  static final int RECENT = 10;

  @Param({Workload.ADK4J, Workload.ADK_JAVA})
  public String impl;

  @Param({"100", "1000", "10000"})
  public int events;

  private SessionOps ops;

  @Setup(Level.Trial)
  public void setUp() {
    ops = SessionOps.create(impl);
    Checks.sessions(ops, impl);
    Object session = ops.createSession(SESSION);
    for (int i = 0; i < events; i++) {
      ops.appendNew(session, i);
    }
    Checks.expect(impl, "events read", events, ops.eventCount(ops.getSession(SESSION)));
    Checks.expect(
        impl, "recent events read", RECENT, ops.eventCount(ops.getRecentEvents(SESSION, RECENT)));
  }

  @Benchmark
  public Object whole() {
    return ops.getSession(SESSION);
  }

  @Benchmark
  public Object last10() {
    return ops.getRecentEvents(SESSION, RECENT);
  }
}
