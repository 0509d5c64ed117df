package dev.adk4j.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * ADK's test config ({@code test_config.json}): the metrics to score and their criteria, {@code
 * {"criteria": {"tool_trajectory_avg_score": 1.0, "response_match_score": 0.8}}}. A criterion is a
 * threshold or an object with {@code threshold} and, per metric, {@code match_type} ({@code EXACT},
 * {@code IN_ORDER}, {@code ANY_ORDER}) and {@code ignore_args} for the trajectory, {@code
 * judge_model_options.num_samples} and {@code rubrics} for the judged metrics. Thresholds must lie
 * in [0, 1]. The operational metrics take no threshold (as in ADK) and are always reported.
 * Immutable; what was read is written back unchanged by {@link #toJson()}.
 */
public final class EvalConfig {
  private final ObjectNode node;
  private final Map<String, Criterion> criteria;

  /**
   * One metric's criterion.
   *
   * @param metricName the metric, such as {@code response_match_score}
   * @param threshold the lowest passing score, in [0, 1]
   * @param matchType how tool calls are matched ({@code tool_trajectory_avg_score})
   * @param ignoreArgs whether tool calls match by name alone ({@code tool_trajectory_avg_score})
   * @param numSamples how many times the judge model is asked per invocation (judged metrics)
   * @param rubrics rubrics for every case ({@code rubric_based_final_response_quality_v1}), added
   *     to the case's own
   */
  public record Criterion(
      String metricName,
      double threshold,
      EvalMetrics.MatchType matchType,
      boolean ignoreArgs,
      int numSamples,
      List<Rubric> rubrics) {
    public Criterion {
      if (!(threshold >= 0 && threshold <= 1)) {
        throw new IllegalArgumentException(
            "Threshold of " + metricName + " must lie in [0, 1], is " + threshold);
      }
      if (numSamples < 1) {
        throw new IllegalArgumentException("num_samples of " + metricName + " must be >= 1");
      }
      rubrics = List.copyOf(rubrics);
    }

    /** A criterion that is a threshold alone. */
    public static Criterion threshold(String metricName, double threshold) {
      return new Criterion(metricName, threshold, EvalMetrics.MatchType.EXACT, false, 1, List.of());
    }
  }

  private EvalConfig(ObjectNode node, Map<String, Criterion> criteria) {
    this.node = node;
    this.criteria = Collections.unmodifiableMap(new LinkedHashMap<>(criteria));
  }

  /** ADK's default: {@code tool_trajectory_avg_score} 1.0 and {@code response_match_score} 0.8. */
  public static EvalConfig defaults() {
    return of(
        List.of(
            Criterion.threshold(EvalMetrics.TOOL_TRAJECTORY_AVG_SCORE, 1.0),
            Criterion.threshold(EvalMetrics.RESPONSE_MATCH_SCORE, 0.8)));
  }

  /** A config of these criteria. */
  public static EvalConfig of(List<Criterion> criteria) {
    ObjectNode n = Nodes.F.objectNode();
    ObjectNode c = n.putObject("criteria");
    Map<String, Criterion> map = new LinkedHashMap<>();
    for (Criterion k : criteria) {
      check(k.metricName(), "config", "$.criteria." + k.metricName());
      map.put(k.metricName(), k);
      boolean plain =
          k.matchType() == EvalMetrics.MatchType.EXACT
              && !k.ignoreArgs()
              && k.numSamples() == 1
              && k.rubrics().isEmpty();
      if (plain) {
        c.put(k.metricName(), k.threshold());
      } else {
        ObjectNode o = c.putObject(k.metricName());
        o.put("threshold", k.threshold());
        if (k.metricName().equals(EvalMetrics.TOOL_TRAJECTORY_AVG_SCORE)) {
          o.put("match_type", k.matchType().name());
          o.put("ignore_args", k.ignoreArgs());
        }
        if (k.numSamples() != 1) {
          o.putObject("judge_model_options").put("num_samples", k.numSamples());
        }
        if (!k.rubrics().isEmpty()) {
          var list = o.putArray("rubrics");
          for (Rubric r : k.rubrics()) {
            ObjectNode ro = list.addObject();
            ro.put("rubric_id", r.id());
            ro.putObject("rubric_content").put("text_property", r.text());
          }
        }
      }
    }
    return new EvalConfig(n, map);
  }

  public static EvalConfig read(Path file) {
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8), "test config " + file);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read test config " + file, e);
    }
  }

  public static EvalConfig parse(String json) {
    return parse(json, "test config");
  }

  public static EvalConfig parse(String json, String source) {
    ObjectNode n = Nodes.object(Nodes.parse(json, source), "$", source);
    JsonNode c = Nodes.field(n, "criteria");
    Map<String, Criterion> map = new LinkedHashMap<>();
    if (c != null) {
      Nodes.object(c, "$.criteria", source);
      var it = c.fields();
      while (it.hasNext()) {
        var e = it.next();
        String name = e.getKey();
        String p = "$.criteria." + name;
        check(name, source, p);
        map.put(name, criterion(name, e.getValue(), p, source));
      }
    }
    return new EvalConfig(n.deepCopy(), map);
  }

  private static void check(String name, String source, String path) {
    if (EvalMetrics.OPERATIONAL.contains(name)) {
      throw new EvalFormatException(
          source,
          path,
          name
              + " takes no threshold: it reports a value, never passes or fails, and is always"
              + " reported");
    }
    if (!EvalMetrics.SCORED.contains(name)) {
      throw new EvalFormatException(
          source, path, "unknown metric " + name + "; known: " + EvalMetrics.SCORED);
    }
  }

  private static Criterion criterion(String name, JsonNode v, String p, String source) {
    double threshold;
    EvalMetrics.MatchType match = EvalMetrics.MatchType.EXACT;
    boolean ignoreArgs = false;
    int samples = 1;
    List<Rubric> rubrics = new ArrayList<>();
    if (v.isNumber()) {
      threshold = v.asDouble();
    } else if (v.isObject()) {
      JsonNode t = Nodes.required(v, "threshold", p, source);
      if (!t.isNumber()) {
        throw new EvalFormatException(source, p + ".threshold", "expected a number");
      }
      threshold = t.asDouble();
      String m = Nodes.optionalText(v, "match_type", p, source);
      if (m != null) {
        try {
          match = EvalMetrics.MatchType.valueOf(m.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
          throw new EvalFormatException(
              source, p + ".match_type", "expected EXACT, IN_ORDER or ANY_ORDER");
        }
      }
      JsonNode ia = Nodes.field(v, "ignore_args");
      if (ia != null) {
        if (!ia.isBoolean()) {
          throw new EvalFormatException(source, p + ".ignore_args", "expected true or false");
        }
        ignoreArgs = ia.asBoolean();
      }
      JsonNode jmo = Nodes.field(v, "judge_model_options");
      if (jmo != null) {
        JsonNode ns = Nodes.field(jmo, "num_samples");
        if (ns != null) {
          if (!ns.canConvertToInt() || ns.asInt() < 1) {
            throw new EvalFormatException(
                source, p + ".judge_model_options.num_samples", "expected an integer >= 1");
          }
          samples = ns.asInt();
        }
      }
      rubrics.addAll(Invocation.parseRubrics(v, p, source));
    } else {
      throw new EvalFormatException(source, p, "expected a threshold or a criterion object");
    }
    if (!(threshold >= 0 && threshold <= 1)) {
      throw new EvalFormatException(
          source, v.isObject() ? p + ".threshold" : p, "threshold must lie in [0, 1]");
    }
    return new Criterion(name, threshold, match, ignoreArgs, samples, rubrics);
  }

  /** The criteria by metric name, in the file's order. */
  public Map<String, Criterion> criteria() {
    return criteria;
  }

  public String toJson() {
    return Nodes.pretty(node);
  }

  @Override
  public String toString() {
    return "EvalConfig" + criteria.keySet();
  }
}
