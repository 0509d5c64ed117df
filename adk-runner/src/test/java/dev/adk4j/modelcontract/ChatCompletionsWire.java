package dev.adk4j.modelcontract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.adk4j.modelcontract.WireServer.Reply;
import java.util.ArrayList;
import java.util.List;

/**
 * The OpenAI Chat Completions wire format for {@link ModelContract}, as the API reference describes
 * it: {@code POST .../chat/completions}, a {@code chat.completion} object, or with {@code stream:
 * true} server-sent {@code chat.completion.chunk}s ending in {@code [DONE]}, tool calls streamed as
 * index-keyed deltas whose arguments arrive in fragments, and the usage in a last chunk without
 * choices. Shared by every adapter whose client speaks it (adk-models-openai, and
 * adk-models-langchain4j through langchain4j-open-ai).
 */
public final class ChatCompletionsWire {
  private ChatCompletionsWire() {}

  public static final ObjectMapper JSON = new ObjectMapper();

  public static ObjectNode completion(ObjectNode message, String finish) {
    ObjectNode c = JSON.createObjectNode();
    c.put("id", "chatcmpl-contract");
    c.put("object", "chat.completion");
    c.put("created", 1_760_000_000L);
    c.put("model", ModelContract.MODEL);
    ObjectNode choice = c.putArray("choices").addObject();
    choice.put("index", 0);
    message.put("role", "assistant");
    choice.set("message", message);
    choice.putNull("logprobs");
    choice.put("finish_reason", finish);
    return c;
  }

  static ObjectNode usage(int prompt, int output) {
    ObjectNode u = JSON.createObjectNode();
    u.put("prompt_tokens", prompt);
    u.put("completion_tokens", output);
    u.put("total_tokens", prompt + output);
    return u;
  }

  static ObjectNode chunk(ObjectNode delta, String finish) {
    ObjectNode c = JSON.createObjectNode();
    c.put("id", "chatcmpl-contract");
    c.put("object", "chat.completion.chunk");
    c.put("created", 1_760_000_000L);
    c.put("model", ModelContract.MODEL);
    ObjectNode choice = c.putArray("choices").addObject();
    choice.put("index", 0);
    choice.set("delta", delta);
    if (finish == null) {
      choice.putNull("finish_reason");
    } else {
      choice.put("finish_reason", finish);
    }
    return c;
  }

  static ObjectNode usageChunk(int prompt, int output) {
    ObjectNode c = JSON.createObjectNode();
    c.put("id", "chatcmpl-contract");
    c.put("object", "chat.completion.chunk");
    c.put("created", 1_760_000_000L);
    c.put("model", ModelContract.MODEL);
    c.putArray("choices");
    c.set("usage", usage(prompt, output));
    return c;
  }

  static String event(JsonNode data) {
    return "data: " + data + "\n\n";
  }

  static String args(ModelContract.Call call) {
    try {
      return JSON.writeValueAsString(call.args());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  public static Reply text(String text, int promptTokens, int outputTokens) {
    ObjectNode message = JSON.createObjectNode();
    message.put("content", text);
    message.putNull("refusal");
    ObjectNode c = completion(message, "stop");
    c.set("usage", usage(promptTokens, outputTokens));
    return Reply.json(200, c.toString());
  }

  public static Reply calls(List<ModelContract.Call> calls) {
    ObjectNode message = JSON.createObjectNode();
    message.putNull("content");
    ArrayNode toolCalls = message.putArray("tool_calls");
    for (ModelContract.Call call : calls) {
      ObjectNode t = toolCalls.addObject();
      t.put("id", call.id());
      t.put("type", "function");
      t.putObject("function").put("name", call.name()).put("arguments", args(call));
    }
    ObjectNode c = completion(message, "tool_calls");
    c.set("usage", usage(30, 20));
    return Reply.json(200, c.toString());
  }

  public static Reply streamedText(List<String> chunks, int promptTokens, int outputTokens) {
    List<String> events = new ArrayList<>();
    for (int i = 0; i < chunks.size(); i++) {
      ObjectNode delta = JSON.createObjectNode();
      if (i == 0) {
        delta.put("role", "assistant");
      }
      delta.put("content", chunks.get(i));
      events.add(event(chunk(delta, null)));
    }
    events.add(event(chunk(JSON.createObjectNode(), "stop")));
    events.add(event(usageChunk(promptTokens, outputTokens)));
    events.add("data: [DONE]\n\n");
    return Reply.sse(events);
  }

  public static Reply streamedCalls(List<ModelContract.Call> calls) {
    List<String> events = new ArrayList<>();
    ObjectNode first = JSON.createObjectNode();
    first.put("role", "assistant");
    first.putNull("content");
    events.add(event(chunk(first, null)));
    for (int i = 0; i < calls.size(); i++) {
      ModelContract.Call call = calls.get(i);
      ObjectNode opening = JSON.createObjectNode();
      ObjectNode t = opening.putArray("tool_calls").addObject();
      t.put("index", i);
      t.put("id", call.id());
      t.put("type", "function");
      t.putObject("function").put("name", call.name()).put("arguments", "");
      events.add(event(chunk(opening, null)));
      String json = args(call);
      int half = json.length() / 2;
      for (String fragment : List.of(json.substring(0, half), json.substring(half))) {
        ObjectNode piece = JSON.createObjectNode();
        ObjectNode p = piece.putArray("tool_calls").addObject();
        p.put("index", i);
        p.putObject("function").put("arguments", fragment);
        events.add(event(chunk(piece, null)));
      }
    }
    events.add(event(chunk(JSON.createObjectNode(), "tool_calls")));
    events.add(event(usageChunk(30, 20)));
    events.add("data: [DONE]\n\n");
    return Reply.sse(events);
  }

  public static Reply error(int status, String message) {
    ObjectNode body = JSON.createObjectNode();
    ObjectNode error = body.putObject("error");
    error.put("message", message);
    error.put(
        "type",
        switch (status) {
          case 429 -> "rate_limit_exceeded";
          case 400 -> "invalid_request_error";
          default -> "server_error";
        });
    error.putNull("param");
    error.putNull("code");
    return Reply.json(status, body.toString());
  }

  public static ModelContract.Seen seen(WireServer.Request request) {
    JsonNode body = request.json();
    String system = null;
    List<String> userTexts = new ArrayList<>();
    List<String> callIds = new ArrayList<>();
    List<String> responseIds = new ArrayList<>();
    for (JsonNode m : body.path("messages")) {
      switch (m.path("role").asText()) {
        case "system", "developer" -> system = text(m.path("content"));
        case "user" -> userTexts.add(text(m.path("content")));
        case "assistant" -> {
          for (JsonNode t : m.path("tool_calls")) {
            callIds.add(t.path("id").asText());
          }
        }
        case "tool" -> responseIds.add(m.path("tool_call_id").asText());
        default -> throw new AssertionError("unexpected role in " + m);
      }
    }
    List<String> tools = new ArrayList<>();
    for (JsonNode t : body.path("tools")) {
      tools.add(t.path("function").path("name").asText());
    }
    String format = body.path("response_format").path("type").asText("");
    return new ModelContract.Seen(
        system,
        tools,
        userTexts,
        callIds,
        responseIds,
        format.equals("json_schema") || format.equals("json_object"));
  }

  static String text(JsonNode content) {
    if (content.isTextual()) {
      return content.asText();
    }
    StringBuilder b = new StringBuilder();
    for (JsonNode part : content) {
      b.append(part.path("text").asText());
    }
    return b.toString();
  }
}
