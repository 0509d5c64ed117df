package dev.adk4j.runner;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventCompaction;
import dev.adk4j.internal.Json;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import io.reactivex.rxjava3.core.Maybe;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * An {@link EventSummarizer} that asks a model: it sends the previous summary and a transcript of
 * the events (who said what, which tools were called with what and what they returned) with an
 * instruction to write one summary of the whole conversation, and uses the model's text.
 */
public final class LlmEventSummarizer implements EventSummarizer {

  static final String INSTRUCTION =
      "You keep the memory of a long conversation between a user and an AI assistant. Write one"
          + " summary of the whole conversation so far from the previous summary (if any) and the"
          + " new part of the transcript below. Keep every fact, decision, name, number, open"
          + " question and commitment the assistant will need to continue; drop greetings and"
          + " repetition. Write plain prose in the conversation's language, no more than a few"
          + " paragraphs, and nothing else.";

  private final BaseLlm model;

  public LlmEventSummarizer(BaseLlm model) {
    this.model = Objects.requireNonNull(model, "model");
  }

  @Override
  public Maybe<EventCompaction> summarize(@Nullable EventCompaction previous, List<Event> events) {
    if (events.isEmpty()) {
      return Maybe.empty();
    }
    StringBuilder prompt = new StringBuilder();
    if (previous != null) {
      prompt.append("Previous summary:\n").append(text(previous.compactedContent())).append("\n\n");
    }
    prompt.append("Transcript:\n");
    for (Event e : events) {
      transcribe(e, prompt);
    }
    LlmRequest request =
        LlmRequest.builder()
            .model(model.model())
            .appendInstruction(INSTRUCTION)
            .contents(
                List.of(
                    Content.builder().role("user").parts(Part.fromText(prompt.toString())).build()))
            .build();
    long start = previous != null ? previous.startTimestamp() : events.get(0).timestamp();
    long end = events.get(events.size() - 1).timestamp();
    return model
        .generateContent(request, false)
        .filter(r -> !r.partial().orElse(false))
        .lastElement()
        .flatMap(
            r -> {
              if (r.errorCode().isPresent()) {
                return Maybe.error(
                    new IllegalStateException(
                        "The summarizing model refused: "
                            + r.errorCode().get()
                            + " "
                            + r.errorMessage().orElse("")));
              }
              String summary = text(r.content().orElse(null));
              return summary.isBlank()
                  ? Maybe.empty()
                  : Maybe.just(
                      new EventCompaction(
                          start,
                          Math.max(start, end),
                          Content.builder().role("model").parts(Part.fromText(summary)).build()));
            });
  }

  private static void transcribe(Event e, StringBuilder out) {
    String author = e.author() == null ? "user" : e.author();
    for (Part p : e.content().flatMap(Content::parts).orElse(List.of())) {
      if (p.thought().orElse(false)) {
        continue;
      }
      if (p.text().isPresent()) {
        out.append('[').append(author).append("]: ").append(p.text().get()).append('\n');
      } else if (p.functionCall().isPresent()) {
        FunctionCall c = p.functionCall().get();
        out.append('[')
            .append(author)
            .append("] called ")
            .append(c.name().orElse(""))
            .append(' ')
            .append(Json.toJson(c.args().orElse(Map.of())))
            .append('\n');
      } else if (p.functionResponse().isPresent()) {
        FunctionResponse r = p.functionResponse().get();
        out.append('[')
            .append(r.name().orElse(""))
            .append(" returned] ")
            .append(Json.toJson(r.response().orElse(Map.of())))
            .append('\n');
      }
    }
  }

  private static String text(@Nullable Content content) {
    if (content == null) {
      return "";
    }
    return content.parts().orElse(List.of()).stream()
        .filter(p -> !p.thought().orElse(false))
        .map(p -> p.text().orElse(""))
        .collect(Collectors.joining());
  }
}
