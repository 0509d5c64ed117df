package dev.adk4j.models;

import com.google.genai.types.Candidate;
import com.google.genai.types.Content;
import com.google.genai.types.FinishReason;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.GenerateContentResponsePromptFeedback;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Translates google-genai's {@link GenerateContentResponse} into {@link Gemini}'s {@link
 * LlmResponse}: the first candidate's content as received, or, when the model produced no parts, an
 * error response naming the block or finish reason (see {@link Gemini}'s "Errors").
 */
final class GeminiResponses {

  /** The error code of a response without content for which the API gave no reason. */
  private static final String UNKNOWN_ERROR = "UNKNOWN_ERROR";

  private GeminiResponses() {}

  /** The non-streamed response: the first candidate's content as received. */
  static LlmResponse toLlmResponse(GenerateContentResponse response) {
    Optional<Candidate> first =
        response.candidates().flatMap(candidates -> candidates.stream().findFirst());
    LlmResponse r = translate(response);
    Metadata m = new Metadata();
    m.add(response, first.orElse(null));
    return m.applyTo(r);
  }

  /**
   * What the API reported about an answer besides its content, as ADK's response fields hold it:
   * the finish reason, grounding, citations, average log probability of the first candidate and the
   * model version. A streamed answer takes the last value each chunk reported.
   */
  static final class Metadata {
    private @Nullable FinishReason finishReason;
    private com.google.genai.types.@Nullable GroundingMetadata grounding;
    private com.google.genai.types.@Nullable CitationMetadata citations;
    private @Nullable Double avgLogprobs;
    private @Nullable String modelVersion;

    void add(GenerateContentResponse response, @Nullable Candidate candidate) {
      response.modelVersion().ifPresent(v -> modelVersion = v);
      if (candidate != null) {
        candidate.finishReason().ifPresent(f -> finishReason = f);
        candidate.groundingMetadata().ifPresent(g -> grounding = g);
        candidate.citationMetadata().ifPresent(c -> citations = c);
        candidate.avgLogprobs().ifPresent(a -> avgLogprobs = a);
      }
    }

    LlmResponse applyTo(LlmResponse r) {
      if (finishReason == null
          && grounding == null
          && citations == null
          && avgLogprobs == null
          && modelVersion == null) {
        return r;
      }
      return r.toBuilder()
          .finishReason(finishReason)
          .groundingMetadata(grounding)
          .citationMetadata(citations)
          .avgLogprobs(avgLogprobs)
          .modelVersion(modelVersion)
          .build();
    }
  }

  private static LlmResponse translate(GenerateContentResponse response) {
    Optional<Candidate> candidate =
        response.candidates().flatMap(candidates -> candidates.stream().findFirst());
    Optional<Content> content = candidate.flatMap(Candidate::content);
    if (content.isPresent() && !content.get().parts().orElse(List.of()).isEmpty()) {
      return LlmResponse.builder()
          .content(content.get())
          .usageMetadata(response.usageMetadata().orElse(null))
          .build();
    }
    return withoutContent(
        candidate.isPresent(),
        content.orElse(null),
        candidate.flatMap(Candidate::finishReason).orElse(null),
        candidate.flatMap(Candidate::finishMessage).orElse(null),
        response.promptFeedback().orElse(null),
        response.usageMetadata().orElse(null));
  }

  /**
   * The response when the model produced no parts: an error response for a blocked prompt or an
   * abnormal stop, otherwise (a normal stop with nothing to say) the empty content.
   */
  static LlmResponse withoutContent(
      boolean hadCandidate,
      @Nullable Content content,
      @Nullable FinishReason finishReason,
      @Nullable String finishMessage,
      @Nullable GenerateContentResponsePromptFeedback feedback,
      @Nullable GenerateContentResponseUsageMetadata usage) {
    LlmResponse.Builder b = LlmResponse.builder().usageMetadata(usage);
    if (!hadCandidate) {
      if (feedback != null && feedback.blockReason().isPresent()) {
        String reason = feedback.blockReason().get().toString();
        return b.errorCode(reason)
            .errorMessage(
                feedback
                    .blockReasonMessage()
                    .orElse("The prompt was blocked by the model (" + reason + ")"))
            .build();
      }
      return b.errorCode(UNKNOWN_ERROR).errorMessage("The model returned no candidate").build();
    }
    if (finishReason == null
        || finishReason.knownEnum() == FinishReason.Known.STOP
        || finishReason.knownEnum() == FinishReason.Known.FINISH_REASON_UNSPECIFIED) {
      return b.content(
              content != null ? content : Content.builder().role("model").parts(List.of()).build())
          .build();
    }
    String reason = finishReason.toString();
    return b.errorCode(reason)
        .errorMessage(
            finishMessage != null
                ? finishMessage
                : "The model stopped without content (finish reason " + reason + ")")
        .build();
  }
}
