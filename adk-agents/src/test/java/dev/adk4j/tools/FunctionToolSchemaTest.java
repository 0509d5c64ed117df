package dev.adk4j.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Schema;
import com.google.genai.types.Type;
import dev.adk4j.agents.CallbackContext;
import io.reactivex.rxjava3.core.Flowable;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How {@link FunctionTool} describes a Java method to the model. */
class FunctionToolSchemaTest {

  enum Color {
    RED,
    GREEN
  }

  record Address(String city, @Annotations.Schema(description = "postal code") String zip) {}

  record Person(
      String name,
      int age,
      Optional<String> nickname,
      @Annotations.Schema(optional = true) Address address,
      List<Address> previous) {}

  /** A mutable class: properties from a public field and a setter. */
  static class Settings {
    public String theme;
    private int fontSize;

    public int getFontSize() {
      return fontSize;
    }

    public void setFontSize(int fontSize) {
      this.fontSize = fontSize;
    }

    public int getReadOnly() {
      return 1;
    }
  }

  /** A type that refers to itself, directly and through a list. */
  static class TreeNode {
    public String label;
    public TreeNode parent;
    public List<TreeNode> children;
  }

  @SuppressWarnings("unused")
  static class Tools {
    public static void scalars(
        int i,
        long l,
        short s,
        double d,
        float f,
        boolean b,
        Integer boxedInt,
        Long boxedLong,
        Double boxedDouble,
        Boolean boxedBool,
        String text,
        char c,
        Instant when) {}

    public static void enums(Color color, List<Color> palette) {}

    public static void arrays(
        List<String> names, int[] numbers, List<List<Integer>> matrix, Set<Color> colors) {}

    public static void maps(Map<String, Integer> counts, Map<String, Object> anything) {}

    public static void records(Person person) {}

    public static void pojo(Settings settings) {}

    public static void recursive(TreeNode root) {}

    public static void anyValue(Object value) {}

    public static String withContext(ToolContext ctx, String query, CallbackContext alsoInjected) {
      return query;
    }

    @Annotations.Schema(name = "lookup_weather", description = "Looks up the weather.")
    public static String annotated(
        @Annotations.Schema(name = "city_name", description = "The city.") String city,
        @Annotations.Schema(description = "Days ahead", optional = true) Integer days,
        Optional<String> unit) {
      return city;
    }

    public static String noArgs() {
      return "x";
    }

    public static void iface(Runnable callback) {}

    public static Flowable<String> stream() {
      return Flowable.just("a");
    }

    @Annotations.Schema(name = "has space")
    public static void badName() {}

    public static void renamedProperty(BadRecord value) {}
  }

  record BadRecord(@Annotations.Schema(name = "other") String value) {}

  private static FunctionDeclaration declaration(String method) {
    return FunctionTool.create(Tools.class, method).declaration().orElseThrow();
  }

  private static Map<String, Schema> properties(String method) {
    return declaration(method).parameters().orElseThrow().properties().orElseThrow();
  }

  private static Type.Known type(Schema schema) {
    return schema.type().orElseThrow().knownEnum();
  }

  @Test
  void schema_primitivesBoxesAndStrings() {
    Map<String, Schema> p = properties("scalars");

    assertThat(p.keySet())
        .containsExactly(
            "i",
            "l",
            "s",
            "d",
            "f",
            "b",
            "boxedInt",
            "boxedLong",
            "boxedDouble",
            "boxedBool",
            "text",
            "c",
            "when");
    assertThat(type(p.get("i"))).isEqualTo(Type.Known.INTEGER);
    assertThat(type(p.get("l"))).isEqualTo(Type.Known.INTEGER);
    assertThat(type(p.get("s"))).isEqualTo(Type.Known.INTEGER);
    assertThat(type(p.get("d"))).isEqualTo(Type.Known.NUMBER);
    assertThat(type(p.get("f"))).isEqualTo(Type.Known.NUMBER);
    assertThat(type(p.get("b"))).isEqualTo(Type.Known.BOOLEAN);
    assertThat(type(p.get("boxedInt"))).isEqualTo(Type.Known.INTEGER);
    assertThat(type(p.get("boxedLong"))).isEqualTo(Type.Known.INTEGER);
    assertThat(type(p.get("boxedDouble"))).isEqualTo(Type.Known.NUMBER);
    assertThat(type(p.get("boxedBool"))).isEqualTo(Type.Known.BOOLEAN);
    assertThat(type(p.get("text"))).isEqualTo(Type.Known.STRING);
    assertThat(type(p.get("c"))).isEqualTo(Type.Known.STRING);
    assertThat(type(p.get("when"))).isEqualTo(Type.Known.STRING);
  }

  @Test
  void schema_parametersObject_requiresEveryPlainArgument() {
    Schema parameters = declaration("scalars").parameters().orElseThrow();

    assertThat(type(parameters)).isEqualTo(Type.Known.OBJECT);
    assertThat(parameters.required().orElseThrow()).hasSize(13);
  }

  @Test
  void schema_enums_areStringsWithValues() {
    Map<String, Schema> p = properties("enums");

    assertThat(type(p.get("color"))).isEqualTo(Type.Known.STRING);
    assertThat(p.get("color").enum_().orElseThrow()).containsExactly("RED", "GREEN");
    assertThat(p.get("palette").items().orElseThrow().enum_().orElseThrow())
        .containsExactly("RED", "GREEN");
  }

  @Test
  void schema_listsAndArrays_areArraysWithItems() {
    Map<String, Schema> p = properties("arrays");

    assertThat(type(p.get("names"))).isEqualTo(Type.Known.ARRAY);
    assertThat(type(p.get("names").items().orElseThrow())).isEqualTo(Type.Known.STRING);
    assertThat(type(p.get("numbers"))).isEqualTo(Type.Known.ARRAY);
    assertThat(type(p.get("numbers").items().orElseThrow())).isEqualTo(Type.Known.INTEGER);
    Schema row = p.get("matrix").items().orElseThrow();
    assertThat(type(row)).isEqualTo(Type.Known.ARRAY);
    assertThat(type(row.items().orElseThrow())).isEqualTo(Type.Known.INTEGER);
    assertThat(type(p.get("colors"))).isEqualTo(Type.Known.ARRAY);
  }

  @Test
  void schema_maps_areObjects() {
    Map<String, Schema> p = properties("maps");

    assertThat(type(p.get("counts"))).isEqualTo(Type.Known.OBJECT);
    assertThat(type(p.get("anything"))).isEqualTo(Type.Known.OBJECT);
  }

  @Test
  void schema_records_areObjectsWithNestedProperties() {
    Schema person = properties("records").get("person");

    assertThat(type(person)).isEqualTo(Type.Known.OBJECT);
    Map<String, Schema> fields = person.properties().orElseThrow();
    assertThat(fields.keySet())
        .containsExactlyInAnyOrder("name", "age", "nickname", "address", "previous");
    assertThat(type(fields.get("age"))).isEqualTo(Type.Known.INTEGER);
    assertThat(type(fields.get("nickname"))).isEqualTo(Type.Known.STRING);
    Schema address = fields.get("address");
    assertThat(type(address)).isEqualTo(Type.Known.OBJECT);
    assertThat(address.properties().orElseThrow().get("zip").description()).contains("postal code");
    assertThat(address.required().orElseThrow()).containsExactlyInAnyOrder("city", "zip");
    Schema previous = fields.get("previous");
    assertThat(type(previous)).isEqualTo(Type.Known.ARRAY);
    assertThat(previous.items().orElseThrow().properties().orElseThrow())
        .containsKeys("city", "zip");
    assertThat(person.required().orElseThrow())
        .containsExactlyInAnyOrder("name", "age", "previous");
  }

  @Test
  void schema_pojo_propertiesFromFieldsAndSetters() {
    Schema settings = properties("pojo").get("settings");

    Map<String, Schema> fields = settings.properties().orElseThrow();
    assertThat(fields.keySet()).containsExactlyInAnyOrder("theme", "fontSize");
    assertThat(type(fields.get("fontSize"))).isEqualTo(Type.Known.INTEGER);
  }

  @Test
  void schema_recursiveType_terminates() {
    Schema root = properties("recursive").get("root");

    Map<String, Schema> fields = root.properties().orElseThrow();
    assertThat(type(fields.get("parent"))).isEqualTo(Type.Known.OBJECT);
    assertThat(fields.get("parent").properties()).isEmpty();
    Schema child = fields.get("children").items().orElseThrow();
    assertThat(type(child)).isEqualTo(Type.Known.OBJECT);
    assertThat(child.properties()).isEmpty();
  }

  @Test
  void schema_object_isAnyValue() {
    assertThat(properties("anyValue").get("value").type()).isEmpty();
  }

  @Test
  void schema_contextParameters_areInjectedNotDeclared() {
    Schema parameters = declaration("withContext").parameters().orElseThrow();

    assertThat(parameters.properties().orElseThrow().keySet()).containsExactly("query");
    assertThat(parameters.required().orElseThrow()).containsExactly("query");
  }

  @Test
  void schema_annotations_nameDescriptionAndOptional() {
    FunctionDeclaration d = declaration("annotated");

    assertThat(d.name()).contains("lookup_weather");
    assertThat(d.description()).contains("Looks up the weather.");
    Schema parameters = d.parameters().orElseThrow();
    Map<String, Schema> p = parameters.properties().orElseThrow();
    assertThat(p.keySet()).containsExactly("city_name", "days", "unit");
    assertThat(p.get("city_name").description()).contains("The city.");
    assertThat(p.get("days").description()).contains("Days ahead");
    assertThat(parameters.required().orElseThrow()).containsExactly("city_name");
  }

  @Test
  void schema_defaults_nameIsMethodNameAndNoDescription() {
    FunctionTool tool = FunctionTool.create(Tools.class, "noArgs");

    assertThat(tool.name()).isEqualTo("noArgs");
    assertThat(tool.description()).isEmpty();
    assertThat(tool.declaration().orElseThrow().name()).contains("noArgs");
    assertThat(tool.declaration().orElseThrow().description()).isEmpty();
    assertThat(tool.declaration().orElseThrow().parameters()).isEmpty();
  }

  @Test
  void create_interfaceParameter_isRefused() {
    assertThatThrownBy(() -> FunctionTool.create(Tools.class, "iface"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("argument 'callback'")
        .hasMessageContaining("Runnable");
  }

  @Test
  void create_streamingReturnType_isRefused() {
    assertThatThrownBy(() -> FunctionTool.create(Tools.class, "stream"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Flowable");
  }

  @Test
  void create_invalidToolName_isRefused() {
    assertThatThrownBy(() -> FunctionTool.create(Tools.class, "badName"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'has space'");
  }

  @Test
  void create_schemaNameOnProperty_isRefused() {
    assertThatThrownBy(() -> FunctionTool.create(Tools.class, "renamedProperty"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("@JsonProperty");
  }

  @Test
  void create_parameterNamesUnavailable_isRefused() {
    // JDK classes are compiled without -parameters.
    assertThatThrownBy(() -> FunctionTool.create(Boolean.class, "logicalXor"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-parameters")
        .hasMessageContaining("@Schema(name");
  }
}
