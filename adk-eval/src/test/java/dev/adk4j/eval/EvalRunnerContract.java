package dev.adk4j.eval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs eval sets end to end on a session service: a weather agent over a scripted model with a tool
 * that writes state. Subclasses say which session service (memory, SQLite, PostgreSQL).
 */
abstract class EvalRunnerContract {

  /** A fresh session service for one test. */
  abstract BaseSessionService sessions() throws Exception;

  static final AtomicInteger TOOL_CALLS = new AtomicInteger();

  @Schema(name = "get_weather", description = "The weather in a city.")
  public static Map<String, Object> getWeather(
      @Schema(name = "city", description = "the city") String city, ToolContext context) {
    TOOL_CALLS.incrementAndGet();
    context.state().put("last_city", city);
    Object n = context.state().get("user:lookups");
    context.state().put("user:lookups", (n instanceof Number x ? x.intValue() : 0) + 1);
    context.state().put("temp:scratch", "x");
    return Map.of("forecast", city.equals("Paris") ? "sunny" : "rainy");
  }

  /** Calls get_weather for the city in the user's text, then answers from the tool's result. */
  static LlmResponse weatherModel(LlmRequest request) {
    var contents = request.contents();
    var lastParts = contents.get(contents.size() - 1).parts().orElse(List.of());
    var response = lastParts.stream().flatMap(p -> p.functionResponse().stream()).findFirst();
    LlmResponse.Builder b;
    if (response.isPresent()) {
      Object forecast = response.get().response().orElseThrow().get("forecast");
      b = ScriptedLlm.textResponse("It is " + forecast + ".").toBuilder();
    } else {
      String text =
          lastParts.stream().flatMap(p -> p.text().stream()).collect(Collectors.joining());
      String city = text.contains("Paris") ? "Paris" : "London";
      b = ScriptedLlm.functionCallResponse("get_weather", Map.of("city", city)).toBuilder();
    }
    return b.usageMetadata(
            GenerateContentResponseUsageMetadata.builder()
                .promptTokenCount(10)
                .candidatesTokenCount(5)
                .totalTokenCount(15)
                .build())
        .build();
  }

  static LlmAgent agent(ScriptedLlm model) {
    return LlmAgent.builder()
        .name("weather_agent")
        .model(model)
        .instruction("Answer weather questions with get_weather.")
        .tools(FunctionTool.create(EvalRunnerContract.class, "getWeather"))
        .build();
  }

  static final String SET =
      """
      {"eval_set_id": "weather", "eval_cases": [
        {"eval_id": "paris_then_london",
         "session_input": {"app_name": "weather", "user_id": "u1", "state": {"user:unit": "C"}},
         "conversation": [
           {"user_content": {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
            "final_response": {"role": "model", "parts": [{"text": "It is sunny."}]},
            "intermediate_data": {"tool_uses": [{"name": "get_weather", "args": {"city": "Paris"}}]}},
           {"user_content": {"role": "user", "parts": [{"text": "And in London?"}]},
            "final_response": {"role": "model", "parts": [{"text": "It is rainy."}]},
            "intermediate_data": {"tool_uses": [{"name": "get_weather", "args": {"city": "London"}}]}}],
         "adk4j_state_checks": [
           {"invocation_index": 0, "state": {"last_city": "Paris", "user:lookups": 1, "user:unit": "C"},
            "match": "EXACT", "scopes": ["SESSION", "USER"],
            "state_deltas": [{"last_city": "Paris", "user:lookups": 1}]},
           {"invocation_index": 1, "state": {"last_city": "London", "user:lookups": 2}}]},
        {"eval_id": "wrong_expectation",
         "session_input": {"app_name": "weather", "user_id": "u2", "state": {}},
         "conversation": [
           {"user_content": {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
            "final_response": {"role": "model", "parts": [{"text": "It is snowing heavily."}]},
            "intermediate_data": {"tool_uses": [{"name": "get_weather", "args": {"city": "Berlin"}}]}}],
         "adk4j_state_checks": [{"invocation_index": 0, "state": {"last_city": "Berlin"}}]}
      ]}
      """;

  EvalRunner.Builder runner(BaseSessionService sessions) {
    return EvalRunner.builder()
        .app("weather", agent(ScriptedLlm.answering(EvalRunnerContract::weatherModel)))
        .sessionService(sessions);
  }

  @Test
  void evalSet_runsAndScores_withStateChecks_andRepeatedRuns() throws Exception {
    EvalSet set = EvalSet.parse(SET);
    EvalSetResult result = runner(sessions()).runs(2).build().run(set);

    EvalCaseResult good = result.cases().get(0);
    assertThat(good.status()).as(good.failures().toString()).isEqualTo(EvalStatus.PASSED);
    assertThat(good.runs()).hasSize(2);
    assertThat(good.runs().get(0).sessionId()).isNotEqualTo(good.runs().get(1).sessionId());
    assertThat(good.metric("tool_trajectory_avg_score").orElseThrow().score()).isEqualTo(1.0);
    assertThat(good.metric("response_match_score").orElseThrow().score()).isEqualTo(1.0);
    assertThat(good.metric("adk4j_state_match").orElseThrow().score()).isEqualTo(1.0);
    MetricResult calls = good.metric("tool_call_count_v1").orElseThrow();
    assertThat(calls.score()).isEqualTo(1.0);
    assertThat(calls.status()).isEqualTo(EvalStatus.INFORMATIONAL);
    assertThat(good.metric("inference_call_count_v1").orElseThrow().score()).isEqualTo(2.0);
    assertThat(good.metric("token_usage_v1").orElseThrow().score()).isEqualTo(30.0);
    assertThat(good.metric("response_match_score").orElseThrow().spread()).isEqualTo(0.0);

    EvalCaseResult bad = result.cases().get(1);
    assertThat(bad.status()).isEqualTo(EvalStatus.FAILED);
    assertThat(bad.metric("tool_trajectory_avg_score").orElseThrow().score()).isEqualTo(0.0);
    // "It is sunny." vs "It is snowing heavily.": it, is overlap: P 2/3, R 2/4 -> F 0.5714
    assertThat(bad.metric("response_match_score").orElseThrow().score())
        .isCloseTo(0.5714, org.assertj.core.api.Assertions.within(1e-4));
    assertThat(String.join("\n", bad.failures()))
        .contains("trajectory (EXACT)")
        .contains("expected: [get_weather{\"city\":\"Berlin\"}]")
        .contains("actual:   [get_weather{\"city\":\"Paris\"}]")
        .contains("expected: \"It is snowing heavily.\"")
        .contains("last_city: expected \"Berlin\", actual \"Paris\"");
    assertThat(result.passed()).isFalse();

    JsonNode json = new ObjectMapper().readTree(result.toJson());
    assertThat(json.get("eval_set_id").asText()).isEqualTo("weather");
    assertThat(json.get("eval_case_results")).hasSize(4); // 2 cases x 2 runs, as ADK writes
    JsonNode first = json.get("eval_case_results").get(0);
    assertThat(first.get("final_eval_status").asInt()).isEqualTo(1);
    assertThat(first.at("/overall_eval_metric_results/0/metric_name").asText())
        .isEqualTo("tool_trajectory_avg_score");
    assertThat(
            first
                .at(
                    "/eval_metric_result_per_invocation/1/actual_invocation/final_response/parts/0/text")
                .asText())
        .isEqualTo("It is rainy.");
    assertThat(json.get("eval_case_results").get(2).get("final_eval_status").asInt()).isEqualTo(2);
    assertThat(result.table()).contains("paris_then_london").contains("1 of 2 cases passed");
  }

  @Test
  void exactStateCheck_reportsUnexpectedKeys_andTempKeysAreNeverSeen() throws Exception {
    EvalSet set = EvalSet.parse(SET);
    EvalCase c =
        set.cases()
            .get(0)
            .withStateChecks(
                List.of(
                    StateExpectation.exact(0, Map.of("last_city", "Paris"))
                        .withStateDeltas(List.of(Map.of("last_city", "Paris")))));
    EvalCaseResult r = runner(sessions()).build().run(set, c);
    assertThat(r.status()).isEqualTo(EvalStatus.FAILED);
    assertThat(String.join("\n", r.failures()))
        .contains("user:lookups: not expected (EXACT USER), actual 1")
        .contains("stateDelta per event: expected [{\"last_city\":\"Paris\"}]")
        .doesNotContain("temp:");
  }

  @Test
  void recordedRun_replaysWithNoModelAndNoTool(@TempDir Path dir) throws Exception {
    EvalSet set = EvalSet.parse(SET);
    Path recording = dir.resolve("run.json");
    EvalSetResult recorded = runner(sessions()).recordTo(recording).build().run(set);

    ScriptedLlm noModel = ScriptedLlm.builder().build(); // fails any call
    int toolCallsBefore = TOOL_CALLS.get();
    EvalSetResult replayed =
        EvalRunner.builder()
            .app("weather", agent(noModel))
            .sessionService(sessions())
            .replayFrom(recording)
            .build()
            .run(set);
    assertThat(noModel.callCount()).isZero();
    assertThat(TOOL_CALLS.get()).isEqualTo(toolCallsBefore);
    assertThat(replayed.cases())
        .extracting(EvalCaseResult::status)
        .containsExactly(EvalStatus.PASSED, EvalStatus.FAILED)
        .containsExactlyElementsOf(recorded.cases().stream().map(EvalCaseResult::status).toList());
    assertThat(replayed.cases().get(1).failures()).isEqualTo(recorded.cases().get(1).failures());
  }

  /** Unused helper kept for readability of expected calls. */
  static FunctionCall call(String name, Map<String, Object> args) {
    return FunctionCall.builder().name(name).args(args).build();
  }
}
