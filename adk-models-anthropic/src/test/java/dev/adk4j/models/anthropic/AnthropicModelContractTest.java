package dev.adk4j.models.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.adk4j.modelcontract.ModelContract;
import dev.adk4j.modelcontract.WireServer;
import dev.adk4j.modelcontract.WireServer.Reply;
import dev.adk4j.models.BaseLlm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The model contract on {@link AnthropicModel}, against a local server speaking the Messages API as
 * its reference describes it: {@code POST /v1/messages} answered with a {@code message} object, or
 * with {@code stream: true} the named server-sent events {@code message_start}, {@code
 * content_block_start}, {@code content_block_delta} ({@code text_delta}, {@code input_json_delta}),
 * {@code content_block_stop}, {@code message_delta} (stop reason, output tokens), {@code
 * message_stop}, with {@code ping}s between; errors as {@code {"type":"error","error":{...}}}.
 */
class AnthropicModelContractTest extends ModelContract {
  static final ObjectMapper JSON = new ObjectMapper();

  @Override
  protected BaseLlm model(String baseUrl) {
    return AnthropicModel.builder()
        .modelName(MODEL)
        .apiKey("sk-ant-test")
        .baseUrl(baseUrl)
        .retry(RETRY)
        .environment(Map.<String, String>of()::get)
        .build();
  }

  static ObjectNode message(ArrayNode content, String stopReason, int input, int output) {
    ObjectNode m = JSON.createObjectNode();
    m.put("id", "msg_contract");
    m.put("type", "message");
    m.put("role", "assistant");
    m.put("model", MODEL);
    m.set("content", content);
    if (stopReason == null) {
      m.putNull("stop_reason");
    } else {
      m.put("stop_reason", stopReason);
    }
    m.putNull("stop_sequence");
    ObjectNode usage = m.putObject("usage");
    usage.put("input_tokens", input);
    usage.put("output_tokens", output);
    return m;
  }

  static ObjectNode toolUse(Call call) {
    ObjectNode b = JSON.createObjectNode();
    b.put("type", "tool_use");
    b.put("id", call.id());
    b.put("name", call.name());
    b.set("input", JSON.valueToTree(call.args()));
    return b;
  }

  static String event(String name, JsonNode data) {
    return "event: " + name + "\ndata: " + data + "\n\n";
  }

  static ObjectNode typed(String type) {
    return JSON.createObjectNode().put("type", type);
  }

  @Override
  protected Reply text(String text, int promptTokens, int outputTokens) {
    ArrayNode content = JSON.createArrayNode();
    content.addObject().put("type", "text").put("text", text);
    return Reply.json(200, message(content, "end_turn", promptTokens, outputTokens).toString());
  }

  @Override
  protected Reply calls(List<Call> calls) {
    ArrayNode content = JSON.createArrayNode();
    content.addObject().put("type", "text").put("text", "");
    content.removeAll();
    for (Call call : calls) {
      content.add(toolUse(call));
    }
    return Reply.json(200, message(content, "tool_use", 30, 20).toString());
  }

  private static List<String> opening(int promptTokens) {
    ObjectNode start = typed("message_start");
    start.set("message", message(JSON.createArrayNode(), null, promptTokens, 1));
    return new ArrayList<>(List.of(event("message_start", start), event("ping", typed("ping"))));
  }

  private static List<String> closing(String stopReason, int outputTokens) {
    ObjectNode delta = typed("message_delta");
    delta.putObject("delta").put("stop_reason", stopReason).putNull("stop_sequence");
    delta.putObject("usage").put("output_tokens", outputTokens);
    return List.of(event("message_delta", delta), event("message_stop", typed("message_stop")));
  }

  @Override
  protected Reply streamedText(List<String> chunks, int promptTokens, int outputTokens) {
    List<String> events = opening(promptTokens);
    ObjectNode start = typed("content_block_start").put("index", 0);
    start.putObject("content_block").put("type", "text").put("text", "");
    events.add(event("content_block_start", start));
    for (String chunk : chunks) {
      ObjectNode d = typed("content_block_delta").put("index", 0);
      d.putObject("delta").put("type", "text_delta").put("text", chunk);
      events.add(event("content_block_delta", d));
    }
    events.add(event("content_block_stop", typed("content_block_stop").put("index", 0)));
    events.addAll(closing("end_turn", outputTokens));
    return Reply.sse(events);
  }

  @Override
  protected Reply streamedCalls(List<Call> calls) {
    List<String> events = opening(30);
    for (int i = 0; i < calls.size(); i++) {
      Call call = calls.get(i);
      ObjectNode start = typed("content_block_start").put("index", i);
      ObjectNode block = start.putObject("content_block");
      block.put("type", "tool_use").put("id", call.id()).put("name", call.name());
      block.putObject("input");
      events.add(event("content_block_start", start));
      String json;
      try {
        json = JSON.writeValueAsString(call.args());
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      int half = json.length() / 2;
      for (String fragment : List.of(json.substring(0, half), json.substring(half))) {
        ObjectNode d = typed("content_block_delta").put("index", i);
        d.putObject("delta").put("type", "input_json_delta").put("partial_json", fragment);
        events.add(event("content_block_delta", d));
      }
      events.add(event("content_block_stop", typed("content_block_stop").put("index", i)));
    }
    events.addAll(closing("tool_use", 20));
    return Reply.sse(events);
  }

  @Override
  protected Reply error(int status, String message) {
    ObjectNode body = typed("error");
    body.putObject("error")
        .put(
            "type",
            switch (status) {
              case 429 -> "rate_limit_error";
              case 529 -> "overloaded_error";
              case 400 -> "invalid_request_error";
              default -> "api_error";
            })
        .put("message", message);
    return Reply.json(status, body.toString());
  }

  @Override
  protected Seen seen(WireServer.Request request) {
    JsonNode body = request.json();
    String system = null;
    JsonNode s = body.path("system");
    if (s.isTextual()) {
      system = s.asText();
    } else if (s.isArray()) {
      StringBuilder b = new StringBuilder();
      s.forEach(block -> b.append(block.path("text").asText()));
      system = b.toString();
    }
    List<String> userTexts = new ArrayList<>();
    List<String> callIds = new ArrayList<>();
    List<String> responseIds = new ArrayList<>();
    for (JsonNode m : body.path("messages")) {
      String role = m.path("role").asText();
      JsonNode content = m.path("content");
      if (content.isTextual()) {
        if (role.equals("user")) {
          userTexts.add(content.asText());
        }
        continue;
      }
      for (JsonNode block : content) {
        switch (block.path("type").asText()) {
          case "text" -> {
            if (role.equals("user")) {
              userTexts.add(block.path("text").asText());
            }
          }
          case "tool_use" -> callIds.add(block.path("id").asText());
          case "tool_result" -> responseIds.add(block.path("tool_use_id").asText());
          default -> throw new AssertionError("unexpected block " + block);
        }
      }
    }
    List<String> tools = new ArrayList<>();
    for (JsonNode t : body.path("tools")) {
      tools.add(t.path("name").asText());
    }
    boolean json = body.path("output_config").has("format");
    return new Seen(system, tools, userTexts, callIds, responseIds, json);
  }
}
