package dev.adk4j.eval;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The results of an eval set: one {@link EvalCaseResult} per case, a table ({@link #table()}) and
 * ADK's eval-result JSON ({@link #toJson()}).
 */
public record EvalSetResult(
    String evalSetResultId, String evalSetId, List<EvalCaseResult> cases, double createdAt) {

  public EvalSetResult {
    cases = List.copyOf(cases);
  }

  /** Whether every case passed. */
  public boolean passed() {
    return cases.stream().allMatch(c -> c.status() == EvalStatus.PASSED);
  }

  /**
   * One row per case and metric: score (mean over runs), spread, threshold, status; the case's
   * status in its own row.
   */
  public String table() {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"case", "metric", "score", "± spread", "threshold", "status"});
    for (EvalCaseResult c : cases) {
      for (MetricResult m : c.metrics()) {
        rows.add(
            new String[] {
              c.evalId(),
              m.metricName(),
              m.score() == null ? "n/a" : format(m.score()),
              m.runScores().size() > 1 && m.score() != null ? format(m.spread()) : "",
              m.threshold() == null ? "" : format(m.threshold()),
              m.status().name()
            });
      }
      rows.add(
          new String[] {
            c.evalId(),
            "(case, " + c.runs().size() + (c.runs().size() == 1 ? " run)" : " runs)"),
            "",
            "",
            "",
            c.status().name() + (c.error() == null ? "" : ": " + c.error())
          });
    }
    int[] widths = new int[6];
    for (String[] r : rows) {
      for (int i = 0; i < 5; i++) {
        widths[i] = Math.max(widths[i], r[i].length());
      }
    }
    StringBuilder b = new StringBuilder();
    for (int ri = 0; ri < rows.size(); ri++) {
      String[] r = rows.get(ri);
      for (int i = 0; i < 6; i++) {
        b.append(i == 5 ? r[i] : pad(r[i], widths[i], i >= 2 && i <= 4)).append(i < 5 ? "  " : "");
      }
      b.append('\n');
      if (ri == 0) {
        int total = 0;
        for (int i = 0; i < 5; i++) {
          total += widths[i] + 2;
        }
        b.append("-".repeat(total + 6)).append('\n');
      }
    }
    long passed = cases.stream().filter(c -> c.status() == EvalStatus.PASSED).count();
    b.append(passed).append(" of ").append(cases.size()).append(" cases passed\n");
    return b.toString();
  }

  private static String pad(String s, int w, boolean right) {
    String fill = " ".repeat(Math.max(0, w - s.length()));
    return right ? fill + s : s + fill;
  }

  private static String format(double d) {
    return String.format(Locale.ROOT, "%.4f", d);
  }

  /**
   * ADK's eval-result JSON ({@code EvalSetResult}): one {@code eval_case_results} entry per run of
   * each case (as ADK writes one per run), statuses as ADK's numbers; adk4j adds {@code adk4j_run},
   * {@code adk4j_status}, {@code adk4j_error} and {@code adk4j_failures}, which ADK ignores.
   */
  public String toJson() {
    ObjectNode n = Nodes.F.objectNode();
    n.put("eval_set_result_id", evalSetResultId);
    n.put("eval_set_result_name", evalSetResultId);
    n.put("eval_set_id", evalSetId);
    ArrayNode list = n.putArray("eval_case_results");
    for (EvalCaseResult c : cases) {
      int runs = Math.max(1, c.runs().size());
      for (int r = 0; r < runs; r++) {
        EvalCaseResult.Run run = r < c.runs().size() ? c.runs().get(r) : null;
        ObjectNode o = list.addObject();
        o.put("eval_set_id", evalSetId);
        o.put("eval_id", c.evalId());
        boolean runFailed = false;
        ArrayNode overall = o.putArray("overall_eval_metric_results");
        for (MetricResult m : c.metrics()) {
          Double score = r < m.runScores().size() ? m.runScores().get(r) : null;
          EvalStatus st = runStatus(m, score);
          runFailed |= st == EvalStatus.FAILED || st == EvalStatus.ERRORED;
          ObjectNode mo = overall.addObject();
          mo.put("metric_name", m.metricName());
          if (m.threshold() != null) {
            mo.put("threshold", m.threshold());
          }
          if (score != null) {
            mo.put("score", score);
          } else {
            mo.putNull("score");
          }
          mo.put("eval_status", st.adkValue());
        }
        EvalStatus caseStatus =
            c.status() == EvalStatus.ERRORED
                ? EvalStatus.ERRORED
                : runFailed ? EvalStatus.FAILED : EvalStatus.PASSED;
        o.put("final_eval_status", caseStatus.adkValue());
        ArrayNode per = o.putArray("eval_metric_result_per_invocation");
        if (run != null) {
          for (int i = 0; i < run.actual().size(); i++) {
            ObjectNode pi = per.addObject();
            pi.set("actual_invocation", run.actual().get(i).node());
            ArrayNode ms = pi.putArray("eval_metric_results");
            for (Map.Entry<String, List<Double>> e : run.perInvocation().entrySet()) {
              if (i < e.getValue().size()) {
                ObjectNode mo = ms.addObject();
                mo.put("metric_name", e.getKey());
                Double s = e.getValue().get(i);
                if (s != null) {
                  mo.put("score", s);
                } else {
                  mo.putNull("score");
                }
                MetricResult m = c.metric(e.getKey()).orElse(null);
                if (m != null && m.threshold() != null) {
                  mo.put("threshold", m.threshold());
                }
                mo.put("eval_status", runStatus(m, s).adkValue());
              }
            }
          }
          o.put("session_id", run.sessionId());
          o.put("user_id", run.userId());
        } else {
          o.put("session_id", "");
        }
        o.put("adk4j_run", r + 1);
        o.put("adk4j_status", caseStatus.name());
        if (c.error() != null) {
          o.put("adk4j_error", c.error());
        }
        if (!c.failures().isEmpty()) {
          ArrayNode f = o.putArray("adk4j_failures");
          c.failures().forEach(f::add);
        }
      }
    }
    n.put("creation_timestamp", createdAt);
    return Nodes.pretty(n);
  }

  private static EvalStatus runStatus(
      @org.jspecify.annotations.Nullable MetricResult m,
      @org.jspecify.annotations.Nullable Double score) {
    if (m == null) {
      return EvalStatus.NOT_EVALUATED;
    }
    if (m.status() == EvalStatus.ERRORED) {
      return EvalStatus.ERRORED;
    }
    if (m.threshold() == null) {
      return EvalStatus.INFORMATIONAL;
    }
    if (score == null) {
      return EvalStatus.NOT_EVALUATED;
    }
    return score >= m.threshold() ? EvalStatus.PASSED : EvalStatus.FAILED;
  }

  /** Writes {@link #toJson()} to {@code file}. */
  public void write(Path file) {
    try {
      Files.writeString(file, toJson(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write eval results of " + evalSetId + " to " + file, e);
    }
  }

  /** The metric names of all cases, in first-seen order. */
  Set<String> metricNames() {
    Set<String> out = new LinkedHashSet<>();
    cases.forEach(c -> c.metrics().forEach(m -> out.add(m.metricName())));
    return out;
  }
}
