package dev.adk4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WeatherAgentTest {

  public static Map<String, Object> getWeather(@Schema(name = "city") String city) {
    return Map.of("city", city, "forecast", "sunny");
  }

  @Test
  void answersWithTheWeatherTool() {
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("getWeather", Map.of("city", "Paris")) // 1st call: use the tool
            .thenText("It is sunny in Paris.") // 2nd call: answer
            .build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("weather_agent")
            .model(model)
            .instruction("Tell the user the weather in the city they name.")
            .tools(FunctionTool.create(WeatherAgentTest.class, "getWeather"))
            .build();
    InMemoryRunner runner = new InMemoryRunner(agent);
    String sessionId =
        runner
            .sessionService()
            .createSession(runner.appName(), "alice", null, null)
            .blockingGet()
            .id();

    List<Event> events =
        runner
            .runAsync("alice", sessionId, Content.fromParts(Part.fromText("Weather in Paris?")))
            .toList()
            .blockingGet();

    assertThat(events.get(events.size() - 1).stringifyContent()).isEqualTo("It is sunny in Paris.");
    // What the model was sent: the instruction and the tool, then the tool's result.
    assertThat(ScriptedLlm.instruction(model.request(0))).contains("the weather in the city");
    assertThat(ScriptedLlm.toolNames(model.request(0))).contains("getWeather");
    assertThat(ScriptedLlm.functionResponses(model.request(1)))
        .singleElement()
        .satisfies(
            r -> assertThat(r.response()).contains(Map.of("city", "Paris", "forecast", "sunny")));
    model.assertScriptConsumed();
  }
}
