package dev.adk4j.examples;

import dev.adk4j.eval.EvalRunner;
import dev.adk4j.eval.EvalSet;
import dev.adk4j.eval.EvalSetResult;
import dev.adk4j.sessions.BaseSessionService;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Evaluates the tool-state example's agent with an eval set in ADK's format ({@code
 * evals/tool_state.evalset.json}): tool trajectory, response match (ROUGE-1) and adk4j's state
 * checks, twice, each run in a session of its own on the examples' store; prints the results table.
 */
public final class EvalExample {
  private EvalExample() {}

  /** Runs the eval set and returns its results. */
  public static EvalSetResult run(BaseSessionService sessions, Transcript t) {
    EvalSet set = EvalSet.parse(resource("evals/tool_state.evalset.json"));
    t.step("Evaluate the tool-state agent: " + set.cases().size() + " case, 2 runs");
    EvalSetResult result =
        EvalRunner.builder()
            .app("tool_app", ToolStateExample.agent().build())
            .sessionService(sessions)
            .runs(2)
            .build()
            .run(set);
    t.out().print(result.table());
    result.cases().forEach(c -> c.failures().forEach(f -> t.say(c.evalId() + ": " + f)));
    return result;
  }

  private static String resource(String name) {
    try (InputStream in =
        Objects.requireNonNull(
            EvalExample.class.getClassLoader().getResourceAsStream(name), name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
