package dev.adk4j.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.internal.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The A2A protocol's JSON (revision 0.3.0, JSON-RPC binding) as adk4j writes and reads it:
 * messages, parts, tasks, their states and the JSON-RPC envelopes and error codes. Plain Jackson
 * trees: the protocol is small, and reading trees lets both sides check what a peer sent field by
 * field and say exactly what was wrong.
 */
final class A2aWire {
  private A2aWire() {}

  static final ObjectMapper JSON = Json.newMapper();
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The protocol revision this module speaks, as agent cards write it. */
  static final String PROTOCOL_VERSION = "0.3.0";

  /** Where a 0.3 agent card is published, and where 0.2 clients look for it. */
  static final String CARD_PATH = "/.well-known/agent-card.json";

  static final String LEGACY_CARD_PATH = "/.well-known/agent.json";

  static final String SEND = "message/send";
  static final String STREAM = "message/stream";
  static final String GET = "tasks/get";
  static final String CANCEL = "tasks/cancel";

  // JSON-RPC's own codes, then A2A's.
  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int METHOD_NOT_FOUND = -32601;
  static final int INVALID_PARAMS = -32602;
  static final int INTERNAL_ERROR = -32603;
  static final int TASK_NOT_FOUND = -32001;
  static final int TASK_NOT_CANCELABLE = -32002;
  static final int PUSH_NOT_SUPPORTED = -32003;
  static final int UNSUPPORTED_OPERATION = -32004;

  static final String SUBMITTED = "submitted";
  static final String WORKING = "working";
  static final String INPUT_REQUIRED = "input-required";
  static final String AUTH_REQUIRED = "auth-required";
  static final String COMPLETED = "completed";
  static final String CANCELED = "canceled";
  static final String FAILED = "failed";
  static final String REJECTED = "rejected";
  static final String UNKNOWN = "unknown";

  static final Set<String> STATES =
      Set.of(
          SUBMITTED,
          WORKING,
          INPUT_REQUIRED,
          AUTH_REQUIRED,
          COMPLETED,
          CANCELED,
          FAILED,
          REJECTED,
          UNKNOWN);

  /** States after which a task changes no more. */
  static final Set<String> TERMINAL = Set.of(COMPLETED, CANCELED, FAILED, REJECTED);

  /** States in which a task waits for its client (the stream of the current request ends). */
  static final Set<String> INTERRUPTED = Set.of(INPUT_REQUIRED, AUTH_REQUIRED);

  static String newId() {
    return UUID.randomUUID().toString();
  }

  static String now() {
    return Instant.now().toString();
  }

  /** A message of {@code role} ({@code user} or {@code agent}) holding {@code parts}. */
  static ObjectNode message(
      String role, ArrayNode parts, @Nullable String contextId, @Nullable String taskId) {
    ObjectNode m = NODES.objectNode();
    m.put("kind", "message");
    m.put("messageId", newId());
    m.put("role", role);
    m.set("parts", parts);
    if (contextId != null) {
      m.put("contextId", contextId);
    }
    if (taskId != null) {
      m.put("taskId", taskId);
    }
    return m;
  }

  static ArrayNode textParts(String text) {
    ArrayNode parts = NODES.arrayNode();
    parts.addObject().put("kind", "text").put("text", text);
    return parts;
  }

  /**
   * The parts of an adk4j {@link Content}: text (thoughts left out) as text parts; function calls
   * and responses as data parts ({@code {"functionCall": {...}}}, {@code {"functionResponse":
   * {...}}}); inline data as file parts (base64 bytes).
   */
  static ArrayNode parts(Content content) {
    ArrayNode parts = NODES.arrayNode();
    for (Part p : content.parts().orElse(List.of())) {
      if (p.thought().orElse(false)) {
        continue;
      }
      if (p.text().isPresent()) {
        parts.addObject().put("kind", "text").put("text", p.text().get());
      } else if (p.functionCall().isPresent()) {
        var call = p.functionCall().get();
        ObjectNode data = parts.addObject().put("kind", "data").putObject("data");
        ObjectNode fc = data.putObject("functionCall");
        call.id().ifPresent(id -> fc.put("id", id));
        fc.put("name", call.name().orElse(""));
        fc.set("args", JSON.valueToTree(call.args().orElse(Map.of())));
      } else if (p.functionResponse().isPresent()) {
        var response = p.functionResponse().get();
        ObjectNode data = parts.addObject().put("kind", "data").putObject("data");
        ObjectNode fr = data.putObject("functionResponse");
        response.id().ifPresent(id -> fr.put("id", id));
        fr.put("name", response.name().orElse(""));
        fr.set("response", JSON.valueToTree(response.response().orElse(Map.of())));
      } else if (p.inlineData().isPresent()) {
        var blob = p.inlineData().get();
        ObjectNode file = parts.addObject().put("kind", "file").putObject("file");
        blob.mimeType().ifPresent(t -> file.put("mimeType", t));
        blob.displayName().ifPresent(n -> file.put("name", n));
        file.put(
            "bytes", java.util.Base64.getEncoder().encodeToString(blob.data().orElse(new byte[0])));
      }
    }
    return parts;
  }

  /**
   * The adk4j parts of A2A {@code parts}: text as text; a data part as its JSON written out as text
   * (a model reads it); a file part with bytes as inline data, one with a URI as text naming it.
   */
  static List<Part> toParts(JsonNode parts) {
    List<Part> out = new ArrayList<>();
    for (JsonNode p : parts) {
      switch (p.path("kind").asText()) {
        case "text" -> out.add(Part.fromText(p.path("text").asText()));
        case "data" -> out.add(Part.fromText(p.path("data").toString()));
        case "file" -> {
          JsonNode file = p.path("file");
          String mime = file.path("mimeType").asText("application/octet-stream");
          if (file.hasNonNull("bytes")) {
            out.add(
                Part.fromBytes(
                    java.util.Base64.getDecoder().decode(file.path("bytes").asText()), mime));
          } else {
            out.add(Part.fromText("[file " + file.path("uri").asText() + " (" + mime + ")]"));
          }
        }
        default -> {}
      }
    }
    return out;
  }

  /** The text of A2A {@code parts}: text parts, then data parts as JSON, joined by newlines. */
  static String text(JsonNode parts) {
    List<String> texts = new ArrayList<>();
    for (JsonNode p : parts) {
      String kind = p.path("kind").asText();
      if (kind.equals("text")) {
        texts.add(p.path("text").asText());
      } else if (kind.equals("data")) {
        texts.add(p.path("data").toString());
      }
    }
    return String.join("\n", texts);
  }

  /** The first data part's object of {@code parts}, or null. */
  static @Nullable JsonNode firstData(JsonNode parts) {
    for (JsonNode p : parts) {
      if (p.path("kind").asText().equals("data") && p.path("data").isObject()) {
        return p.path("data");
      }
    }
    return null;
  }

  /**
   * Checks that {@code message} is an A2A message with at least one part, each of a known kind.
   *
   * @return null if it is, else what is wrong with it (naming the field, never its content)
   */
  static @Nullable String messageProblem(JsonNode message, String where) {
    if (!message.isObject()) {
      return where + " is not an object";
    }
    String role = message.path("role").asText("");
    if (!role.equals("user") && !role.equals("agent")) {
      return where + ".role must be \"user\" or \"agent\"";
    }
    JsonNode parts = message.path("parts");
    if (!parts.isArray() || parts.isEmpty()) {
      return where + ".parts must be a non-empty array";
    }
    for (int i = 0; i < parts.size(); i++) {
      JsonNode p = parts.get(i);
      String kind = p.path("kind").asText("");
      String at = where + ".parts[" + i + "]";
      switch (kind) {
        case "text" -> {
          if (!p.path("text").isTextual()) {
            return at + ".text must be a string";
          }
        }
        case "data" -> {
          if (!p.path("data").isObject()) {
            return at + ".data must be an object";
          }
        }
        case "file" -> {
          JsonNode file = p.path("file");
          if (!file.isObject()
              || !(file.path("bytes").isTextual() || file.path("uri").isTextual())) {
            return at + ".file must be an object with bytes or uri";
          }
        }
        default -> {
          return at + ".kind must be \"text\", \"data\" or \"file\"";
        }
      }
    }
    for (String id : List.of("contextId", "taskId", "messageId")) {
      if (message.has(id) && !message.get(id).isNull() && !message.get(id).isTextual()) {
        return where + "." + id + " must be a string";
      }
    }
    return null;
  }

  /** A JSON-RPC success response. */
  static ObjectNode result(JsonNode id, JsonNode result) {
    ObjectNode r = NODES.objectNode();
    r.put("jsonrpc", "2.0");
    r.set("id", id);
    r.set("result", result);
    return r;
  }

  /** A JSON-RPC error response. */
  static ObjectNode error(JsonNode id, int code, String message) {
    ObjectNode r = NODES.objectNode();
    r.put("jsonrpc", "2.0");
    r.set("id", id);
    r.putObject("error").put("code", code).put("message", message);
    return r;
  }
}
