package dev.adk4j.eval;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The result of one eval case over its runs.
 *
 * @param evalSetId the set
 * @param evalId the case
 * @param status ERRORED if the case could not run or a metric could not be judged, FAILED if a
 *     metric failed or a state check did not hold, PASSED otherwise
 * @param metrics one result per metric, scored metrics first, then state, then operational
 * @param runs what each run did
 * @param failures readable differences (trajectory, response, state) of the runs that failed
 * @param error why the case errored, null otherwise
 */
public record EvalCaseResult(
    String evalSetId,
    String evalId,
    EvalStatus status,
    List<MetricResult> metrics,
    List<Run> runs,
    List<String> failures,
    @Nullable String error) {

  public EvalCaseResult {
    Objects.requireNonNull(evalId, "evalId");
    metrics = List.copyOf(metrics);
    runs = List.copyOf(runs);
    failures = List.copyOf(failures);
  }

  /**
   * One run of a case: its session and the actual invocations.
   *
   * @param sessionId the run's own session
   * @param userId the session's user
   * @param actual what the agent did, one invocation per expected one that ran
   * @param perInvocation per metric, the score of each invocation, in the order of {@code metrics}
   */
  public record Run(
      String sessionId,
      String userId,
      List<Invocation> actual,
      java.util.Map<String, List<@Nullable Double>> perInvocation) {
    public Run {
      actual = List.copyOf(actual);
      perInvocation =
          java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(perInvocation));
    }
  }

  /** The result of {@code metricName}, if it was scored. */
  public java.util.Optional<MetricResult> metric(String metricName) {
    return metrics.stream().filter(m -> m.metricName().equals(metricName)).findFirst();
  }
}
