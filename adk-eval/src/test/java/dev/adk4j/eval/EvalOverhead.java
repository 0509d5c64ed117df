package dev.adk4j.eval;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import java.util.HashMap;

/**
 * A simple measurement (not JMH) of what evaluation adds per case: the weather case of {@link
 * EvalRunnerContract} (2 invocations, 2 tool calls, 4 model calls, 2 state checks) run by {@link
 * EvalRunner} with ADK's default metrics, against the same turns run directly on a {@link Runner}.
 * In-memory sessions, scripted model, after a warm-up. Not a test; run with
 *
 * <pre>
 * ./mvnw -q -B -pl adk-eval exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.adk4j.eval.EvalOverhead
 * </pre>
 */
final class EvalOverhead {
  private EvalOverhead() {}

  public static void main(String[] args) {
    int warmup = 300;
    int n = 2000;
    EvalSet set = EvalSet.parse(EvalRunnerContract.SET);
    EvalCase c = set.cases().get(0);
    LlmAgent agent =
        EvalRunnerContract.agent(ScriptedLlm.answering(EvalRunnerContract::weatherModel));
    for (int round = 0; round < 3; round++) {
      long direct = 0;
      long evaluated = 0;
      for (int i = 0; i < warmup + n; i++) {
        // fresh stores: the case's user: state must start empty each time
        InMemorySessionService sessions = new InMemorySessionService();
        EvalRunner eval =
            EvalRunner.builder().app("weather", agent).sessionService(sessions).build();
        InMemorySessionService directSessions = new InMemorySessionService();
        long t0 = System.nanoTime();
        Runner runner =
            Runner.builder().agent(agent).appName("weather").sessionService(directSessions).build();
        Session s =
            directSessions
                .createSession(
                    "weather", "u" + i, new HashMap<>(c.sessionInput().orElseThrow().state()), null)
                .blockingGet();
        for (Invocation inv : c.conversation()) {
          runner
              .runAsync("u" + i, s.id(), inv.userContent(), RunConfig.builder().build())
              .toList()
              .blockingGet();
        }
        long t1 = System.nanoTime();
        EvalCaseResult r = eval.run(set, c);
        long t2 = System.nanoTime();
        if (r.status() != EvalStatus.PASSED) {
          throw new IllegalStateException(r.failures().toString());
        }
        if (i >= warmup) {
          direct += t1 - t0;
          evaluated += t2 - t1;
        }
      }
      System.out.printf(
          "round %d: direct %.1f us/case, evaluated %.1f us/case, overhead %.1f us/case (%.0f%%)%n",
          round + 1,
          direct / 1e3 / n,
          evaluated / 1e3 / n,
          (evaluated - direct) / 1e3 / n,
          100.0 * (evaluated - direct) / direct);
    }
  }
}
