package dev.adk4j.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One metric of one case over its runs: the mean of the runs' scores, their spread (population
 * standard deviation), each run's score, and the status of the mean against the threshold.
 *
 * @param metricName the metric
 * @param threshold the passing score, null for an operational metric
 * @param score the mean over the runs that produced a score, null if none did
 * @param spread the population standard deviation of those scores (0 for one run)
 * @param runScores each run's score, null where a run produced none
 * @param status PASSED if {@code score >= threshold}, FAILED below it, INFORMATIONAL for the
 *     operational metrics, ERRORED if a run could not be judged, NOT_EVALUATED without a score
 * @param error why the metric errored, null otherwise
 */
public record MetricResult(
    String metricName,
    @Nullable Double threshold,
    @Nullable Double score,
    double spread,
    List<@Nullable Double> runScores,
    EvalStatus status,
    @Nullable String error) {

  public MetricResult {
    Objects.requireNonNull(metricName, "metricName");
    runScores = Collections.unmodifiableList(new ArrayList<>(runScores));
  }

  static MetricResult of(
      String metric,
      @Nullable Double threshold,
      List<@Nullable Double> runs,
      @Nullable String error) {
    List<Double> present = new ArrayList<>();
    for (Double d : runs) {
      if (d != null) {
        present.add(d);
      }
    }
    Double mean = EvalMetrics.mean(present);
    double spread = 0;
    if (mean != null) {
      double sq = 0;
      for (double d : present) {
        sq += (d - mean) * (d - mean);
      }
      spread = Math.sqrt(sq / present.size());
    }
    EvalStatus status;
    if (error != null) {
      status = EvalStatus.ERRORED;
    } else if (threshold == null) {
      status = EvalStatus.INFORMATIONAL;
    } else if (mean == null) {
      status = EvalStatus.NOT_EVALUATED;
    } else {
      status = mean >= threshold ? EvalStatus.PASSED : EvalStatus.FAILED;
    }
    return new MetricResult(metric, threshold, mean, spread, runs, status, error);
  }
}
