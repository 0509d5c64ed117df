package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.sessions.*, com.google.adk.tools.*
// (prefix swap only).
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.google.genai.types.FunctionDeclaration;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Single;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Tools: a hand-written {@code BaseTool} called through ADK's typed {@code runAsync} overloads. */
class ToolsProgramTest {

  /** ADK-style arguments and result types. */
  public record AddArgs(int a, int b) {}

  public record Sum(int sum) {}

  static final class AddTool extends BaseTool {
    AddTool() {
      super("add", "Adds two numbers.");
    }

    @Override
    public Optional<FunctionDeclaration> declaration() {
      return Optional.of(FunctionDeclaration.builder().name("add").build());
    }

    @Override
    public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext toolContext) {
      int a = ((Number) args.get("a")).intValue();
      int b = ((Number) args.get("b")).intValue();
      return Single.just(Map.of("sum", a + b));
    }
  }

  static ToolContext toolContext() {
    InMemorySessionService sessions = new InMemorySessionService();
    Session session = sessions.createSession("app", "user").blockingGet();
    InvocationContext invocationContext =
        InvocationContext.builder()
            .sessionService(sessions)
            .agent(LlmAgent.builder().name("agent").model(new QueueModel()).build())
            .session(session)
            .build();
    return new ToolContext(invocationContext, "call-1");
  }

  @Test
  void typedRunAsync_convertsArgumentsAndResults() {
    AddTool tool = new AddTool();
    ToolContext ctx = toolContext();

    Map<String, Object> asMap = tool.runAsync(new AddArgs(2, 3), ctx).blockingGet();
    Sum asRecord = tool.<AddArgs, Sum>runAsync(new AddArgs(4, 5), ctx, Sum.class).blockingGet();
    Map<String, Integer> asType =
        tool.runAsync(new AddArgs(1, 1), ctx, new TypeReference<Map<String, Integer>>() {})
            .blockingGet();

    assertThat(asMap).containsEntry("sum", 5);
    assertThat(asRecord).isEqualTo(new Sum(9));
    assertThat(asType).containsEntry("sum", 2);
  }

  public static Map<String, Object> lookUp(
      @Schema(name = "id", description = "the order id") String id) {
    return Map.of("id", id, "status", "shipped");
  }

  @Test
  void functionTool_fromAStaticMethod_declaresItsParameters_andAnswersItsMap() {
    FunctionTool tool = FunctionTool.create(ToolsProgramTest.class, "lookUp");

    FunctionDeclaration declaration = tool.declaration().orElseThrow();
    assertThat(declaration.name()).contains("lookUp");
    assertThat(declaration.parameters().orElseThrow().properties().orElseThrow()).containsKey("id");
    assertThat(tool.runAsync(Map.<String, Object>of("id", "o-1"), toolContext()).blockingGet())
        .containsEntry("status", "shipped");
  }

  public static void logVisit(@Schema(name = "page") String page) {}

  public static String greet(@Schema(name = "name") String name) {
    return "Hello " + name;
  }

  public static JsonNode nothingKnown(@Schema(name = "id") String id) {
    return NullNode.getInstance();
  }

  @Test
  void functionTool_results_haveAdksShapes() {
    ToolContext ctx = toolContext();

    assertThat(
            FunctionTool.create(ToolsProgramTest.class, "nothingKnown")
                .runAsync(Map.<String, Object>of("id", "o-1"), ctx)
                .blockingGet())
        .isEmpty();

    assertThat(
            FunctionTool.create(ToolsProgramTest.class, "logVisit")
                .runAsync(Map.<String, Object>of("page", "home"), ctx)
                .blockingGet())
        .isEmpty();
    assertThat(
            FunctionTool.create(ToolsProgramTest.class, "greet")
                .runAsync(Map.<String, Object>of("name", "Ada"), ctx)
                .blockingGet())
        .isEqualTo(Map.of("result", "Hello Ada"));
  }
}
