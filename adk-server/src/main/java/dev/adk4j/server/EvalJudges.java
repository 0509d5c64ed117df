package dev.adk4j.server;

import dev.adk4j.models.BaseLlm;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The judge models of the evaluation endpoints ({@link AdkServer.Builder#evalJudge(BaseLlm)}): a
 * default judge and judges by the model name ADK's {@code judge_model_options.judge_model} gives.
 *
 * @param defaultJudge judges the metrics that name no judge model, or one the server does not map
 * @param named the judges by the model name a metric may give
 */
record EvalJudges(@Nullable BaseLlm defaultJudge, Map<String, BaseLlm> named) {
  EvalJudges {
    named = Map.copyOf(named);
  }

  static EvalJudges none() {
    return new EvalJudges(null, Map.of());
  }

  /** Whether the server has any judge: the judged metrics are offered then. */
  boolean any() {
    return defaultJudge != null || !named.isEmpty();
  }

  /**
   * The judge of a run, given each judged metric's {@code judge_model} (null where it names none);
   * null when the run has no judged metric.
   *
   * @throws HttpError 400 naming the metric when no judge fits it, or when two metrics need
   *     different judges (a run has one)
   */
  @Nullable BaseLlm choose(Map<String, @Nullable String> judgeModels) {
    BaseLlm chosen = null;
    String chosenFor = null;
    for (Map.Entry<String, @Nullable String> e : judgeModels.entrySet()) {
      String metric = e.getKey();
      String model = e.getValue();
      BaseLlm judge = model != null && named.containsKey(model) ? named.get(model) : defaultJudge;
      if (judge == null) {
        throw HttpError.badRequest(
            "Metric "
                + metric
                + (model == null ? " needs a judge model" : " asks for judge model '" + model + "'")
                + ", and this server has "
                + (named.isEmpty()
                    ? "no judge model (AdkServer.Builder.evalJudge)"
                    : "no default judge and only the judge models " + named.keySet()));
      }
      if (chosen != null && chosen != judge) {
        throw HttpError.badRequest(
            "Metrics "
                + chosenFor
                + " and "
                + metric
                + " ask for different judge models; one run uses one judge model");
      }
      chosen = judge;
      chosenFor = metric;
    }
    return chosen;
  }
}
