package dev.adk4j.server;

import static dev.adk4j.server.ServerClient.json;
import static dev.adk4j.server.ServerClient.runBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.testing.ScriptedLlm;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The judged metrics through the evaluation endpoints: a server given judge models ({@link
 * AdkServer.Builder#evalJudge(dev.adk4j.models.BaseLlm)}, scripted here) scores {@code
 * final_response_match_v2} and {@code rubric_based_final_response_quality_v1} from the judge's
 * answer, maps ADK's {@code judge_model_options.judge_model} to the judge configured under that
 * name, reports a malformed judge answer as an errored case (never passed), and a server without a
 * judge refuses a run asking for a judged metric, naming it. Sessions, sets and results in SQLite.
 */
class EvalJudgeEndpointsTest {
  @TempDir static Path dir;

  static final String APP = "/apps/app";

  /** What the default judge answers next. */
  static final AtomicReference<String> verdict = new AtomicReference<>("");

  static final ScriptedLlm JUDGE =
      ScriptedLlm.builder()
          .model("default-judge")
          .otherwise(req -> ScriptedLlm.textResponse(verdict.get()))
          .build();
  static final ScriptedLlm RUBRIC_JUDGE =
      ScriptedLlm.builder()
          .model("rubric-judge")
          .otherwise(
              req ->
                  ScriptedLlm.textResponse(
                      "{\"rubrics\":[{\"rubric_id\":\"names_x\",\"verdict\":\"yes\"},"
                          + "{\"rubric_id\":\"is_polite\",\"verdict\":\"no\"}]}"))
          .build();

  static AdkServer server;
  static ServerClient client;

  @BeforeAll
  static void start() {
    LlmAgent agent =
        LlmAgent.builder()
            .name("root")
            .instruction("Answer.")
            .model(ScriptedLlm.answering(req -> ScriptedLlm.textResponse("The answer is x.")))
            .build();
    server =
        AdkServer.builder()
            .app("app", agent)
            .store("jdbc:sqlite:" + dir.resolve("judge.db"))
            .evalJudge(JUDGE)
            .evalJudge("rubric-judge", RUBRIC_JUDGE)
            .port(0)
            .start();
    client = new ServerClient(server);
    String session = json(client.post(APP + "/users/u/sessions", null)).get("id").asText();
    assertThat(client.post("/run", runBody("app", "u", session, "what is it?", false)).statusCode())
        .isEqualTo(200);
    assertThat(client.post(APP + "/eval_sets/judged", null).statusCode()).isEqualTo(200);
    HttpResponse<String> added =
        client.post(
            APP + "/eval_sets/judged/add_session",
            "{\"evalId\":\"c1\",\"sessionId\":\"" + session + "\",\"userId\":\"u\"}");
    assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static JsonNode run(String metrics) {
    HttpResponse<String> r =
        client.post(APP + "/eval-sets/judged/run", "{\"evalMetrics\":[" + metrics + "]}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return json(r).get("runEvalResults").get(0);
  }

  private static final String MATCH =
      "{\"metricName\":\"final_response_match_v2\",\"threshold\":1.0}";

  @Test
  void finalResponseMatch_scoresFromTheJudgesAnswer_andAMalformedAnswerErrors() {
    assertThat(
            json(client.get(APP + "/metrics-info"))
                .get("metricsInfo")
                .findValuesAsText("metricName"))
        .containsExactly(
            "tool_trajectory_avg_score",
            "response_match_score",
            "final_response_match_v2",
            "rubric_based_final_response_quality_v1");
    int before = JUDGE.requests().size();

    verdict.set("{\"reasoning\":\"same fact\",\"is_the_agent_response_valid\":\"valid\"}");
    JsonNode passed = run(MATCH);
    assertThat(passed.get("finalEvalStatus").asInt()).as(passed.toString()).isEqualTo(1);
    assertThat(passed.at("/overallEvalMetricResults/0/metricName").asText())
        .isEqualTo("final_response_match_v2");
    assertThat(passed.at("/overallEvalMetricResults/0/score").asDouble()).isEqualTo(1.0);
    // the judge saw the expected and the actual answer
    assertThat(JUDGE.requests()).hasSize(before + 1);
    assertThat(ScriptedLlm.userText(JUDGE.requests().get(before))).contains("The answer is x.");

    verdict.set("{\"reasoning\":\"other fact\",\"is_the_agent_response_valid\":\"invalid\"}");
    JsonNode failed = run(MATCH);
    assertThat(failed.get("finalEvalStatus").asInt()).as(failed.toString()).isEqualTo(2);
    assertThat(failed.at("/overallEvalMetricResults/0/score").asDouble()).isEqualTo(0.0);

    // a judge answer that is not the JSON asked for: the case errored (ADK's 3), not passed
    verdict.set("Sure! The answer looks valid to me.");
    JsonNode errored = run(MATCH);
    assertThat(errored.get("finalEvalStatus").asInt()).as(errored.toString()).isEqualTo(3);
    assertThat(errored.at("/overallEvalMetricResults/0/evalStatus").asInt()).isEqualTo(3);
    JsonNode ids = json(client.get(APP + "/eval_results"));
    boolean found = false;
    for (JsonNode id : ids) {
      JsonNode stored = json(client.get(APP + "/eval_results/" + id.asText()));
      JsonNode c = stored.at("/evalCaseResults/0");
      if (c.path("adk4j_status").asText().equals("ERRORED")) {
        found = true;
        assertThat(c.path("adk4j_error").asText())
            .contains("final_response_match_v2")
            .contains("not JSON");
      }
    }
    assertThat(found).as("the stored result of the errored run, in %s", ids).isTrue();
  }

  @Test
  void rubricMetric_usesTheJudgeItsOptionsName_withTheCriterionsRubrics() {
    int before = RUBRIC_JUDGE.requests().size();
    int defaultBefore = JUDGE.requests().size();
    JsonNode r =
        run(
            "{\"metricName\":\"rubric_based_final_response_quality_v1\",\"threshold\":0.4,"
                + "\"criterion\":{\"threshold\":0.4,"
                + "\"judgeModelOptions\":{\"judgeModel\":\"rubric-judge\",\"numSamples\":2},"
                + "\"rubrics\":[{\"rubricId\":\"names_x\",\"rubricContent\":"
                + "{\"textProperty\":\"The answer names x.\"}},"
                + "{\"rubricId\":\"is_polite\",\"rubricContent\":"
                + "{\"textProperty\":\"The answer thanks the user.\"}}]}}");
    // one rubric of two met: 0.5, above 0.4
    assertThat(r.get("finalEvalStatus").asInt()).as(r.toString()).isEqualTo(1);
    assertThat(r.at("/overallEvalMetricResults/0/score").asDouble()).isEqualTo(0.5);
    assertThat(RUBRIC_JUDGE.requests()).hasSize(before + 2); // numSamples 2
    assertThat(ScriptedLlm.userText(RUBRIC_JUDGE.requests().get(before)))
        .contains("The answer names x.");
    assertThat(JUDGE.requests()).hasSize(defaultBefore);
  }

  @Test
  void judgedMetrics_refusedNamingTheMetric_whenNoJudgeFits() {
    // two metrics asking for different judges in one run
    HttpResponse<String> mixed =
        client.post(
            APP + "/eval-sets/judged/run",
            "{\"evalMetrics\":["
                + MATCH
                + ",{\"metricName\":\"rubric_based_final_response_quality_v1\",\"threshold\":0.5,"
                + "\"judgeModelOptions\":{\"judgeModel\":\"rubric-judge\"}}]}");
    assertThat(mixed.statusCode()).as(mixed.body()).isEqualTo(400);
    assertThat(json(mixed).get("detail").asText())
        .contains("final_response_match_v2")
        .contains("rubric_based_final_response_quality_v1")
        .contains("different judge models");

    // a server without a judge: the judged metrics are not offered, and a run asking is refused
    try (AdkServer bare =
        AdkServer.builder()
            .app("app", LlmAgent.builder().name("root").model(JUDGE).build())
            .port(0)
            .start()) {
      ServerClient c = new ServerClient(bare);
      assertThat(
              json(c.get(APP + "/metrics-info")).get("metricsInfo").findValuesAsText("metricName"))
          .containsExactly("tool_trajectory_avg_score", "response_match_score");
      assertThat(c.post(APP + "/eval_sets/s", null).statusCode()).isEqualTo(200);
      HttpResponse<String> refused =
          c.post(APP + "/eval_sets/s/run_eval", "{\"evalMetrics\":[" + MATCH + "]}");
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
      assertThat(json(refused).get("detail").asText())
          .contains("final_response_match_v2")
          .contains("no judge model");
    }
  }
}
