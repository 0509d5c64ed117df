package dev.adk4j.models.openai;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import com.google.genai.types.Part;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.completions.CompletionUsage;
import dev.adk4j.internal.JsonSchemas;
import dev.adk4j.models.LlmException;
import dev.adk4j.models.LlmResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Chat Completions answers as {@link LlmResponse}s: the first choice's text and tool calls as the
 * content (role {@code model}, tool call ids kept), its finish reason and refusal as an error when
 * there is no content, and the usage as usage metadata. {@link Stream} assembles a streamed answer.
 */
final class OpenAiResponses {
  private OpenAiResponses() {}

  static LlmResponse toLlmResponse(ChatCompletion completion, String model) {
    GenerateContentResponseUsageMetadata usage =
        completion.usage().map(OpenAiResponses::usage).orElse(null);
    if (completion.choices().isEmpty()) {
      return LlmResponse.builder()
          .errorCode("UNKNOWN_ERROR")
          .errorMessage("The model returned no choice")
          .usageMetadata(usage)
          .build();
    }
    ChatCompletion.Choice choice = completion.choices().get(0);
    ChatCompletionMessage message = choice.message();
    List<Part> parts = new ArrayList<>();
    message.content().filter(t -> !t.isEmpty()).ifPresent(t -> parts.add(Part.fromText(t)));
    for (ChatCompletionMessageToolCall call : message.toolCalls().orElse(List.of())) {
      ChatCompletionMessageFunctionToolCall f = call.function().orElse(null);
      if (f != null) {
        parts.add(functionCall(f.id(), f.function().name(), f.function().arguments(), model));
      }
    }
    return finish(parts, choice.finishReason().toString(), message.refusal().orElse(null), usage);
  }

  /** The response of a choice's parts and finish reason, as Gemini's adapter words it. */
  static LlmResponse finish(
      List<Part> parts,
      @Nullable String finishReason,
      @Nullable String refusal,
      @Nullable GenerateContentResponseUsageMetadata usage) {
    LlmResponse.Builder b = LlmResponse.builder().usageMetadata(usage).turnComplete(true);
    if (!parts.isEmpty()) {
      return b.content(Content.builder().role("model").parts(parts).build()).build();
    }
    if (refusal != null && !refusal.isEmpty()) {
      return b.errorCode("REFUSAL").errorMessage(refusal).build();
    }
    String reason = finishReason == null ? "stop" : finishReason.toLowerCase(Locale.ROOT);
    switch (reason) {
      case "stop", "tool_calls", "function_call" -> {
        return b.content(Content.builder().role("model").parts(List.of()).build()).build();
      }
      case "length" -> {
        return b.errorCode("MAX_TOKENS")
            .errorMessage("The model stopped without content (finish reason length)")
            .build();
      }
      case "content_filter" -> {
        return b.errorCode("SAFETY")
            .errorMessage("The model stopped without content (finish reason content_filter)")
            .build();
      }
      default -> {
        return b.errorCode(reason.toUpperCase(Locale.ROOT))
            .errorMessage("The model stopped without content (finish reason " + reason + ")")
            .build();
      }
    }
  }

  static Part functionCall(String id, String name, String arguments, String model) {
    Map<String, Object> args;
    try {
      args = arguments == null || arguments.isBlank() ? Map.of() : JsonSchemas.read(arguments);
    } catch (IllegalArgumentException e) {
      throw new LlmException(
          model,
          0,
          "OpenAI-compatible model '"
              + model
              + "' called '"
              + name
              + "' (id "
              + id
              + ") with arguments that are not a JSON object: "
              + arguments,
          e);
    }
    return Part.builder()
        .functionCall(FunctionCall.builder().id(id).name(name).args(args).build())
        .build();
  }

  static GenerateContentResponseUsageMetadata usage(CompletionUsage u) {
    GenerateContentResponseUsageMetadata.Builder b =
        GenerateContentResponseUsageMetadata.builder()
            .promptTokenCount((int) u.promptTokens())
            .candidatesTokenCount((int) u.completionTokens())
            .totalTokenCount((int) u.totalTokens());
    u.completionTokensDetails()
        .flatMap(CompletionUsage.CompletionTokensDetails::reasoningTokens)
        .ifPresent(r -> b.thoughtsTokenCount(r.intValue()));
    u.promptTokensDetails()
        .flatMap(CompletionUsage.PromptTokensDetails::cachedTokens)
        .ifPresent(c -> b.cachedContentTokenCount(c.intValue()));
    return b.build();
  }

  /**
   * Assembles a streamed answer: each chunk's text is a partial response as it arrives; tool calls
   * arrive in pieces keyed by index (id and name first, the arguments' JSON in fragments) and are
   * put together; the final response holds the whole text and the calls in index order, with the
   * usage of the last chunk (sent when the request asks {@code include_usage}). Not thread-safe.
   */
  static final class Stream {
    private final String model;
    private final StringBuilder text = new StringBuilder();
    private final TreeMap<Long, String[]> calls = new TreeMap<>(); // id, name, arguments
    private @Nullable String finishReason;
    private @Nullable String refusal;
    private @Nullable GenerateContentResponseUsageMetadata usage;

    Stream(String model) {
      this.model = model;
    }

    List<LlmResponse> add(ChatCompletionChunk chunk) {
      chunk.usage().ifPresent(u -> usage = usage(u));
      if (chunk.choices().isEmpty()) {
        return List.of();
      }
      ChatCompletionChunk.Choice choice = chunk.choices().get(0);
      choice.finishReason().ifPresent(r -> finishReason = r.toString());
      ChatCompletionChunk.Choice.Delta delta = choice.delta();
      delta.refusal().ifPresent(r -> refusal = refusal == null ? r : refusal + r);
      for (ChatCompletionChunk.Choice.Delta.ToolCall piece : delta.toolCalls().orElse(List.of())) {
        String[] call = calls.computeIfAbsent(piece.index(), i -> new String[] {"", "", ""});
        piece.id().ifPresent(id -> call[0] = id);
        piece
            .function()
            .ifPresent(
                f -> {
                  f.name().ifPresent(n -> call[1] = n);
                  f.arguments().ifPresent(a -> call[2] = call[2] + a);
                });
      }
      String piece = delta.content().orElse("");
      if (piece.isEmpty()) {
        return List.of();
      }
      text.append(piece);
      return List.of(
          LlmResponse.builder()
              .content(Content.builder().role("model").parts(List.of(Part.fromText(piece))).build())
              .partial(true)
              .build());
    }

    LlmResponse finish() {
      List<Part> parts = new ArrayList<>();
      if (text.length() > 0) {
        parts.add(Part.fromText(text.toString()));
      }
      for (String[] call : calls.values()) {
        parts.add(functionCall(call[0], call[1], call[2], model));
      }
      return OpenAiResponses.finish(parts, finishReason, refusal, usage);
    }
  }
}
