package dev.adk4j.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.types.CustomMetadata;
import com.google.genai.types.StringList;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Key-value metadata as ADK for Python holds it (an object of keys and values) turned into ADK for
 * Java's list of google-genai {@link CustomMetadata}: a string value becomes a {@code stringValue},
 * a number a {@code numericValue}, a list of strings a {@code stringListValue}, anything else its
 * JSON text as a {@code stringValue}.
 */
public final class CustomMetadataEntries {

  private CustomMetadataEntries() {}

  /** The entries of {@code map}, in its order. */
  public static List<CustomMetadata> of(Map<String, ? extends @Nullable Object> map) {
    List<CustomMetadata> list = new ArrayList<>();
    for (Map.Entry<String, ? extends @Nullable Object> e : map.entrySet()) {
      list.add(entry(e.getKey(), toNode(e.getKey(), e.getValue())));
    }
    return List.copyOf(list);
  }

  /** The entries of a JSON object. */
  public static List<CustomMetadata> of(JsonNode object) {
    List<CustomMetadata> list = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      list.add(entry(e.getKey(), e.getValue()));
    }
    return List.copyOf(list);
  }

  private static JsonNode toNode(String key, @Nullable Object value) {
    String json = Json.toJson(Json.normalize(key, value));
    try {
      return Json.reader().readTree(json);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("custom metadata '" + key + "' is not JSON data", e);
    }
  }

  private static CustomMetadata entry(String key, @Nullable JsonNode value) {
    CustomMetadata.Builder b = CustomMetadata.builder().key(key);
    if (value == null || value.isNull()) {
      return b.build();
    }
    if (value.isTextual()) {
      return b.stringValue(value.asText()).build();
    }
    if (value.isNumber()) {
      return b.numericValue(value.floatValue()).build();
    }
    if (value.isArray()) {
      List<String> strings = new ArrayList<>();
      for (JsonNode item : value) {
        if (!item.isTextual()) {
          return b.stringValue(value.toString()).build();
        }
        strings.add(item.asText());
      }
      return b.stringListValue(StringList.builder().values(strings).build()).build();
    }
    return b.stringValue(value.toString()).build();
  }
}
