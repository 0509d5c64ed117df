package dev.adk4j.eval;

import com.google.genai.types.FunctionCall;
import dev.adk4j.internal.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * ADK's deterministic metrics, with ADK's definitions (docs/evaluation.md gives each formula).
 * Every per-invocation score pairs the i-th actual invocation with the i-th expected one; the
 * overall score is the mean over the pairs (as Python's {@code zip}, the shorter list decides), or
 * absent when there are none. Stateless and thread-safe.
 */
public final class EvalMetrics {
  private EvalMetrics() {}

  public static final String TOOL_TRAJECTORY_AVG_SCORE = "tool_trajectory_avg_score";
  public static final String RESPONSE_MATCH_SCORE = "response_match_score";
  public static final String FINAL_RESPONSE_MATCH_V2 = "final_response_match_v2";
  public static final String RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1 =
      "rubric_based_final_response_quality_v1";
  public static final String TOOL_CALL_COUNT_V1 = "tool_call_count_v1";
  public static final String INFERENCE_CALL_COUNT_V1 = "inference_call_count_v1";
  public static final String TOKEN_USAGE_V1 = "token_usage_v1";

  /** adk4j: wall-clock seconds per invocation (ADK records it on the invocation as duration). */
  public static final String DURATION_V1 = "duration_v1";

  /** adk4j: the share of a case's state checks that held. */
  public static final String STATE_MATCH = "adk4j_state_match";

  static final Set<String> SCORED =
      Set.of(
          TOOL_TRAJECTORY_AVG_SCORE,
          RESPONSE_MATCH_SCORE,
          FINAL_RESPONSE_MATCH_V2,
          RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1);
  static final Set<String> OPERATIONAL =
      Set.of(TOOL_CALL_COUNT_V1, INFERENCE_CALL_COUNT_V1, TOKEN_USAGE_V1, DURATION_V1);

  /** How actual tool calls are matched with expected ones. */
  public enum MatchType {
    /** The same calls in the same order, none extra, none missing. */
    EXACT,
    /** Every expected call, in order; other calls may come between. */
    IN_ORDER,
    /** Every expected call, each matched to a distinct actual call, in any order. */
    ANY_ORDER
  }

  /**
   * Whether {@code actual} matches {@code expected}: names equal, and args equal as Python compares
   * dicts (numbers by value, {@code 1 == 1.0}; absent args differ from empty args) unless {@code
   * ignoreArgs}.
   */
  public static boolean toolCallsMatch(
      List<FunctionCall> actual, List<FunctionCall> expected, MatchType match, boolean ignoreArgs) {
    switch (match) {
      case EXACT:
        if (actual.size() != expected.size()) {
          return false;
        }
        for (int i = 0; i < actual.size(); i++) {
          if (!same(actual.get(i), expected.get(i), ignoreArgs)) {
            return false;
          }
        }
        return true;
      case IN_ORDER:
        {
          if (expected.isEmpty()) {
            return true;
          }
          Iterator<FunctionCall> want = expected.iterator();
          FunctionCall current = want.next();
          for (FunctionCall a : actual) {
            if (same(a, current, ignoreArgs)) {
              if (!want.hasNext()) {
                return true;
              }
              current = want.next();
            }
          }
          return false;
        }
      case ANY_ORDER:
        {
          List<FunctionCall> pool = new ArrayList<>(actual);
          for (FunctionCall e : expected) {
            boolean found = false;
            for (int i = 0; i < pool.size(); i++) {
              if (same(pool.get(i), e, ignoreArgs)) {
                pool.remove(i);
                found = true;
                break;
              }
            }
            if (!found) {
              return false;
            }
          }
          return true;
        }
      default:
        throw new IllegalArgumentException("match " + match);
    }
  }

  /**
   * {@code tool_trajectory_avg_score}: per invocation 1.0 if the tool calls match, else 0.0; the
   * mean over invocations, or null if there are none.
   */
  public static @Nullable Double toolTrajectoryAvgScore(
      List<Invocation> actual, List<Invocation> expected, MatchType match) {
    List<Double> scores = toolTrajectoryScores(actual, expected, match, false);
    return mean(scores);
  }

  static List<Double> toolTrajectoryScores(
      List<Invocation> actual, List<Invocation> expected, MatchType match, boolean ignoreArgs) {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < Math.min(actual.size(), expected.size()); i++) {
      out.add(
          toolCallsMatch(actual.get(i).toolUses(), expected.get(i).toolUses(), match, ignoreArgs)
              ? 1.0
              : 0.0);
    }
    return out;
  }

  /**
   * ROUGE-1 F-measure of {@code candidate} against {@code reference}, tokenized and stemmed as the
   * {@code rouge_score} package does (docs/evaluation.md lists the rules).
   */
  public static double rouge1FMeasure(String candidate, String reference) {
    return Rouge.rouge1(candidate, reference).fmeasure();
  }

  /**
   * {@code response_match_score}: per invocation the ROUGE-1 F-measure of the actual final
   * response's text against the expected one's; the mean, or null if there are no invocations.
   */
  public static @Nullable Double responseMatchScore(
      List<Invocation> actual, List<Invocation> expected) {
    return mean(responseMatchScores(actual, expected));
  }

  static List<Double> responseMatchScores(List<Invocation> actual, List<Invocation> expected) {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < Math.min(actual.size(), expected.size()); i++) {
      out.add(
          rouge1FMeasure(actual.get(i).finalResponseText(), expected.get(i).finalResponseText()));
    }
    return out;
  }

  static @Nullable Double mean(List<Double> values) {
    if (values.isEmpty()) {
      return null;
    }
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return sum / values.size();
  }

  private static boolean same(FunctionCall a, FunctionCall e, boolean ignoreArgs) {
    if (!a.name().orElse("").equals(e.name().orElse(""))) {
      return false;
    }
    if (ignoreArgs) {
      return true;
    }
    Map<String, Object> aa = a.args().orElse(null);
    Map<String, Object> ea = e.args().orElse(null);
    if (aa == null || ea == null) {
      return aa == ea;
    }
    return Json.sameValue(aa, ea);
  }
}
