package dev.adk4j.models;

import com.google.genai.types.Candidate;
import com.google.genai.types.Content;
import com.google.genai.types.FinishReason;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.GenerateContentResponsePromptFeedback;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import com.google.genai.types.Part;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Turns the chunks of a streamed Gemini answer into {@link Gemini}'s partial responses (one per
 * chunk with text) and its final response, which aggregates the whole answer: consecutive text
 * parts merged into one (thought text apart from answer text), other parts in the order received,
 * the usage last reported. One per subscription; used from one thread at a time.
 */
final class StreamAggregator {
  private final List<Part> parts = new ArrayList<>();
  private @Nullable StringBuilder text;
  private boolean textThought;
  private byte @Nullable [] textSignature;
  private boolean sawCandidate;
  private @Nullable FinishReason finishReason;
  private @Nullable String finishMessage;
  private @Nullable GenerateContentResponsePromptFeedback feedback;
  private @Nullable GenerateContentResponseUsageMetadata usage;
  private final GeminiResponses.Metadata metadata = new GeminiResponses.Metadata();

  /** Records {@code chunk}; returns the partial response for its text, if it has any. */
  List<LlmResponse> add(GenerateContentResponse chunk) {
    chunk.usageMetadata().ifPresent(u -> usage = u);
    chunk.promptFeedback().ifPresent(f -> feedback = f);
    Optional<Candidate> candidate =
        chunk.candidates().flatMap(candidates -> candidates.stream().findFirst());
    metadata.add(chunk, candidate.orElse(null));
    if (candidate.isEmpty()) {
      return List.of();
    }
    sawCandidate = true;
    candidate.get().finishReason().ifPresent(r -> finishReason = r);
    candidate.get().finishMessage().ifPresent(m -> finishMessage = m);
    List<Part> chunkParts =
        candidate.get().content().flatMap(Content::parts).orElse(List.<Part>of());
    List<Part> textParts = new ArrayList<>();
    boolean hasText = false;
    for (Part part : chunkParts) {
      if (part.text().isPresent()) {
        appendText(part);
        textParts.add(part);
        hasText |= !part.text().get().isEmpty();
      } else {
        flushText();
        parts.add(part);
      }
    }
    if (!hasText) {
      return List.of();
    }
    return List.of(
        LlmResponse.builder()
            .content(Content.builder().role("model").parts(textParts).build())
            .partial(true)
            .usageMetadata(chunk.usageMetadata().orElse(null))
            .build());
  }

  private void appendText(Part part) {
    boolean thought = part.thought().orElse(false);
    if (text != null && thought != textThought) {
      flushText();
    }
    if (text == null) {
      text = new StringBuilder();
      textThought = thought;
    }
    text.append(part.text().orElse(""));
    part.thoughtSignature().ifPresent(s -> textSignature = s);
  }

  private void flushText() {
    if (text == null) {
      return;
    }
    Part.Builder merged = Part.builder().text(text.toString());
    if (textThought) {
      merged.thought(true);
    }
    if (textSignature != null) {
      merged.thoughtSignature(textSignature);
    }
    parts.add(merged.build());
    text = null;
    textSignature = null;
  }

  /** The final, aggregated response. Call once, after the last chunk. */
  LlmResponse finish() {
    flushText();
    if (!parts.isEmpty()) {
      return metadata.applyTo(
          LlmResponse.builder()
              .content(Content.builder().role("model").parts(List.copyOf(parts)).build())
              .usageMetadata(usage)
              .build());
    }
    return metadata.applyTo(
        GeminiResponses.withoutContent(
            sawCandidate, null, finishReason, finishMessage, feedback, usage));
  }
}
