package dev.adk4j.eval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.testing.ScriptedLlm;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command: table on standard output, ADK's result JSON in a file, exit status. */
class EvalCliTest {

  /** The agent the command loads by name. */
  public static BaseAgent weatherAgent() {
    return EvalRunnerContract.agent(ScriptedLlm.answering(EvalRunnerContract::weatherModel));
  }

  @Test
  void run_printsTheTable_writesAdksResultJson_andExitsOneWhenACaseFails(@TempDir Path dir)
      throws Exception {
    Path set = dir.resolve("weather.evalset.json");
    Files.writeString(set, EvalRunnerContract.SET);
    Path config = dir.resolve("test_config.json");
    Files.writeString(
        config,
        "{\"criteria\": {\"tool_trajectory_avg_score\": {\"threshold\": 1.0, \"match_type\":"
            + " \"ANY_ORDER\"}, \"response_match_score\": 0.5}}");
    Path results = dir.resolve("results.json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        EvalCli.run(
            new String[] {
              "--agent", EvalCliTest.class.getName() + "#weatherAgent",
              "--set", set.toString(),
              "--config", config.toString(),
              "--runs", "2",
              "--out", results.toString()
            },
            new PrintStream(out, true, StandardCharsets.UTF_8),
            System.err);
    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(code).isEqualTo(1);
    assertThat(printed)
        .contains("paris_then_london  tool_trajectory_avg_score")
        .contains("(case, 2 runs)")
        .contains("1 of 2 cases passed")
        .contains("wrong_expectation: run 1: invocation 1 trajectory (ANY_ORDER)");
    JsonNode json = new ObjectMapper().readTree(results.toFile());
    assertThat(json.get("eval_set_id").asText()).isEqualTo("weather");
    assertThat(json.get("eval_case_results")).hasSize(4);
    assertThat(json.at("/eval_case_results/0/overall_eval_metric_results/1/metric_name").asText())
        .isEqualTo("response_match_score");
  }

  @Test
  void badArguments_exitTwo_withUsage() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        EvalCli.run(
            new String[] {"--set"}, System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("missing value after --set")
        .contains("usage: EvalCli");
  }
}
