package dev.adk4j.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eval sets, test configs and results in ADK's format. The files are built here from ADK for
 * Python's published schema (eval_set.py, eval_case.py, eval_config.py: field names, nesting,
 * snake_case as ADK writes it, camelCase as its aliases accept).
 */
class EvalSetFormatTest {
  private static final ObjectMapper M = new ObjectMapper();

  /** An eval set as ADK for Python's LocalEvalSetsManager writes it (model_dump_json). */
  static final String ADK_WRITTEN =
      """
      {
        "eval_set_id": "weather_set",
        "name": "weather_set",
        "description": null,
        "eval_cases": [
          {
            "eval_id": "paris",
            "conversation": [
              {
                "invocation_id": "e-1",
                "user_content": {"parts": [{"text": "Weather in Paris?"}], "role": "user"},
                "final_response": {"parts": [{"text": "It is sunny in Paris."}], "role": "model"},
                "intermediate_data": {
                  "tool_uses": [{"id": null, "args": {"city": "Paris", "unit_name": "C"}, "name": "get_weather"}],
                  "tool_responses": [],
                  "intermediate_responses": []
                },
                "creation_timestamp": 1750000000.5,
                "rubrics": null,
                "app_details": null
              }
            ],
            "conversation_scenario": null,
            "session_input": {"app_name": "weather", "user_id": "u1", "state": {"user:unit": "C"}},
            "creation_timestamp": 1750000000.0,
            "rubrics": [{"rubric_id": "r1", "rubric_content": {"text_property": "Names the city"}, "description": null, "type": null}],
            "final_session_state": {}
          }
        ],
        "creation_timestamp": 1750000000.0
      }
      """;

  @Test
  void adkWrittenFile_loads_andIsWrittenBackUnchanged() throws Exception {
    EvalSet set = EvalSet.parse(ADK_WRITTEN);
    assertThat(set.evalSetId()).isEqualTo("weather_set");
    EvalCase c = set.cases().get(0);
    assertThat(c.evalId()).isEqualTo("paris");
    assertThat(c.sessionInput())
        .contains(new SessionInput("weather", "u1", Map.of("user:unit", "C")));
    assertThat(c.rubrics()).containsExactly(new Rubric("r1", "Names the city"));
    Invocation inv = c.conversation().get(0);
    assertThat(inv.userText()).isEqualTo("Weather in Paris?");
    assertThat(inv.finalResponseText()).isEqualTo("It is sunny in Paris.");
    assertThat(inv.toolUses()).hasSize(1);
    // data keys inside args keep their spelling (unit_name is not turned into unitName)
    assertThat(inv.toolUses().get(0).args().orElseThrow())
        .containsEntry("city", "Paris")
        .containsEntry("unit_name", "C");
    // every field, known or not, null or not, comes back as it was
    assertThat(M.readTree(set.toJson())).isEqualTo(M.readTree(ADK_WRITTEN));
    assertThat(EvalSet.parse(set.toJson())).isEqualTo(set);
  }

  @Test
  void camelCaseAliases_loadAsAdkAcceptsThem() {
    String camel =
        """
        {"evalSetId": "s", "evalCases": [{"evalId": "c", "conversation": [
          {"userContent": {"parts": [{"text": "hi"}], "role": "user"},
           "finalResponse": {"parts": [{"text": "hello"}]},
           "intermediateData": {"toolUses": [{"name": "t", "args": {"aB": 1}}]}}],
          "sessionInput": {"appName": "a", "userId": "u", "state": {}}}]}
        """;
    EvalSet set = EvalSet.parse(camel);
    Invocation inv = set.cases().get(0).conversation().get(0);
    assertThat(inv.toolUses().get(0).args().orElseThrow()).containsEntry("aB", 1);
    assertThat(set.cases().get(0).sessionInput().orElseThrow().appName()).isEqualTo("a");
  }

  @Test
  void builtHere_isWrittenInAdksSnakeCaseForm() throws Exception {
    EvalSet set =
        EvalSet.of(
            "s1",
            List.of(
                EvalCase.of(
                    "c1",
                    List.of(
                        Invocation.of(
                            "Weather in Paris?",
                            "Sunny.",
                            List.of(
                                com.google.genai.types.FunctionCall.builder()
                                    .name("get_weather")
                                    .args(Map.of("city", "Paris"))
                                    .build()))),
                    new SessionInput("weather", "u1", Map.of()))));
    JsonNode n = M.readTree(set.toJson());
    JsonNode inv = n.at("/eval_cases/0/conversation/0");
    assertThat(n.has("eval_set_id")).isTrue();
    assertThat(inv.at("/user_content/parts/0/text").asText()).isEqualTo("Weather in Paris?");
    assertThat(inv.at("/final_response/role").asText()).isEqualTo("model");
    assertThat(inv.at("/intermediate_data/tool_uses/0/name").asText()).isEqualTo("get_weather");
    assertThat(inv.at("/intermediate_data/tool_uses/0/args/city").asText()).isEqualTo("Paris");
    assertThat(n.at("/eval_cases/0/session_input/app_name").asText()).isEqualTo("weather");
    assertThat(EvalSet.parse(set.toJson())).isEqualTo(set);
  }

  @Test
  void olderTestJson_loads_asOneCaseNamedAfterTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("dice.test.json");
    Files.writeString(
        file,
        """
        [{"query": "Roll a 16 sided die", "expected_tool_use": [
            {"tool_name": "roll_die", "tool_input": {"sides": 16}}],
          "reference": "I rolled a 13."},
         {"query": "Thanks", "expected_tool_use": [], "reference": "You are welcome."}]
        """);
    EvalSet set = EvalSet.read(file);
    assertThat(set.evalSetId()).isEqualTo("dice");
    EvalCase c = set.cases().get(0);
    assertThat(c.conversation()).hasSize(2);
    assertThat(c.conversation().get(0).toolUses().get(0).args().orElseThrow())
        .containsEntry("sides", 16);
    assertThat(c.conversation().get(1).finalResponseText()).isEqualTo("You are welcome.");
  }

  @Test
  void olderEvalSetList_roundTripsThroughToLegacyJson() throws Exception {
    String legacy =
        """
        [{"name": "roll_twice", "data": [
            {"query": "Roll a 17 sided dice twice", "expected_tool_use": [
               {"tool_name": "roll_die", "tool_input": {"sides": 17}},
               {"tool_name": "roll_die", "tool_input": {"sides": 17}}],
             "expected_intermediate_agent_responses": [],
             "reference": "13 and 4."}],
          "initial_session": {"state": {"k": 1}, "app_name": "hello_world", "user_id": "user"}}]
        """;
    EvalSet set = EvalSet.parse(legacy, "legacy", "old");
    assertThat(set.cases().get(0).evalId()).isEqualTo("roll_twice");
    assertThat(set.cases().get(0).sessionInput().orElseThrow().state()).containsEntry("k", 1);
    assertThat(M.readTree(set.toLegacyJson())).isEqualTo(M.readTree(legacy));
  }

  @Test
  void invalidFiles_failNamingTheJsonPath() {
    assertThatThrownBy(() -> EvalSet.parse("{\"eval_cases\": []}"))
        .isInstanceOf(EvalFormatException.class)
        .hasMessageContaining("$.eval_set_id")
        .hasMessageContaining("required");
    assertThatThrownBy(
            () ->
                EvalSet.parse(
                    "{\"eval_set_id\": \"s\", \"eval_cases\": [{\"eval_id\": \"c\","
                        + " \"conversation\": [{\"final_response\": {\"parts\": []}}]}]}"))
        .isInstanceOf(EvalFormatException.class)
        .hasMessageContaining("$.eval_cases[0].conversation[0].user_content")
        .extracting(e -> ((EvalFormatException) e).path())
        .isEqualTo("$.eval_cases[0].conversation[0].user_content");
    assertThatThrownBy(
            () ->
                EvalSet.parse(
                    "{\"eval_set_id\": \"s\", \"eval_cases\": [{\"eval_id\": \"c\", \"conversation\": [{"
                        + "\"user_content\": {\"parts\": [{\"text\": \"x\"}]},"
                        + " \"intermediate_data\": {\"tool_uses\": [{\"name\": \"t\", \"args\": [1]}]}}]}]}"))
        .hasMessageContaining("$.eval_cases[0].conversation[0].intermediate_data.tool_uses[0].args")
        .hasMessageContaining("expected an object");
    assertThatThrownBy(() -> EvalSet.parse("{\"eval_set_id\": 5, \"eval_cases\": []}"))
        .hasMessageContaining("$.eval_set_id: expected a string");
    assertThatThrownBy(() -> EvalSet.parse("{not json"))
        .isInstanceOf(EvalFormatException.class)
        .hasMessageContaining("not JSON");
    assertThatThrownBy(
            () ->
                EvalSet.parse(
                    "{\"eval_set_id\": \"s\", \"eval_cases\": [{\"eval_id\": \"c\", \"conversation\": [{"
                        + "\"user_content\": {\"parts\": [{\"text\": \"x\"}]}}],"
                        + " \"adk4j_state_checks\": [{\"invocation_index\": 0, \"state\": {\"temp:x\": 1}}]}]}"))
        .hasMessageContaining("$.eval_cases[0].adk4j_state_checks[0].state.temp:x")
        .hasMessageContaining("never stored");
  }

  @Test
  void testConfig_readsThresholdsAndCriteria_andRefusesThresholdsOutsideZeroToOne() {
    EvalConfig config =
        EvalConfig.parse(
            """
            {"criteria": {"tool_trajectory_avg_score": {"threshold": 1.0, "match_type": "IN_ORDER"},
                          "response_match_score": 0.8,
                          "final_response_match_v2": {"threshold": 0.5,
                             "judge_model_options": {"judge_model": "x", "num_samples": 3}}}}
            """);
    assertThat(config.criteria().keySet())
        .containsExactly(
            "tool_trajectory_avg_score", "response_match_score", "final_response_match_v2");
    assertThat(config.criteria().get("tool_trajectory_avg_score").matchType())
        .isEqualTo(EvalMetrics.MatchType.IN_ORDER);
    assertThat(config.criteria().get("final_response_match_v2").numSamples()).isEqualTo(3);
    assertThatThrownBy(() -> EvalConfig.parse("{\"criteria\": {\"response_match_score\": 1.5}}"))
        .isInstanceOf(EvalFormatException.class)
        .hasMessageContaining("$.criteria.response_match_score")
        .hasMessageContaining("[0, 1]");
    assertThatThrownBy(
            () ->
                EvalConfig.parse(
                    "{\"criteria\": {\"tool_trajectory_avg_score\": {\"threshold\": -0.1}}}"))
        .hasMessageContaining("$.criteria.tool_trajectory_avg_score.threshold");
    assertThatThrownBy(() -> EvalConfig.parse("{\"criteria\": {\"bleu\": 0.5}}"))
        .hasMessageContaining("unknown metric bleu");
    assertThatThrownBy(() -> EvalConfig.parse("{\"criteria\": {\"token_usage_v1\": 0.5}}"))
        .hasMessageContaining("takes no threshold");
    assertThatThrownBy(() -> EvalConfig.Criterion.threshold("response_match_score", 2))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
