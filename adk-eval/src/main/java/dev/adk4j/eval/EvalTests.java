package dev.adk4j.eval;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;

/**
 * The JUnit 5 integration: one dynamic test per eval case, named by the case id, that fails with a
 * readable diff of trajectory, response and state (and the table row of each metric).
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicTest> weatherAgent() {
 *   EvalRunner runner = EvalRunner.builder().app("weather", agent)
 *       .sessionService(new InMemorySessionService()).build();
 *   return EvalTests.of(runner, EvalSet.read(Path.of("weather.evalset.json")));
 * }
 * }</pre>
 *
 * Needs {@code org.junit.jupiter:junit-jupiter-api} on the class path (an optional dependency of
 * adk-eval).
 */
public final class EvalTests {
  private EvalTests() {}

  /** One test per case of {@code set}, each running its case when JUnit runs it. */
  public static Stream<DynamicTest> of(EvalRunner runner, EvalSet set) {
    return set.cases().stream()
        .map(c -> DynamicTest.dynamicTest(c.evalId(), () -> check(runner.run(set, c))));
  }

  /** Fails with a readable message unless {@code result} passed. */
  public static void check(EvalCaseResult result) {
    if (result.status() == EvalStatus.PASSED) {
      return;
    }
    StringBuilder b = new StringBuilder();
    b.append("Eval case ").append(result.evalId()).append(' ').append(result.status());
    if (result.error() != null) {
      b.append(": ").append(result.error());
    }
    b.append('\n');
    for (MetricResult m : result.metrics()) {
      if (m.status() == EvalStatus.FAILED || m.status() == EvalStatus.ERRORED) {
        b.append("  ")
            .append(m.metricName())
            .append(": ")
            .append(
                m.score() == null ? "n/a" : String.format(java.util.Locale.ROOT, "%.4f", m.score()))
            .append(" < threshold ")
            .append(m.threshold())
            .append(m.error() == null ? "" : " (" + m.error() + ")")
            .append('\n');
      }
    }
    for (String f : result.failures()) {
      b.append(f).append('\n');
    }
    throw new AssertionFailedError(b.toString().stripTrailing());
  }
}
