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
 * adk4j vs Google's ADK for Java: filling a new in-memory session with {@value #EVENTS} standard
 * events, each built in the loop and appended through the caller's session copy, as a runner does.
 * One operation = create the session, {@value #EVENTS} appends, delete the session; time per whole
 * fill. An append whose cost grows with the session's length makes the fill grow with its square;
 * {@link AppendAtCompare} measures one append at the start and at 10,000 events.
 *
 * <p>Run: {@code java -jar adk-benchmarks/target/benchmarks.jar FillCompare -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class FillCompare {

  static final int EVENTS = 10_000;

  @Param({Workload.ADK4J, Workload.ADK_JAVA})
  public String impl;

  private SessionOps ops;
  private int fills;

  @Setup(Level.Trial)
  public void setUp() {
    ops = SessionOps.create(impl);
    Checks.sessions(ops, impl);
    ops.createSession("anchor");
  }

  @Benchmark
  public Object fill10000() {
    String id = "fill-" + ++fills;
    Object session = ops.createSession(id);
    for (int i = 0; i < EVENTS; i++) {
      ops.appendNew(session, i);
    }
    ops.deleteSession(id);
    return session;
  }
}
