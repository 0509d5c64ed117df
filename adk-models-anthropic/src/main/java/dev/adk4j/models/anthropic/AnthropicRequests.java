package dev.adk4j.models.anthropic;

import com.anthropic.core.JsonValue;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.JsonOutputFormat;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.MessageParam;
import com.anthropic.models.messages.OutputConfig;
import com.anthropic.models.messages.ThinkingBlockParam;
import com.anthropic.models.messages.ThinkingConfigEnabled;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlockParam;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.Part;
import com.google.genai.types.ThinkingConfig;
import dev.adk4j.internal.Json;
import dev.adk4j.internal.JsonSchemas;
import dev.adk4j.models.LlmRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An {@link LlmRequest} as a Messages API request: the system instruction as {@code system}, the
 * contents as alternating user and assistant messages (consecutive contents of one role merged;
 * function responses as {@code tool_result} blocks first in their user message, function calls as
 * {@code tool_use} blocks, thoughts with their signature as {@code thinking} blocks), the function
 * declarations as tools, a response schema as {@code output_config.format}, and the settings the
 * API has ({@code max_tokens} is required: the config's, else the model's default).
 */
final class AnthropicRequests {
  private AnthropicRequests() {}

  static MessageCreateParams toParams(String model, LlmRequest request, long defaultMaxTokens) {
    GenerateContentConfig config = request.config();
    MessageCreateParams.Builder b =
        MessageCreateParams.builder()
            .model(model)
            .maxTokens(config.maxOutputTokens().map(Integer::longValue).orElse(defaultMaxTokens));
    request.systemInstruction().filter(s -> !s.isEmpty()).ifPresent(b::system);
    String role = null;
    List<ContentBlockParam> blocks = new ArrayList<>();
    for (Content content : request.contents()) {
      String next =
          content.role().filter(r -> r.equals("model") || r.equals("assistant")).isPresent()
              ? "assistant"
              : "user";
      List<ContentBlockParam> these = blocks(content, next, model);
      if (these.isEmpty()) {
        continue;
      }
      if (role != null && !role.equals(next)) {
        b.addMessage(message(role, blocks));
        blocks = new ArrayList<>();
      }
      role = next;
      blocks.addAll(these);
    }
    if (role != null) {
      b.addMessage(message(role, blocks));
    }
    for (FunctionDeclaration d : request.functionDeclarations()) {
      b.addTool(tool(d));
    }
    // SDK 3.14 no longer has typed setters for the sampling settings (newer models refuse some of
    // them); older models still read them from the body.
    config
        .temperature()
        .ifPresent(
            t -> b.putAdditionalBodyProperty("temperature", JsonValue.from(t.doubleValue())));
    config
        .topP()
        .ifPresent(p -> b.putAdditionalBodyProperty("top_p", JsonValue.from(p.doubleValue())));
    config
        .topK()
        .ifPresent(k -> b.putAdditionalBodyProperty("top_k", JsonValue.from(k.longValue())));
    config.stopSequences().filter(s -> !s.isEmpty()).ifPresent(b::stopSequences);
    config
        .thinkingConfig()
        .flatMap(ThinkingConfig::thinkingBudget)
        .filter(n -> n > 0)
        .ifPresent(n -> b.thinking(ThinkingConfigEnabled.builder().budgetTokens(n).build()));
    Map<String, Object> schema =
        config.responseSchema().map(JsonSchemas::toJsonSchema).orElse(null);
    if (schema == null && config.responseJsonSchema().isPresent()) {
      schema = JsonSchemas.read(Json.toJson(config.responseJsonSchema().get()));
    }
    if (schema != null) {
      JsonOutputFormat.Schema.Builder s = JsonOutputFormat.Schema.builder();
      schema.forEach((k, v) -> s.putAdditionalProperty(k, JsonValue.from(v)));
      b.outputConfig(
          OutputConfig.builder()
              .format(JsonOutputFormat.builder().schema(s.build()).build())
              .build());
    }
    return b.build();
  }

  private static MessageParam message(String role, List<ContentBlockParam> blocks) {
    List<ContentBlockParam> ordered = new ArrayList<>();
    // A user message answers the previous tool uses with its tool results first.
    blocks.stream().filter(ContentBlockParam::isToolResult).forEach(ordered::add);
    blocks.stream().filter(x -> !x.isToolResult()).forEach(ordered::add);
    return role.equals("assistant")
        ? MessageParam.ofAssistantOfContentBlockParams(ordered)
        : MessageParam.ofUserOfContentBlockParams(ordered);
  }

  private static List<ContentBlockParam> blocks(Content content, String role, String model) {
    List<ContentBlockParam> out = new ArrayList<>();
    for (Part p : content.parts().orElse(List.of())) {
      if (p.thought().orElse(false)) {
        // A thought goes back only as the signed thinking block the API gave (it checks it).
        if (role.equals("assistant") && p.thoughtSignature().isPresent() && p.text().isPresent()) {
          out.add(
              ContentBlockParam.ofThinking(
                  ThinkingBlockParam.builder()
                      .thinking(p.text().get())
                      .signature(new String(p.thoughtSignature().get(), StandardCharsets.UTF_8))
                      .build()));
        }
        continue;
      }
      if (p.text().isPresent()) {
        if (!p.text().get().isEmpty()) {
          out.add(ContentBlockParam.ofText(p.text().get()));
        }
      } else if (p.functionCall().isPresent()) {
        FunctionCall call = p.functionCall().get();
        ToolUseBlockParam.Input.Builder input = ToolUseBlockParam.Input.builder();
        call.args()
            .orElse(Map.of())
            .forEach((k, v) -> input.putAdditionalProperty(k, JsonValue.from(v)));
        out.add(
            ContentBlockParam.ofToolUse(
                ToolUseBlockParam.builder()
                    .id(call.id().orElse(""))
                    .name(call.name().orElse(""))
                    .input(input.build())
                    .build()));
      } else if (p.functionResponse().isPresent()) {
        FunctionResponse r = p.functionResponse().get();
        Map<String, Object> response = r.response().orElse(Map.of());
        ToolResultBlockParam.Builder result =
            ToolResultBlockParam.builder()
                .toolUseId(r.id().orElse(r.name().orElse("")))
                .content(Json.toJson(response));
        if (response.size() == 1 && response.containsKey("error")) {
          result.isError(true);
        }
        out.add(ContentBlockParam.ofToolResult(result.build()));
      } else {
        throw new IllegalArgumentException(
            "Anthropic model '"
                + model
                + "' cannot be sent this part (only text, thoughts, function calls and function"
                + " responses are mapped; see docs/models.md): "
                + describe(p));
      }
    }
    return out;
  }

  private static Tool tool(FunctionDeclaration d) {
    Map<String, Object> params = JsonSchemas.parameters(d);
    Tool.InputSchema.Builder schema = Tool.InputSchema.builder();
    params.forEach(
        (k, v) -> {
          switch (k) {
            case "type" -> {
              // always "object"
            }
            case "properties" -> {
              Tool.InputSchema.Properties.Builder props = Tool.InputSchema.Properties.builder();
              ((Map<?, ?>) v)
                  .forEach(
                      (name, s) ->
                          props.putAdditionalProperty(String.valueOf(name), JsonValue.from(s)));
              schema.properties(props.build());
            }
            case "required" -> {
              List<String> required = new ArrayList<>();
              ((List<?>) v).forEach(x -> required.add(String.valueOf(x)));
              schema.required(required);
            }
            default -> schema.putAdditionalProperty(k, JsonValue.from(v));
          }
        });
    Tool.Builder t =
        Tool.builder()
            .name(d.name().orElseThrow(() -> new IllegalArgumentException("function without name")))
            .inputSchema(schema.build());
    d.description().filter(s -> !s.isEmpty()).ifPresent(t::description);
    return t.build();
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
