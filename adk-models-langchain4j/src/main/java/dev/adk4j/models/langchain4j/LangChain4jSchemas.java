package dev.adk4j.models.langchain4j;

import dev.adk4j.internal.Json;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Standard JSON Schema maps (from {@code JsonSchemas}) as LangChain4j's schema elements: string,
 * integer, number, boolean, enum, array, object, {@code anyOf} and null; a {@code ["t", "null"]}
 * type as {@code anyOf} of the two; anything else as a raw schema.
 */
final class LangChain4jSchemas {
  private LangChain4jSchemas() {}

  static JsonObjectSchema object(Map<String, Object> schema) {
    JsonSchemaElement e = element(schema);
    if (e instanceof JsonObjectSchema) {
      return (JsonObjectSchema) e;
    }
    throw new IllegalArgumentException("Not an object schema: " + Json.toJson(schema));
  }

  @SuppressWarnings("unchecked")
  static JsonSchemaElement element(Map<String, Object> schema) {
    @Nullable String description = (String) schema.get("description");
    Object type = schema.get("type");
    if (type instanceof List<?> types && types.size() == 2 && types.contains("null")) {
      Object other = types.get(0).equals("null") ? types.get(1) : types.get(0);
      Map<String, Object> nonNull = new java.util.LinkedHashMap<>(schema);
      nonNull.put("type", other);
      nonNull.remove("description");
      JsonAnyOfSchema.Builder b =
          JsonAnyOfSchema.builder().anyOf(element(nonNull), new JsonNullSchema());
      return description == null ? b.build() : b.description(description).build();
    }
    if (schema.get("enum") instanceof List<?> values) {
      List<String> strings = new ArrayList<>();
      values.forEach(v -> strings.add(String.valueOf(v)));
      JsonEnumSchema.Builder b = JsonEnumSchema.builder().enumValues(strings);
      return description == null ? b.build() : b.description(description).build();
    }
    if (schema.get("anyOf") instanceof List<?> alternatives) {
      List<JsonSchemaElement> elements = new ArrayList<>();
      alternatives.forEach(a -> elements.add(element((Map<String, Object>) a)));
      JsonAnyOfSchema.Builder b = JsonAnyOfSchema.builder().anyOf(elements);
      return description == null ? b.build() : b.description(description).build();
    }
    String t = type == null ? "" : type.toString();
    switch (t) {
      case "string" -> {
        return description == null
            ? JsonStringSchema.builder().build()
            : JsonStringSchema.builder().description(description).build();
      }
      case "integer" -> {
        return description == null
            ? JsonIntegerSchema.builder().build()
            : JsonIntegerSchema.builder().description(description).build();
      }
      case "number" -> {
        return description == null
            ? JsonNumberSchema.builder().build()
            : JsonNumberSchema.builder().description(description).build();
      }
      case "boolean" -> {
        return description == null
            ? JsonBooleanSchema.builder().build()
            : JsonBooleanSchema.builder().description(description).build();
      }
      case "null" -> {
        return new JsonNullSchema();
      }
      case "array" -> {
        JsonArraySchema.Builder b = JsonArraySchema.builder();
        if (schema.get("items") instanceof Map<?, ?> items) {
          b.items(element((Map<String, Object>) items));
        }
        return description == null ? b.build() : b.description(description).build();
      }
      case "object" -> {
        JsonObjectSchema.Builder b = JsonObjectSchema.builder();
        if (schema.get("properties") instanceof Map<?, ?> props) {
          props.forEach(
              (name, s) -> b.addProperty(String.valueOf(name), element((Map<String, Object>) s)));
        }
        if (schema.get("required") instanceof List<?> required) {
          List<String> names = new ArrayList<>();
          required.forEach(r -> names.add(String.valueOf(r)));
          b.required(names);
        }
        return description == null ? b.build() : b.description(description).build();
      }
      default -> {
        return JsonRawSchema.from(Json.toJson(schema));
      }
    }
  }
}
