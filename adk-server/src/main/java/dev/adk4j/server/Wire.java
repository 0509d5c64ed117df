package dev.adk4j.server;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.sessions.Session;
import dev.adk4j.state.State;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The JSON the ADK web UI reads: adk4j's Jackson settings (camelCase, absent values omitted), with
 * times in epoch seconds (events' {@code timestamp}, sessions' {@code lastUpdateTime}).
 */
final class Wire {
  private Wire() {}

  /**
   * adk4j's mapping, reading request bodies strictly: a key twice in one object is an error naming
   * it (rather than the last one silently winning).
   */
  static final ObjectMapper MAPPER =
      Json.newMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  /** The event; a {@code secret:} key of its delta (never in a stored one) shows as "***". */
  static ObjectNode event(Event event) {
    ObjectNode node = MAPPER.valueToTree(event);
    node.put("timestamp", event.timestamp() / 1000.0);
    // ADK writes these containers even when empty; clients index into them without a check.
    JsonNode a = node.get("actions");
    ObjectNode actions = a instanceof ObjectNode o ? o : node.putObject("actions");
    for (String key : ALWAYS_IN_ACTIONS) {
      if (!(actions.get(key) instanceof ObjectNode)) {
        actions.putObject(key);
      }
    }
    if (!node.has("longRunningToolIds") && !event.functionCalls().isEmpty()) {
      node.putArray("longRunningToolIds"); // ADK sets it (empty) on every function-call event
    }
    JsonNode delta = actions.get("stateDelta");
    if (delta instanceof ObjectNode d) {
      List<String> secrets = new ArrayList<>();
      d.fieldNames()
          .forEachRemaining(
              k -> {
                if (k.startsWith(State.SECRET_PREFIX)) {
                  secrets.add(k);
                }
              });
      secrets.forEach(k -> d.put(k, State.REDACTED));
    }
    return node;
  }

  private static final List<String> ALWAYS_IN_ACTIONS =
      List.of("stateDelta", "artifactDelta", "requestedAuthConfigs", "requestedToolConfirmations");

  /**
   * The frames of one event on an SSE stream: one, or two when it has both content and an artifact
   * delta (the UI renders the artifacts from a frame of their own), as ADK's servers do.
   */
  static List<ObjectNode> sseFrames(Event event) {
    ObjectNode node = event(event);
    JsonNode actions = node.get("actions");
    JsonNode artifacts = actions == null ? null : actions.get("artifactDelta");
    boolean hasContent = event.content().isPresent();
    if (!hasContent || artifacts == null || artifacts.isEmpty()) {
      return List.of(node);
    }
    ObjectNode content = node.deepCopy();
    ((ObjectNode) content.get("actions")).putObject("artifactDelta"); // ADK: emptied
    ObjectNode artifactOnly = node.deepCopy();
    artifactOnly.remove("content");
    return List.of(content, artifactOnly);
  }

  static ObjectNode session(Session session, boolean withEvents) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("id", session.id());
    node.put("appName", session.appName());
    node.put("userId", session.userId());
    // Secrets never leave through the API: their keys show, their values are "***".
    node.set("state", MAPPER.valueToTree(State.redacted(session.state())));
    // Listed sessions have an empty list, as ADK's do.
    ArrayNode events = node.putArray("events");
    if (withEvents) {
      for (Event e : session.events()) {
        events.add(event(e));
      }
    }
    node.put(
        "lastUpdateTime",
        session.lastUpdateTime().getEpochSecond() + session.lastUpdateTime().getNano() / 1e9);
    return node;
  }

  /**
   * An error body as ADK's servers write it: {@code {"detail": "message"}}; with {@code debug}, the
   * stack trace beside it ({@code stackTrace}).
   */
  static ObjectNode error(String message, @Nullable Throwable cause, boolean debug) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("detail", message);
    if (debug && cause != null) {
      StringWriter trace = new StringWriter();
      cause.printStackTrace(new PrintWriter(trace));
      node.put("stackTrace", trace.toString());
    }
    return node;
  }

  /** The last frame of a failed SSE stream, as ADK's servers write it: {@code {"error": "..."}}. */
  static ObjectNode sseError(String message, @Nullable Throwable cause, boolean debug) {
    ObjectNode node = error(message, cause, debug);
    node.set("error", node.remove("detail"));
    return node;
  }

  /**
   * The body of an error: for a validation error (422), ADK's list shape {@code {"detail":
   * [{"type", "loc", "msg"}]}} (without ADK's {@code input}, which would echo what was sent); else
   * {@code {"detail": "message"}}.
   */
  static ObjectNode error(HttpError e) {
    if (!e.isValidation()) {
      return error(String.valueOf(e.getMessage()), null, false);
    }
    ObjectNode node = MAPPER.createObjectNode();
    ObjectNode item = node.putArray("detail").addObject();
    item.put("type", e.type);
    ArrayNode loc = item.putArray("loc");
    for (Object l : e.loc) {
      if (l instanceof Integer i) {
        loc.add(i);
      } else if (l instanceof Long n) {
        loc.add(n);
      } else {
        loc.add(String.valueOf(l));
      }
    }
    item.put("msg", String.valueOf(e.getMessage()));
    return node;
  }

  /** ADK's spellings of the byte fields of genai types, written in base64. */
  private static final java.util.Set<String> INLINE_DATA =
      java.util.Set.of("inlineData", "inline_data");

  private static final java.util.Set<String> BYTES_FIELDS =
      java.util.Set.of("thoughtSignature", "thought_signature");

  /**
   * Rewrites the base64 values of a genai value ({@code inlineData.data}, {@code thoughtSignature})
   * from the URL-safe alphabet (what google-genai and pydantic write) or without padding into the
   * standard padded form the genai types read, in place; returns {@code node}.
   */
  static JsonNode standardBase64(JsonNode node) {
    if (node instanceof ObjectNode o) {
      List<String> names = new ArrayList<>();
      o.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        JsonNode v = o.get(name);
        if (BYTES_FIELDS.contains(name) && v.isTextual()) {
          o.put(name, standardBase64(v.asText()));
        } else if (INLINE_DATA.contains(name)
            && v instanceof ObjectNode blob
            && blob.get("data") != null
            && blob.get("data").isTextual()) {
          blob.put("data", standardBase64(blob.get("data").asText()));
          standardBase64(blob);
        } else {
          standardBase64(v);
        }
      }
    } else if (node instanceof ArrayNode a) {
      a.forEach(Wire::standardBase64);
    }
    return node;
  }

  private static String standardBase64(String s) {
    String t =
        s.indexOf('-') >= 0 || s.indexOf('_') >= 0 ? s.replace('-', '+').replace('_', '/') : s;
    int pad = (4 - t.length() % 4) % 4;
    return pad == 0 || t.endsWith("=") ? t : t + "=".repeat(pad);
  }

  static byte[] bytes(JsonNode node) {
    try {
      return MAPPER.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  /** One line: Jackson writes no line breaks without its pretty printer. */
  static String line(JsonNode node) {
    return new String(bytes(node), StandardCharsets.UTF_8);
  }

  /**
   * Parses a request body; an empty body or {@code null} is {@code null}.
   *
   * @throws HttpError 400 naming the problem and where it is
   */
  static @Nullable JsonNode parse(byte[] body) {
    if (body.length == 0) {
      return null;
    }
    try {
      JsonNode node = MAPPER.readTree(body);
      return node == null || node.isNull() || node.isMissingNode() ? null : node;
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String where =
          at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      long offset = at == null ? 0 : Math.max(0, at.getCharOffset());
      throw HttpError.invalid(
          "json_invalid", "malformed JSON" + where + ": " + e.getOriginalMessage(), "body", offset);
    } catch (java.io.IOException e) {
      throw HttpError.invalid("json_invalid", "unreadable JSON: " + e.getMessage(), "body", 0);
    }
  }

  /**
   * Where in a value a mapping failed ({@code " at parts[0].text"}), or what failed, without the
   * offending value (Jackson's own message may quote it).
   */
  static String where(Exception e) {
    if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
      StringBuilder at = new StringBuilder();
      for (JsonMappingException.Reference r : m.getPath()) {
        if (r.getFieldName() != null) {
          at.append(at.length() == 0 ? "" : ".").append(r.getFieldName());
        } else if (r.getIndex() >= 0) {
          at.append('[').append(r.getIndex()).append(']');
        }
      }
      return ": a value of the wrong type at " + at;
    }
    return ": a value of the wrong type";
  }

  /**
   * What kind of JSON value a node is, for messages: its type, never the value (which may be a
   * secret or personal data).
   */
  static String kind(JsonNode node) {
    if (node.isTextual()) {
      return node.asText().isBlank() ? "a blank string" : "a string";
    }
    if (node.isNumber()) {
      return "a number";
    }
    if (node.isBoolean()) {
      return "a boolean";
    }
    if (node.isArray()) {
      return "an array";
    }
    if (node.isObject()) {
      return "an object";
    }
    return node.isNull() ? "null" : "a " + node.getNodeType().toString().toLowerCase(Locale.ROOT);
  }

  static @Nullable ObjectNode object(@Nullable JsonNode node, String what) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isObject()) {
      throw HttpError.invalid(
          "model_attributes_type", what + " must be a JSON object, got " + kind(node), "body");
    }
    return (ObjectNode) node;
  }

  /**
   * The field under any of its names (camelCase, or ADK's snake_case).
   *
   * @throws HttpError 400 when it is there under two names (which one would count is a guess)
   */
  static @Nullable JsonNode field(@Nullable ObjectNode body, String... names) {
    if (body == null) {
      return null;
    }
    JsonNode found = null;
    String foundName = null;
    for (String n : names) {
      JsonNode v = body.get(n);
      if (v != null && !v.isNull()) {
        if (foundName != null) {
          throw HttpError.invalid(
              "value_error",
              "'" + foundName + "' and '" + n + "' are the same field: send one of them",
              "body",
              names[0]);
        }
        found = v;
        foundName = n;
      }
    }
    return found;
  }

  /** The longest app name, user id or session id the server accepts. */
  static final int MAX_ID_LENGTH = 1024;

  static String requiredText(@Nullable ObjectNode body, String name, String snake) {
    JsonNode v = field(body, name, snake);
    if (v == null) {
      throw HttpError.invalid("missing", "'" + name + "' is required", "body", name);
    }
    if (!v.isTextual() || v.asText().isBlank()) {
      throw HttpError.invalid(
          v.isTextual() ? "string_too_short" : "string_type",
          "'" + name + "' must be a non-blank string, got " + kind(v),
          "body",
          name);
    }
    return id(v.asText(), name, "body");
  }

  /**
   * An id from a client (a user or session id, in the path or the body), checked.
   *
   * @param where {@code path} or {@code body}, for the error's location
   * @throws HttpError 422 naming {@code what} when it is longer than {@value #MAX_ID_LENGTH}
   *     characters or has a control character (which logs and terminals would render as something
   *     else)
   */
  static String id(String value, String what, String where) {
    if (value.length() > MAX_ID_LENGTH) {
      throw HttpError.invalid(
          "string_too_long",
          "'"
              + what
              + "' is "
              + value.length()
              + " characters long; at most "
              + MAX_ID_LENGTH
              + " are allowed",
          where,
          what);
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c)) {
        throw HttpError.invalid(
            "value_error",
            String.format(
                "'%s' must not contain control characters: U+%04X at index %d", what, (int) c, i),
            where,
            what);
      }
    }
    return value;
  }

  @SuppressWarnings("unchecked")
  static @Nullable Map<String, Object> map(@Nullable JsonNode node, String name) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isObject()) {
      throw HttpError.invalid(
          "dict_type", "'" + name + "' must be a JSON object, got " + kind(node), "body", name);
    }
    return MAPPER.convertValue(node, Map.class);
  }

  static ArrayNode array(List<?> values) {
    ArrayNode a = MAPPER.createArrayNode();
    for (Object v : values) {
      a.add(MAPPER.<JsonNode>valueToTree(v));
    }
    return a;
  }

  static ArrayNode strings(Iterable<String> values) {
    ArrayNode a = MAPPER.createArrayNode();
    List<String> copy = new ArrayList<>();
    values.forEach(copy::add);
    copy.forEach(a::add);
    return a;
  }
}
