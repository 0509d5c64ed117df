package dev.adk4j.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Turns google-genai {@link Schema}s (the OpenAPI subset Gemini reads: upper-case types, {@code
 * nullable}) into standard JSON Schema maps, as the OpenAI, Anthropic and LangChain4j adapters send
 * them: lower-case types, {@code nullable: true} as a {@code "null"} alternative, absent fields
 * left out.
 *
 * <p>Internal to adk4j: not part of its API, may change in any release.
 */
public final class JsonSchemas {
  private JsonSchemas() {}

  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  /** The JSON Schema of {@code schema}. */
  public static Map<String, Object> toJsonSchema(Schema schema) {
    return convert(read(schema.toJson()));
  }

  /**
   * The JSON Schema of {@code declaration}'s parameters: its {@code parametersJsonSchema} as given,
   * or its {@code parameters} converted, or an object schema without properties.
   */
  public static Map<String, Object> parameters(FunctionDeclaration declaration) {
    Object given = declaration.parametersJsonSchema().orElse(null);
    if (given != null) {
      Map<String, Object> m = read(Json.toJson(given));
      return m;
    }
    Schema params = declaration.parameters().orElse(null);
    if (params == null) {
      Map<String, Object> empty = new LinkedHashMap<>();
      empty.put("type", "object");
      empty.put("properties", new LinkedHashMap<>());
      return empty;
    }
    return toJsonSchema(params);
  }

  /** {@code json}, a JSON object, as a map. */
  public static Map<String, Object> read(String json) {
    try {
      return Json.newMapper().readValue(json, MAP);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("Not a JSON object: " + json, e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> convert(Map<String, Object> in) {
    Map<String, Object> out = new LinkedHashMap<>();
    boolean nullable = Boolean.TRUE.equals(in.get("nullable"));
    for (Map.Entry<String, Object> e : in.entrySet()) {
      String key = e.getKey();
      @Nullable Object value = e.getValue();
      if (value == null || key.equals("nullable")) {
        continue;
      }
      switch (key) {
        case "type" -> {
          String type = value.toString().toLowerCase(Locale.ROOT);
          if (type.equals("type_unspecified")) {
            continue;
          }
          out.put("type", nullable ? List.of(type, "null") : type);
        }
        case "properties" -> {
          Map<String, Object> props = new LinkedHashMap<>();
          ((Map<String, Object>) value)
              .forEach((name, s) -> props.put(name, convert((Map<String, Object>) s)));
          out.put("properties", props);
        }
        case "items" -> out.put("items", convert((Map<String, Object>) value));
        case "anyOf" -> {
          List<Object> alternatives = new ArrayList<>();
          for (Object s : (List<Object>) value) {
            alternatives.add(convert((Map<String, Object>) s));
          }
          out.put("anyOf", alternatives);
        }
        case "propertyOrdering" -> {
          // Gemini-only
        }
        case "minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties" ->
            out.put(key, Long.parseLong(value.toString()));
        default -> out.put(key, value);
      }
    }
    return out;
  }
}
