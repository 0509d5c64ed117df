package dev.adk4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Schema;
import com.google.genai.types.Type;
import dev.adk4j.internal.JsonSchemas;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonSchemasTest {

  @Test
  void genaiSchema_becomesStandardJsonSchema() {
    Schema s =
        Schema.builder()
            .type(Type.Known.OBJECT)
            .description("A trip.")
            .properties(
                Map.of(
                    "type",
                        Schema.builder().type(Type.Known.STRING).enum_(List.of("a", "b")).build(),
                    "stops",
                        Schema.builder()
                            .type(Type.Known.ARRAY)
                            .minItems(1L)
                            .items(Schema.builder().type(Type.Known.NUMBER).nullable(true).build())
                            .build()))
            .required(List.of("type"))
            .build();

    Map<String, Object> json = JsonSchemas.toJsonSchema(s);

    assertThat(json)
        .containsEntry("type", "object")
        .containsEntry("description", "A trip.")
        .containsEntry("required", List.of("type"));
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> props =
        (Map<String, Map<String, Object>>) json.get("properties");
    // A property named "type" is a property, not a type to lower-case.
    assertThat(props.get("type"))
        .containsEntry("type", "string")
        .containsEntry("enum", List.of("a", "b"));
    assertThat(props.get("stops")).containsEntry("type", "array").containsEntry("minItems", 1L);
    assertThat(props.get("stops").get("items"))
        .isEqualTo(Map.of("type", List.of("number", "null")));
  }

  @Test
  void parameters_ofADeclarationWithout_areAnEmptyObject_andAGivenJsonSchemaIsKept() {
    assertThat(JsonSchemas.parameters(FunctionDeclaration.builder().name("f").build()))
        .isEqualTo(Map.of("type", "object", "properties", Map.of()));
    Map<String, Object> given =
        Map.of("type", "object", "properties", Map.of("x", Map.of("type", "integer")));
    assertThat(
            JsonSchemas.parameters(
                FunctionDeclaration.builder().name("f").parametersJsonSchema(given).build()))
        .isEqualTo(given);
  }
}
