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
 * adk4j vs Google's ADK for Java: rendering an instruction of ten placeholders, four of them {@code
 * user:} and {@code app:} keys ({@link Workload#TEMPLATE}), from a session's state: {@code
 * dev.adk4j.agents.InstructionUtils.injectSessionState(ReadonlyContext, String)} and {@code
 * com.google.adk.utils.InstructionUtils.injectSessionState(InvocationContext, String)}, awaited.
 * The context is built once, over a session read back with {@code getSession}; both sides must
 * render {@link Workload#expectedRendering()}.
 *
 * <p>Run: {@code java -jar adk-benchmarks/target/benchmarks.jar TemplateCompare -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class TemplateCompare {

  @Param({Workload.ADK4J, Workload.ADK_JAVA})
  public String impl;

  private TemplateOps ops;

  @Setup(Level.Trial)
  public void setUp() {
    ops = TemplateOps.create(impl);
    Checks.template(ops, impl);
  }

  @Benchmark
  public String render() {
    return ops.render(Workload.TEMPLATE);
  }
}
