package dev.adk4j.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The judge of the model-judged metrics: asks any {@link BaseLlm} for a JSON verdict and reads it
 * strictly. A model that fails, or answers anything but the JSON asked for, makes the metric
 * errored (never passed).
 */
final class Judge {
  private final BaseLlm model;

  Judge(BaseLlm model) {
    this.model = model;
  }

  /** A judge's answer that cannot be used. */
  static final class JudgeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    JudgeException(String message, Throwable cause) {
      super(message, cause);
    }

    JudgeException(String message) {
      super(message);
    }
  }

  /** final_response_match_v2: 1.0 if most samples call the answer valid, else 0.0. */
  double finalResponseMatch(String prompt, String reference, String answer, int samples) {
    String ask =
        "You judge whether an AI agent's answer to a user is valid, given a reference answer."
            + " It is valid if it conveys the same facts as the reference, whatever its wording.\n"
            + "User prompt:\n"
            + prompt
            + "\nReference answer:\n"
            + reference
            + "\nAgent answer:\n"
            + answer
            + "\nReply with JSON only: {\"reasoning\": \"...\", \"is_the_agent_response_valid\":"
            + " \"valid\" or \"invalid\"}";
    int valid = 0;
    for (int s = 0; s < samples; s++) {
      JsonNode v = ask(ask);
      JsonNode verdict = v.get("is_the_agent_response_valid");
      String word = verdict == null ? "" : verdict.asText().toLowerCase(Locale.ROOT);
      if (!word.equals("valid") && !word.equals("invalid")) {
        throw new JudgeException(
            "judge answer has no is_the_agent_response_valid of \"valid\" or \"invalid\"");
      }
      valid += word.equals("valid") ? 1 : 0;
    }
    return valid * 2 > samples ? 1.0 : 0.0;
  }

  /** rubric_based_final_response_quality_v1: the share of rubrics judged met, mean of samples. */
  double rubricScore(String prompt, String answer, List<Rubric> rubrics, int samples) {
    StringBuilder ask = new StringBuilder();
    ask.append("You judge an AI agent's answer against rubrics. For each rubric, say whether the")
        .append(" answer meets it.\nUser prompt:\n")
        .append(prompt)
        .append("\nAgent answer:\n")
        .append(answer)
        .append("\nRubrics:\n");
    for (Rubric r : rubrics) {
      ask.append("- ").append(r.id()).append(": ").append(r.text()).append('\n');
    }
    ask.append(
        "Reply with JSON only: {\"rubrics\": [{\"rubric_id\": \"...\", \"rationale\": \"...\","
            + " \"verdict\": \"yes\" or \"no\"}]}, one entry per rubric.");
    double total = 0;
    for (int s = 0; s < samples; s++) {
      JsonNode v = ask(ask.toString());
      JsonNode list = v.get("rubrics");
      if (list == null || !list.isArray()) {
        throw new JudgeException("judge answer has no rubrics list");
      }
      Map<String, Boolean> verdicts = new HashMap<>();
      for (JsonNode e : list) {
        JsonNode id = e.get("rubric_id");
        JsonNode verdict = e.get("verdict");
        String word = verdict == null ? "" : verdict.asText().toLowerCase(Locale.ROOT);
        if (id == null || !id.isTextual() || !(word.equals("yes") || word.equals("no"))) {
          throw new JudgeException("judge answer has a rubric entry without rubric_id and verdict");
        }
        verdicts.put(id.asText(), word.equals("yes"));
      }
      int met = 0;
      for (Rubric r : rubrics) {
        Boolean b = verdicts.get(r.id());
        if (b == null) {
          throw new JudgeException("judge answer has no verdict for rubric " + r.id());
        }
        met += b ? 1 : 0;
      }
      total += met / (double) rubrics.size();
    }
    return total / samples;
  }

  private JsonNode ask(String text) {
    LlmRequest request =
        LlmRequest.builder()
            .model(model.model())
            .contents(
                List.of(Content.builder().role("user").parts(List.of(Part.fromText(text))).build()))
            .build();
    List<LlmResponse> responses;
    try {
      responses = model.generateContent(request, false).toList().blockingGet();
    } catch (RuntimeException e) {
      throw new JudgeException("judge model " + model.model() + " failed: " + e.getMessage(), e);
    }
    StringBuilder b = new StringBuilder();
    for (LlmResponse r : responses) {
      if (r.errorCode().isPresent()) {
        throw new JudgeException(
            "judge model " + model.model() + " answered error " + r.errorCode().get());
      }
      r.content().ifPresent(c -> b.append(Invocation.text(c)));
    }
    String answer = b.toString().trim();
    if (answer.startsWith("```")) {
      answer = answer.replaceFirst("^```[a-zA-Z]*\\s*", "").replaceFirst("\\s*```$", "");
    }
    try {
      JsonNode n = Nodes.mapper().readTree(answer);
      if (n == null || !n.isObject()) {
        throw new JudgeException("judge answer is not a JSON object");
      }
      return n;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new JudgeException("judge answer is not JSON", e);
    }
  }
}
