package dev.adk4j.server;

import static dev.adk4j.server.ServerClient.json;
import static dev.adk4j.server.ServerClient.runBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The evaluation endpoints through HTTP, as the dev UI's eval tab and ADK's clients call them: eval
 * sets created, a session added as a case, the case read, edited and run, results listed and read,
 * all kept in the session database (a second server on the same database finds them). Subclasses
 * say which database: {@link SqliteEvalEndpointsTest}, {@link PostgresEvalEndpointsTest}.
 */
abstract class EvalEndpointsTest {
  @TempDir static Path dir;

  static AdkServer server;
  static ServerClient client;
  static String jdbcUrl;

  static final String APP = "/apps/app";

  /** The tool of the scripted agent. */
  public static Map<String, Object> lookup(@Schema(name = "q") String q) {
    return Map.of("found", q);
  }

  static LlmAgent agent() {
    return LlmAgent.builder()
        .name("root")
        .description("answers")
        .instruction("Answer.")
        .model(
            ScriptedLlm.answering(
                req ->
                    ScriptedLlm.functionResponses(req).isEmpty()
                            && ScriptedLlm.userText(req).startsWith("look")
                        ? ScriptedLlm.functionCallResponse("lookup", Map.of("q", "x"))
                        : ScriptedLlm.textResponse("The answer is x.")))
        .tools(FunctionTool.create(EvalEndpointsTest.class, "lookup"))
        .build();
  }

  /** Starts the server on {@code url}: the eval store is the session database's. */
  static void start(String url) {
    jdbcUrl = url;
    server = AdkServer.builder().app("app", agent()).store(url).port(0).start();
    client = new ServerClient(server);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static String conversation() {
    HttpResponse<String> created = client.post(APP + "/users/u/sessions", null);
    String id = json(created).get("id").asText();
    for (String text : List.of("look up x", "thanks")) {
      HttpResponse<String> r = client.post("/run", runBody("app", "u", id, text, false));
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }
    return id;
  }

  private static void assertDetail(HttpResponse<String> r, int status, String words) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(json(r).get("detail").isTextual()).as(r.body()).isTrue();
    assertThat(json(r).get("detail").asText()).contains(words);
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static final String METRICS =
      "\"evalMetrics\":[{\"metricName\":\"tool_trajectory_avg_score\",\"threshold\":1.0},"
          + "{\"metricName\":\"response_match_score\",\"threshold\":0.7}]";

  @Test
  void evalTab_createAddRunAndReadResults_keptInTheDatabase() {
    // the tab's first calls: no sets, no results, the metrics a run can use
    assertThat(json(client.get(APP + "/eval_sets"))).isEmpty();
    assertThat(json(client.get(APP + "/eval-sets")).get("evalSetIds")).isEmpty();
    JsonNode info = json(client.get(APP + "/metrics-info")).get("metricsInfo");
    assertThat(info.findValuesAsText("metricName"))
        .containsExactly("tool_trajectory_avg_score", "response_match_score");
    assertThat(info.get(0).at("/metricValueInfo/interval/maxValue").asDouble()).isEqualTo(1.0);

    // create (the UI's current form), then the older form; ADK's refusals
    HttpResponse<String> created =
        client.post(
            APP + "/eval-sets",
            "{\"eval_set\":{\"eval_set_id\":\"set_1\",\"model_execution_mode\":\"live\","
                + "\"eval_cases\":[]}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    assertThat(json(created).get("evalSetId").asText()).isEqualTo("set_1");
    assertThat(json(created).get("evalCases")).isEmpty();
    assertDetail(
        client.post(APP + "/eval-sets", "{\"eval_set\":{\"eval_set_id\":\"set_1\"}}"),
        400,
        "already exists");
    assertDetail(client.post(APP + "/eval_sets/bad-id", null), 400, "Invalid eval set id");
    HttpResponse<String> legacy = client.post(APP + "/eval_sets/set_2", null);
    assertThat(legacy.statusCode()).isEqualTo(200);
    assertThat(legacy.body()).isEqualTo("null");
    assertThat(texts(json(client.get(APP + "/eval_sets")))).containsExactly("set_1", "set_2");

    // the current session becomes a case (the UI's "Add current session")
    String session = conversation();
    String add = "{\"evalId\":\"case_1\",\"sessionId\":\"" + session + "\",\"userId\":\"u\"}";
    HttpResponse<String> added = client.post(APP + "/eval_sets/set_1/add_session", add);
    assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
    assertThat(added.body()).isEqualTo("null");
    assertDetail(client.post(APP + "/eval_sets/set_1/add_session", add), 400, "already exists");
    assertDetail(
        client.post(
            APP + "/eval-sets/set_1/add-session",
            "{\"evalId\":\"case_2\",\"sessionId\":\"nope\",\"userId\":\"u\"}"),
        404,
        "session 'nope' not found");
    assertThat(client.post(APP + "/eval_sets/set_1/add_session", "{\"evalId\":\"c\"}").statusCode())
        .isEqualTo(422);
    assertThat(texts(json(client.get(APP + "/eval_sets/set_1/evals")))).containsExactly("case_1");
    assertDetail(client.get(APP + "/eval_sets/nope/evals"), 400, "not found");

    // the case as ADK's API writes it: camelCase, the tool call with its args as they are
    JsonNode c = json(client.get(APP + "/eval_sets/set_1/evals/case_1"));
    assertThat(c.get("evalId").asText()).isEqualTo("case_1");
    assertThat(c.get("conversation")).hasSize(2);
    JsonNode first = c.get("conversation").get(0);
    assertThat(first.at("/userContent/parts/0/text").asText()).isEqualTo("look up x");
    assertThat(first.at("/intermediateData/toolUses/0/name").asText()).isEqualTo("lookup");
    assertThat(first.at("/intermediateData/toolUses/0/args/q").asText()).isEqualTo("x");
    assertThat(first.at("/finalResponse/parts/0/text").asText()).isEqualTo("The answer is x.");
    assertThat(c.at("/sessionInput/appName").asText()).isEqualTo("app");
    assertThat(c.at("/sessionInput/userId").asText()).isEqualTo("u");
    assertThat(json(client.get(APP + "/eval-sets/set_1/eval-cases/case_1"))).isEqualTo(c);
    assertDetail(client.get(APP + "/eval_sets/set_1/evals/nope"), 404, "not found");

    // run it (the UI's "Run Evaluation"): both metrics pass
    HttpResponse<String> ran =
        client.post(
            APP + "/eval_sets/set_1/run_eval", "{\"evalIds\":[\"case_1\"]," + METRICS + "}");
    assertThat(ran.statusCode()).as(ran.body()).isEqualTo(200);
    JsonNode result = json(ran).get(0);
    assertThat(json(ran)).hasSize(1);
    assertThat(result.get("evalId").asText()).isEqualTo("case_1");
    assertThat(result.get("evalSetId").asText()).isEqualTo("set_1");
    assertThat(result.get("evalSetFile").asText()).isEqualTo("set_1");
    assertThat(result.get("finalEvalStatus").asInt()).as(ran.body()).isEqualTo(1);
    assertThat(result.get("overallEvalMetricResults").findValuesAsText("metricName"))
        .containsExactly("tool_trajectory_avg_score", "response_match_score");
    JsonNode trajectory = result.get("overallEvalMetricResults").get(0);
    assertThat(trajectory.get("metricName").asText()).isEqualTo("tool_trajectory_avg_score");
    assertThat(trajectory.get("score").asDouble()).isEqualTo(1.0);
    assertThat(trajectory.get("evalStatus").asInt()).isEqualTo(1);
    JsonNode perInvocation = result.get("evalMetricResultPerInvocation");
    assertThat(perInvocation).hasSize(2);
    assertThat(
            perInvocation.get(0).at("/actualInvocation/intermediateData/toolUses/0/name").asText())
        .isEqualTo("lookup");
    assertThat(
            perInvocation
                .get(0)
                .at("/expectedInvocation/intermediateData/toolUses/0/name")
                .asText())
        .isEqualTo("lookup");
    assertThat(perInvocation.get(1).at("/evalMetricResults/0/evalStatus").asInt()).isEqualTo(1);

    // the run's session: readable, under ADK's prefix, not in the user's session list
    String evalSession = result.get("sessionId").asText();
    assertThat(evalSession).startsWith("___eval___session___");
    assertThat(result.get("userId").asText()).isEqualTo("u");
    assertThat(client.get(APP + "/users/u/sessions/" + evalSession).statusCode()).isEqualTo(200);
    assertThat(json(client.get(APP + "/users/u/sessions")).findValuesAsText("id"))
        .contains(session)
        .doesNotContain(evalSession);

    // results: listed in both forms, read back as ADK's EvalSetResult
    List<String> resultIds = texts(json(client.get(APP + "/eval_results")));
    assertThat(resultIds).hasSize(1);
    assertThat(resultIds.get(0)).startsWith("app_set_1_");
    assertThat(texts(json(client.get(APP + "/eval-results")).get("evalResultIds")))
        .isEqualTo(resultIds);
    JsonNode stored = json(client.get(APP + "/eval_results/" + resultIds.get(0)));
    assertThat(stored.get("evalSetResultId").asText()).isEqualTo(resultIds.get(0));
    assertThat(stored.get("evalSetId").asText()).isEqualTo("set_1");
    assertThat(stored.get("creationTimestamp").asDouble()).isGreaterThan(1e9);
    assertThat(stored.at("/evalCaseResults/0/evalId").asText()).isEqualTo("case_1");
    assertThat(stored.at("/evalCaseResults/0/finalEvalStatus").asInt()).isEqualTo(1);
    assertThat(stored.at("/evalCaseResults/0/sessionId").asText()).isEqualTo(evalSession);
    assertThat(
            stored
                .at("/evalCaseResults/0/evalMetricResultPerInvocation/0/expectedInvocation")
                .isObject())
        .isTrue();
    assertDetail(client.get(APP + "/eval_results/nope"), 404, "not found");

    // edit the expected answer (the UI's "Edit" then "Save"): the run now fails on the response
    JsonNode edited = c.deepCopy();
    ((ObjectNode) edited.at("/conversation/1/finalResponse/parts/0"))
        .put("text", "Completely different words here.");
    HttpResponse<String> put =
        client.call("PUT", APP + "/eval_sets/set_1/evals/case_1", edited.toString());
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    assertDetail(
        client.call(
            "PUT",
            APP + "/eval_sets/set_1/evals/case_1",
            ((ObjectNode) edited.deepCopy()).put("evalId", "other").toString()),
        400,
        "should match");
    HttpResponse<String> rerun = client.post(APP + "/eval-sets/set_1/run", "{" + METRICS + "}");
    assertThat(rerun.statusCode()).as(rerun.body()).isEqualTo(200);
    JsonNode failed = json(rerun).get("runEvalResults").get(0);
    assertThat(failed.get("finalEvalStatus").asInt()).isEqualTo(2);
    assertThat(failed.get("overallEvalMetricResults").get(1).get("metricName").asText())
        .isEqualTo("response_match_score");
    assertThat(failed.get("overallEvalMetricResults").get(1).get("evalStatus").asInt())
        .isEqualTo(2);
    assertThat(texts(json(client.get(APP + "/eval_results")))).hasSize(2);

    // bad runs
    assertThat(client.post(APP + "/eval_sets/set_1/run_eval", "{}").statusCode()).isEqualTo(422);
    assertDetail(
        client.post(
            APP + "/eval_sets/set_1/run_eval",
            "{\"evalMetrics\":[{\"metricName\":\"no_such_metric\",\"threshold\":0.5}]}"),
        400,
        "unknown metric no_such_metric");
    assertDetail(
        client.post(
            APP + "/eval_sets/set_1/run_eval",
            "{\"evalMetrics\":[{\"metricName\":\"response_match_score\",\"threshold\":2}]}"),
        400,
        "must lie in [0, 1]");
    assertDetail(
        client.post(APP + "/eval_sets/nope/run_eval", "{" + METRICS + "}"), 400, "not found");
    assertDetail(
        client.post(APP + "/eval_sets/set_1/run_eval", "{\"evalIds\":[\"nope\"]," + METRICS + "}"),
        404,
        "nope");
    assertThat(client.get("/apps/nope/eval_sets").statusCode()).isEqualTo(404);

    // a second server on the same database finds the sets and results
    server.close();
    start(jdbcUrl);
    assertThat(texts(json(client.get(APP + "/eval_sets")))).containsExactly("set_1", "set_2");
    assertThat(
            json(client.get(APP + "/eval_sets/set_1/evals/case_1"))
                .at("/conversation/1/finalResponse/parts/0/text")
                .asText())
        .isEqualTo("Completely different words here.");
    assertThat(texts(json(client.get(APP + "/eval_results")))).hasSize(2);

    // delete a case, then a set (idempotent, as ADK's DELETE answers)
    HttpResponse<String> deleted =
        client.call("DELETE", APP + "/eval_sets/set_1/evals/case_1", null);
    assertThat(deleted.statusCode()).isEqualTo(200);
    assertThat(deleted.body()).isEqualTo("null");
    assertThat(client.get(APP + "/eval_sets/set_1/evals/case_1").statusCode()).isEqualTo(404);
    assertThat(client.call("DELETE", APP + "/eval_sets/set_2", null).statusCode()).isEqualTo(200);
    assertThat(client.call("DELETE", APP + "/eval_sets/set_2", null).statusCode()).isEqualTo(200);
    assertThat(texts(json(client.get(APP + "/eval_sets")))).containsExactly("set_1");
  }
}
