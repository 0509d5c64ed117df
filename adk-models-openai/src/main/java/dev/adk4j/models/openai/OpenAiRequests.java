package dev.adk4j.models.openai;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.ResponseFormatJsonObject;
import com.openai.models.ResponseFormatJsonSchema;
import com.openai.models.chat.completions.ChatCompletionAssistantMessageParam;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.chat.completions.ChatCompletionSystemMessageParam;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import com.openai.models.chat.completions.ChatCompletionUserMessageParam;
import dev.adk4j.internal.Json;
import dev.adk4j.internal.JsonSchemas;
import dev.adk4j.models.LlmRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An {@link LlmRequest} as a Chat Completions request: the system instruction as a system message,
 * each content as user, assistant and tool messages, the function declarations as function tools, a
 * response schema as a {@code json_schema} response format, and the generation settings the API
 * has.
 */
final class OpenAiRequests {
  private OpenAiRequests() {}

  static ChatCompletionCreateParams toParams(String model, LlmRequest request, boolean stream) {
    ChatCompletionCreateParams.Builder b = ChatCompletionCreateParams.builder().model(model);
    request
        .systemInstruction()
        .filter(s -> !s.isEmpty())
        .ifPresent(
            s -> b.addMessage(ChatCompletionSystemMessageParam.builder().content(s).build()));
    for (Content content : request.contents()) {
      addMessages(b, content, model);
    }
    for (FunctionDeclaration d : request.functionDeclarations()) {
      b.addTool(tool(d));
    }
    GenerateContentConfig config = request.config();
    config.temperature().ifPresent(t -> b.temperature(t.doubleValue()));
    config.topP().ifPresent(p -> b.topP(p.doubleValue()));
    config.maxOutputTokens().ifPresent(m -> b.maxCompletionTokens(m.longValue()));
    config.seed().ifPresent(s -> b.seed(s.longValue()));
    config.presencePenalty().ifPresent(p -> b.presencePenalty(p.doubleValue()));
    config.frequencyPenalty().ifPresent(p -> b.frequencyPenalty(p.doubleValue()));
    config
        .stopSequences()
        .filter(s -> !s.isEmpty())
        .ifPresent(s -> b.stop(ChatCompletionCreateParams.Stop.ofStrings(s)));
    Schema schema = config.responseSchema().orElse(null);
    Object jsonSchema = config.responseJsonSchema().orElse(null);
    if (schema != null || jsonSchema != null) {
      Map<String, Object> s =
          schema != null
              ? JsonSchemas.toJsonSchema(schema)
              : JsonSchemas.read(Json.toJson(jsonSchema));
      ResponseFormatJsonSchema.JsonSchema.Schema.Builder sb =
          ResponseFormatJsonSchema.JsonSchema.Schema.builder();
      s.forEach((k, v) -> sb.putAdditionalProperty(k, JsonValue.from(v)));
      b.responseFormat(
          ResponseFormatJsonSchema.builder()
              .jsonSchema(
                  ResponseFormatJsonSchema.JsonSchema.builder()
                      .name("output")
                      .schema(sb.build())
                      .strict(false)
                      .build())
              .build());
    } else if (config.responseMimeType().filter("application/json"::equals).isPresent()) {
      b.responseFormat(ResponseFormatJsonObject.builder().build());
    }
    if (stream) {
      b.streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build());
    }
    return b.build();
  }

  private static ChatCompletionFunctionTool tool(FunctionDeclaration d) {
    FunctionParameters.Builder params = FunctionParameters.builder();
    JsonSchemas.parameters(d).forEach((k, v) -> params.putAdditionalProperty(k, JsonValue.from(v)));
    FunctionDefinition.Builder f =
        FunctionDefinition.builder()
            .name(d.name().orElseThrow(() -> new IllegalArgumentException("function without name")))
            .parameters(params.build());
    d.description().filter(s -> !s.isEmpty()).ifPresent(f::description);
    return ChatCompletionFunctionTool.builder().function(f.build()).build();
  }

  /**
   * The messages of one content: for the model's turns one assistant message (text and tool calls);
   * for the user's, a tool message per function response (they answer the assistant message just
   * before), then the text as a user message. Thoughts are not sent back.
   */
  private static void addMessages(
      ChatCompletionCreateParams.Builder b, Content content, String model) {
    String role = content.role().orElse("user");
    List<Part> parts = content.parts().orElse(List.of());
    StringBuilder text = new StringBuilder();
    List<FunctionCall> calls = new ArrayList<>();
    List<FunctionResponse> responses = new ArrayList<>();
    for (Part p : parts) {
      if (p.thought().orElse(false)) {
        continue;
      }
      if (p.text().isPresent()) {
        if (text.length() > 0) {
          text.append('\n');
        }
        text.append(p.text().get());
      } else if (p.functionCall().isPresent()) {
        calls.add(p.functionCall().get());
      } else if (p.functionResponse().isPresent()) {
        responses.add(p.functionResponse().get());
      } else {
        throw new IllegalArgumentException(
            "OpenAI-compatible model '"
                + model
                + "' cannot be sent this part (only text, function calls and function responses"
                + " are mapped; see docs/models.md): "
                + describe(p));
      }
    }
    if (role.equals("model") || role.equals("assistant")) {
      if (text.length() == 0 && calls.isEmpty()) {
        return;
      }
      ChatCompletionAssistantMessageParam.Builder a = ChatCompletionAssistantMessageParam.builder();
      if (text.length() > 0) {
        a.content(text.toString());
      }
      for (FunctionCall call : calls) {
        a.addToolCall(
            ChatCompletionMessageFunctionToolCall.builder()
                .id(call.id().orElse(""))
                .function(
                    ChatCompletionMessageFunctionToolCall.Function.builder()
                        .name(call.name().orElse(""))
                        .arguments(Json.toJson(call.args().orElse(Map.of())))
                        .build())
                .build());
      }
      b.addMessage(a.build());
      return;
    }
    for (FunctionResponse r : responses) {
      b.addMessage(
          ChatCompletionToolMessageParam.builder()
              .toolCallId(r.id().orElse(r.name().orElse("")))
              .content(Json.toJson(r.response().orElse(Map.of())))
              .build());
    }
    if (text.length() > 0) {
      b.addMessage(ChatCompletionUserMessageParam.builder().content(text.toString()).build());
    }
  }

  private static String describe(Part p) {
    if (p.inlineData().isPresent()) {
      return "inline data (" + p.inlineData().get().mimeType().orElse("?") + ")";
    }
    if (p.fileData().isPresent()) {
      return "file data (" + p.fileData().get().fileUri().orElse("?") + ")";
    }
    if (p.executableCode().isPresent() || p.codeExecutionResult().isPresent()) {
      return "code execution";
    }
    return p.toJson();
  }
}
