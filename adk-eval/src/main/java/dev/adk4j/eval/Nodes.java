package dev.adk4j.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import dev.adk4j.internal.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The JSON plumbing of the eval format. ADK's pydantic models read both snake_case and camelCase
 * field names (an alias generator) and write snake_case; genai's Java types read and write
 * camelCase. Content therefore crosses in two steps: keys are renamed, except inside the data maps
 * of function calls and responses ({@code args}, {@code response}), which are user data.
 */
final class Nodes {
  private Nodes() {}

  static final JsonNodeFactory F = JsonNodeFactory.instance;

  private static final ObjectMapper MAPPER = Json.newMapper();
  private static final ObjectMapper PRETTY =
      Json.newMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** Keys whose values are user data, never renamed. */
  private static final Set<String> DATA_KEYS = Set.of("args", "response", "state", "state_delta");

  static ObjectMapper mapper() {
    return MAPPER;
  }

  static JsonNode parse(String json, String source) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new EvalFormatException(
          source,
          "$",
          "not JSON (line "
              + e.getLocation().getLineNr()
              + ", column "
              + e.getLocation().getColumnNr()
              + ")");
    }
  }

  static String pretty(JsonNode node) {
    try {
      return PRETTY.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("JSON tree did not serialize", e);
    }
  }

  static String compact(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("JSON tree did not serialize", e);
    }
  }

  static String camel(String snake) {
    StringBuilder b = new StringBuilder(snake.length());
    boolean up = false;
    for (int i = 0; i < snake.length(); i++) {
      char c = snake.charAt(i);
      if (c == '_' && i > 0) {
        up = true;
      } else {
        b.append(up ? Character.toUpperCase(c) : c);
        up = false;
      }
    }
    return b.toString();
  }

  static String snake(String camel) {
    StringBuilder b = new StringBuilder(camel.length() + 4);
    for (int i = 0; i < camel.length(); i++) {
      char c = camel.charAt(i);
      if (Character.isUpperCase(c)) {
        b.append('_').append(Character.toLowerCase(c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** The field named {@code snake} or its camelCase alias, or null. */
  static @Nullable JsonNode field(JsonNode object, String snake) {
    JsonNode n = object.get(snake);
    if (n == null || n.isNull()) {
      n = object.get(camel(snake));
    }
    return n == null || n.isNull() ? null : n;
  }

  static JsonNode required(JsonNode object, String snake, String path, String source) {
    JsonNode n = field(object, snake);
    if (n == null) {
      throw new EvalFormatException(source, path + "." + snake, "required field is missing");
    }
    return n;
  }

  static String text(JsonNode object, String snake, String path, String source) {
    JsonNode n = required(object, snake, path, source);
    if (!n.isTextual()) {
      throw new EvalFormatException(
          source, path + "." + snake, "expected a string, found " + n.getNodeType());
    }
    return n.asText();
  }

  static @Nullable String optionalText(JsonNode object, String snake, String path, String source) {
    JsonNode n = field(object, snake);
    if (n == null) {
      return null;
    }
    if (!n.isTextual()) {
      throw new EvalFormatException(
          source, path + "." + snake, "expected a string, found " + n.getNodeType());
    }
    return n.asText();
  }

  static ArrayNode array(JsonNode n, String path, String source) {
    if (!n.isArray()) {
      throw new EvalFormatException(source, path, "expected an array, found " + n.getNodeType());
    }
    return (ArrayNode) n;
  }

  static ObjectNode object(JsonNode n, String path, String source) {
    if (!n.isObject()) {
      throw new EvalFormatException(source, path, "expected an object, found " + n.getNodeType());
    }
    return (ObjectNode) n;
  }

  /** Renames keys to camelCase (genai's form), leaving data maps as they are. */
  static JsonNode toCamel(JsonNode n) {
    return rename(n, true);
  }

  /** Renames keys to snake_case (ADK's written form), leaving data maps as they are. */
  static JsonNode toSnake(JsonNode n) {
    return rename(n, false);
  }

  private static JsonNode rename(JsonNode n, boolean toCamel) {
    if (n.isArray()) {
      ArrayNode out = F.arrayNode();
      n.forEach(e -> out.add(rename(e, toCamel)));
      return out;
    }
    if (!n.isObject()) {
      return n;
    }
    ObjectNode out = F.objectNode();
    Iterator<Map.Entry<String, JsonNode>> it = n.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      if (toCamel && e.getValue().isNull()) {
        continue; // pydantic writes absent fields as null; genai's reader wants them left out
      }
      String key = toCamel ? camel(e.getKey()) : snake(e.getKey());
      boolean data = DATA_KEYS.contains(snake(e.getKey()));
      out.set(key, data ? e.getValue().deepCopy() : rename(e.getValue(), toCamel));
    }
    return out;
  }

  static Content content(JsonNode n, String path, String source) {
    object(n, path, source);
    JsonNode parts = field(n, "parts");
    if (parts != null) {
      array(parts, path + ".parts", source);
    }
    try {
      return Content.fromJson(compact(toCamel(n)));
    } catch (RuntimeException e) {
      throw new EvalFormatException(source, path, "not a genai Content", e);
    }
  }

  static FunctionCall functionCall(JsonNode n, String path, String source) {
    object(n, path, source);
    text(n, "name", path, source);
    JsonNode args = field(n, "args");
    if (args != null) {
      object(args, path + ".args", source);
    }
    try {
      return FunctionCall.fromJson(compact(toCamel(n)));
    } catch (RuntimeException e) {
      throw new EvalFormatException(source, path, "not a genai FunctionCall", e);
    }
  }

  static FunctionResponse functionResponse(JsonNode n, String path, String source) {
    object(n, path, source);
    try {
      return FunctionResponse.fromJson(compact(toCamel(n)));
    } catch (RuntimeException e) {
      throw new EvalFormatException(source, path, "not a genai FunctionResponse", e);
    }
  }

  /** A genai value (Content, FunctionCall, ...) as ADK writes it: snake_case, nulls left out. */
  static JsonNode adk(String genaiJson) {
    return toSnake(parse(genaiJson, "genai JSON"));
  }

  static Map<String, Object> map(JsonNode n, String path, String source) {
    object(n, path, source);
    Map<String, Object> out = new LinkedHashMap<>();
    n.fields()
        .forEachRemaining(
            e -> out.put(e.getKey(), MAPPER.convertValue(e.getValue(), Object.class)));
    return out;
  }

  static JsonNode tree(@Nullable Object value) {
    return MAPPER.valueToTree(value);
  }

  static List<JsonNode> list(@Nullable JsonNode n) {
    List<JsonNode> out = new ArrayList<>();
    if (n != null) {
      n.forEach(out::add);
    }
    return out;
  }
}
