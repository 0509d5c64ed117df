package dev.adk4j.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.FunctionResponse;
import dev.adk4j.events.Event;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.BaseToolset;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Flowable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Toolsets: their tools are listed at every model call an agent prepares, so a set that changes
 * between turns is seen as it is; calls run against the tools listed for their model response; a
 * tool's writes land in the function-response event as a plain tool's do.
 */
class ToolsetTest {

  /** A toolset whose tools a test replaces at will, counting the listings. */
  static final class MutableToolset implements BaseToolset {
    final AtomicReference<List<BaseTool>> tools = new AtomicReference<>(List.of());
    final AtomicInteger listings = new AtomicInteger();
    final List<String> userTexts = new ArrayList<>();

    @Override
    public Flowable<BaseTool> getTools(ReadonlyContext context) {
      listings.incrementAndGet();
      context.userContent().ifPresent(c -> userTexts.add(c.text()));
      return Flowable.fromIterable(tools.get());
    }
  }

  public static class Weather {
    public static Map<String, Object> forecast(String city, ToolContext ctx) {
      ctx.state().put("user:last_city", city);
      return Map.of("city", city, "sky", "clear");
    }

    public static Map<String, Object> tides(String city) {
      return Map.of("city", city, "high", "06:10");
    }
  }

  @Test
  void toolsetTools_areListedAtEveryModelCall_andChangesShowAtTheNextTurn() {
    MutableToolset set = new MutableToolset();
    set.tools.set(List.of(FunctionTool.create(Weather.class, "forecast")));
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("forecast", Map.of("city", "Oslo"))
            .thenText("clear in Oslo")
            .thenFunctionCall("forecast", Map.of("city", "Rome"))
            .thenText("gone")
            .build();
    LlmAgent agent = LlmAgent.builder().name("weather").model(model).toolsets(set).build();
    AgentHarness harness = new AgentHarness();

    List<Event> first = harness.run(agent, "Oslo?");
    assertThat(ScriptedLlm.toolNames(model.request(0))).containsExactly("forecast");
    Event response = first.stream().filter(e -> !e.functionResponses().isEmpty()).findFirst().get();
    assertThat(response.functionResponses().get(0).response().get())
        .isEqualTo(Map.of("city", "Oslo", "sky", "clear"));
    assertThat(response.actions().stateDelta()).containsEntry("user:last_city", "Oslo");
    assertThat(set.listings.get()).isEqualTo(2); // one per model call
    assertThat(set.userTexts).contains("Oslo?");

    set.tools.set(List.of(FunctionTool.create(Weather.class, "tides")));
    List<Event> second = harness.run(agent, "Rome?");
    assertThat(ScriptedLlm.toolNames(model.request(2))).containsExactly("tides");
    FunctionResponse gone =
        second.stream().flatMap(e -> e.functionResponses().stream()).findFirst().get();
    assertThat((String) gone.response().get().get("error"))
        .contains("Tool 'forecast' is not available to agent 'weather'")
        .contains("[tides]");
    model.assertScriptConsumed();
  }

  @Test
  void aToolsetToolNamedLikeAnotherTool_failsTheStep_namingBoth() {
    MutableToolset set = new MutableToolset();
    set.tools.set(List.of(FunctionTool.create(Weather.class, "forecast")));
    ScriptedLlm model = ScriptedLlm.builder().thenText("never").build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("weather")
            .model(model)
            .tools(FunctionTool.create(Weather.class, "forecast"), set)
            .build();
    assertThat(agent.tools()).hasSize(1);
    assertThat(agent.toolsets()).containsExactly(set);
    assertThatThrownBy(() -> new AgentHarness().run(agent, "hi"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Agent 'weather' has two tools named 'forecast'")
        .hasMessageContaining("its tools")
        .hasMessageContaining("MutableToolset");
  }

  @Test
  void toolsOfObjects_refusesWhatIsNeitherToolNorToolset() {
    assertThatThrownBy(
            () -> LlmAgent.builder().tools(FunctionTool.create(Weather.class, "tides"), "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.String");
  }
}
