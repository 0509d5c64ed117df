package dev.adk4j.models.anthropic;

import com.anthropic.core.JsonValue;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.RawContentBlockDelta;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.StopReason;
import com.anthropic.models.messages.ThinkingBlock;
import com.anthropic.models.messages.ToolUseBlock;
import com.anthropic.models.messages.Usage;
import com.fasterxml.jackson.core.type.TypeReference;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import com.google.genai.types.Part;
import dev.adk4j.models.LlmResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Messages API answers as {@link LlmResponse}s: text blocks as text, {@code thinking} blocks as
 * thought parts (their signature as the part's thought signature), {@code tool_use} blocks as
 * function calls with their ids; a refusal or a {@code max_tokens} stop without content as an error
 * response; the usage as usage metadata. {@link Stream} turns a streamed answer into partials and
 * one final response (the SDK's {@link MessageAccumulator} assembles it).
 */
final class AnthropicResponses {
  private AnthropicResponses() {}

  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  static LlmResponse toLlmResponse(Message message) {
    List<Part> parts = new ArrayList<>();
    for (ContentBlock block : message.content()) {
      if (block.isText()) {
        String text = block.asText().text();
        if (!text.isEmpty()) {
          parts.add(Part.fromText(text));
        }
      } else if (block.isThinking()) {
        ThinkingBlock t = block.asThinking();
        parts.add(
            Part.builder()
                .text(t.thinking())
                .thought(true)
                .thoughtSignature(t.signature().getBytes(StandardCharsets.UTF_8))
                .build());
      } else if (block.isToolUse()) {
        ToolUseBlock use = block.asToolUse();
        JsonValue input = use._input();
        Map<String, Object> args = input.convert(MAP);
        parts.add(
            Part.builder()
                .functionCall(
                    FunctionCall.builder()
                        .id(use.id())
                        .name(use.name())
                        .args(args == null ? Map.of() : args)
                        .build())
                .build());
      }
      // Server tools' blocks (web search, code execution) and redacted thinking are not mapped.
    }
    LlmResponse.Builder b =
        LlmResponse.builder().usageMetadata(usage(message.usage())).turnComplete(true);
    String reason =
        message.stopReason().map(StopReason::asString).orElse("end_turn").toLowerCase(Locale.ROOT);
    boolean answered = parts.stream().anyMatch(p -> !p.thought().orElse(false));
    if (answered
        || reason.equals("end_turn")
        || reason.equals("tool_use")
        || reason.equals("stop_sequence")
        || reason.equals("pause_turn")) {
      return b.content(Content.builder().role("model").parts(parts).build()).build();
    }
    String code =
        switch (reason) {
          case "max_tokens" -> "MAX_TOKENS";
          case "refusal" -> "REFUSAL";
          default -> reason.toUpperCase(Locale.ROOT);
        };
    return b.errorCode(code)
        .errorMessage("The model stopped without content (stop reason " + reason + ")")
        .build();
  }

  static GenerateContentResponseUsageMetadata usage(Usage u) {
    long cacheRead = u.cacheReadInputTokens().orElse(0L);
    long cacheWrite = u.cacheCreationInputTokens().orElse(0L);
    long prompt = u.inputTokens() + cacheRead + cacheWrite;
    GenerateContentResponseUsageMetadata.Builder b =
        GenerateContentResponseUsageMetadata.builder()
            .promptTokenCount((int) prompt)
            .candidatesTokenCount((int) u.outputTokens())
            .totalTokenCount((int) (prompt + u.outputTokens()));
    if (cacheRead > 0) {
      b.cachedContentTokenCount((int) cacheRead);
    }
    return b.build();
  }

  /** A streamed answer: partial text (and thought) deltas as they come, then the whole message. */
  static final class Stream {
    private final MessageAccumulator accumulator = MessageAccumulator.create();

    List<LlmResponse> add(RawMessageStreamEvent event) {
      accumulator.accumulate(event);
      if (!event.isContentBlockDelta()) {
        return List.of();
      }
      RawContentBlockDelta delta = event.asContentBlockDelta().delta();
      Part part;
      if (delta.isText()) {
        part = Part.fromText(delta.asText().text());
      } else if (delta.isThinking()) {
        part = Part.builder().text(delta.asThinking().thinking()).thought(true).build();
      } else {
        return List.of();
      }
      return List.of(
          LlmResponse.builder()
              .content(Content.builder().role("model").parts(List.of(part)).build())
              .partial(true)
              .build());
    }

    LlmResponse finish() {
      return toLlmResponse(accumulator.message());
    }
  }
}
