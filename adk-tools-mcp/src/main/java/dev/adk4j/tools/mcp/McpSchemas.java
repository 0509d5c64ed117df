package dev.adk4j.tools.mcp;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Checks that a tool's input schema is a JSON Schema a model can be given: an object schema whose
 * {@code type}, {@code properties}, {@code items}, {@code required}, {@code enum} and combinators
 * have the shapes JSON Schema gives them, all the way down. Not a full meta-schema validation: what
 * it catches are the mistakes that make a model's request fail or its arguments meaningless.
 */
final class McpSchemas {
  private McpSchemas() {}

  private static final Set<String> TYPES =
      Set.of("object", "array", "string", "number", "integer", "boolean", "null");

  private static final Set<String> SCHEMA_MAPS =
      Set.of("properties", "patternProperties", "$defs", "definitions");

  private static final Set<String> SCHEMA_LISTS = Set.of("anyOf", "oneOf", "allOf", "prefixItems");

  private static final Set<String> SCHEMAS =
      Set.of("items", "additionalProperties", "not", "if", "then", "else", "contains");

  /** What is wrong with {@code schema} as a tool's input schema, or null if nothing is. */
  static @Nullable String problem(@Nullable Map<String, Object> schema) {
    if (schema == null) {
      return "it has no inputSchema";
    }
    Object type = schema.get("type");
    if (type != null && !"object".equals(type)) {
      return "inputSchema.type must be \"object\", got " + describe(type);
    }
    return problem(schema, "inputSchema", 0);
  }

  private static @Nullable String problem(Object node, String path, int depth) {
    if (node instanceof Boolean) {
      return null; // true / false are schemas too
    }
    if (!(node instanceof Map<?, ?> map)) {
      return path + " must be a schema (an object or a boolean), got " + describe(node);
    }
    if (depth > 64) {
      return path + " nests deeper than 64 levels";
    }
    Object type = map.get("type");
    if (type != null) {
      List<?> types = type instanceof List<?> l ? l : List.of(type);
      for (Object t : types) {
        if (!(t instanceof String s) || !TYPES.contains(s)) {
          return path
              + ".type must be one of "
              + new java.util.TreeSet<>(TYPES)
              + ", got "
              + describe(t);
        }
      }
    }
    Object required = map.get("required");
    if (required != null) {
      if (!(required instanceof List<?> list)
          || !list.stream().allMatch(String.class::isInstance)) {
        return path + ".required must be an array of property names, got " + describe(required);
      }
    }
    Object enumValues = map.get("enum");
    if (enumValues != null && !(enumValues instanceof List<?>)) {
      return path + ".enum must be an array, got " + describe(enumValues);
    }
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String key = String.valueOf(e.getKey());
      Object value = e.getValue();
      String at = path + "." + key;
      if (SCHEMA_MAPS.contains(key)) {
        if (!(value instanceof Map<?, ?> members)) {
          return at + " must be an object of schemas, got " + describe(value);
        }
        for (Map.Entry<?, ?> m : members.entrySet()) {
          String p = problem(m.getValue(), at + "." + m.getKey(), depth + 1);
          if (p != null) {
            return p;
          }
        }
      } else if (SCHEMA_LISTS.contains(key)) {
        if (!(value instanceof List<?> list) || list.isEmpty()) {
          return at + " must be a non-empty array of schemas, got " + describe(value);
        }
        for (int i = 0; i < list.size(); i++) {
          String p = problem(list.get(i), at + "[" + i + "]", depth + 1);
          if (p != null) {
            return p;
          }
        }
      } else if (SCHEMAS.contains(key)) {
        String p = problem(value, at, depth + 1);
        if (p != null) {
          return p;
        }
      }
    }
    return null;
  }

  private static String describe(@Nullable Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String s) {
      return "\"" + s + "\"";
    }
    if (value instanceof Map<?, ?>) {
      return "an object";
    }
    if (value instanceof List<?>) {
      return "an array";
    }
    return value.getClass().getSimpleName() + " " + value;
  }
}
