package dev.adk4j.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.testing.ScriptedLlm;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * The eval runner on the in-memory session service, and the features that do not depend on the
 * session store (JUnit integration, errored cases, judged metrics).
 */
class InMemoryEvalRunnerTest extends EvalRunnerContract {
  @Override
  BaseSessionService sessions() {
    return new InMemorySessionService();
  }

  @Test
  void junitIntegration_oneTestPerCase_namedByCaseId_failingWithADiff() throws Throwable {
    List<DynamicTest> tests =
        EvalTests.of(runner(sessions()).build(), EvalSet.parse(SET)).collect(Collectors.toList());
    assertThat(tests)
        .extracting(DynamicTest::getDisplayName)
        .containsExactly("paris_then_london", "wrong_expectation");
    tests.get(0).getExecutable().execute();
    assertThatThrownBy(() -> tests.get(1).getExecutable().execute())
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining("Eval case wrong_expectation FAILED")
        .hasMessageContaining("tool_trajectory_avg_score: 0.0000 < threshold 1.0")
        .hasMessageContaining("actual:   [get_weather{\"city\":\"Paris\"}]");
  }

  @Test
  void unknownApp_andFailingAgent_makeTheCaseErrored() throws Exception {
    EvalSet set =
        EvalSet.parse(
            SET.replace(
                "\"app_name\": \"weather\", \"user_id\": \"u2\"",
                "\"app_name\": \"nope\", \"user_id\": \"u2\""));
    EvalSetResult r = runner(sessions()).build().run(set);
    assertThat(r.cases().get(1).status()).isEqualTo(EvalStatus.ERRORED);
    assertThat(r.cases().get(1).error()).contains("names app nope, which is not registered");

    ScriptedLlm failing =
        ScriptedLlm.builder().thenError(new IllegalStateException("boom")).build();
    EvalCaseResult f =
        EvalRunner.builder()
            .app("weather", agent(failing))
            .sessionService(sessions())
            .build()
            .run(set, set.cases().get(0));
    assertThat(f.status()).isEqualTo(EvalStatus.ERRORED);
    assertThat(f.error()).contains("run 1 of case paris_then_london failed").contains("boom");
  }

  @Test
  void judgedMetrics_scoreThroughAnyModel_andMalformedAnswersAreErrored() throws Exception {
    EvalSet set = EvalSet.parse(SET);
    EvalCase c =
        set.cases()
            .get(0)
            .withRubrics(
                List.of(new Rubric("city", "Names the weather"), new Rubric("short", "Is short")));
    EvalConfig config =
        EvalConfig.of(
            List.of(
                EvalConfig.Criterion.threshold("final_response_match_v2", 0.5),
                EvalConfig.Criterion.threshold("rubric_based_final_response_quality_v1", 0.7)));
    ScriptedLlm judge =
        ScriptedLlm.answering(
            req -> {
              String q = ScriptedLlm.userText(req);
              if (q.contains("Rubrics:")) {
                return ScriptedLlm.textResponse(
                    "```json\n{\"rubrics\": [{\"rubric_id\": \"city\", \"verdict\": \"yes\"},"
                        + " {\"rubric_id\": \"short\", \"verdict\": \"no\"}]}\n```");
              }
              return ScriptedLlm.textResponse(
                  "{\"reasoning\": \"same\", \"is_the_agent_response_valid\": \"valid\"}");
            });
    EvalCaseResult r = runner(sessions()).config(config).judge(judge).build().run(set, c);
    assertThat(r.metric("final_response_match_v2").orElseThrow().score()).isEqualTo(1.0);
    MetricResult rubric = r.metric("rubric_based_final_response_quality_v1").orElseThrow();
    assertThat(rubric.score()).isEqualTo(0.5);
    assertThat(rubric.status()).isEqualTo(EvalStatus.FAILED);

    ScriptedLlm malformed =
        ScriptedLlm.answering(req -> ScriptedLlm.textResponse("Looks valid to me!"));
    EvalCaseResult m = runner(sessions()).config(config).judge(malformed).build().run(set, c);
    assertThat(m.status()).isEqualTo(EvalStatus.ERRORED);
    assertThat(m.metric("final_response_match_v2").orElseThrow().status())
        .isEqualTo(EvalStatus.ERRORED);
    assertThat(m.error()).contains("judge answer is not JSON");

    EvalCaseResult none = runner(sessions()).config(config).build().run(set, c);
    assertThat(none.status()).isEqualTo(EvalStatus.ERRORED);
    assertThat(none.error()).contains("no judge model is configured");
  }
}
