package com.example.app;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.util.List;
import java.util.Map;

/**
 * A small application on adk4j, offline: an agent whose tool counts the user's visits in {@code
 * user:} state, on a scripted model, run on a SQLite file (and read back after a restart) and in
 * memory. Exits with status 1 and a message if anything differs from what adk4j promises.
 */
public final class App {
  private App() {}

  /** The tool: counts a visit in user state; the ToolContext is injected. */
  @Schema(name = "count_visit", description = "Counts the user's visit.")
  public static Map<String, Object> countVisit(ToolContext context) {
    return Map.of("visits", context.state().increment("user:visits", 1));
  }

  /**
   * The scripted model of {@code turns} turns: each calls the tool, then reports its result with
   * the instruction it was given (so the reply shows that {@code {user:name}} was filled from
   * state).
   */
  static ScriptedLlm scriptedModel(int turns) {
    ScriptedLlm.Builder script = ScriptedLlm.builder();
    for (int i = 0; i < turns; i++) {
      script
          .thenFunctionCall("count_visit", Map.of())
          .thenAnswer(
              request -> {
                // The request carries the whole history: this turn's answer is the last one.
                List<FunctionResponse> answers = ScriptedLlm.functionResponses(request);
                Object visits =
                    answers.get(answers.size() - 1).response().orElse(Map.of()).get("visits");
                return ScriptedLlm.textResponse(
                    ScriptedLlm.instruction(request) + " Visit " + visits + ".");
              });
    }
    return script.build();
  }

  public static void main(String[] args) {
    String url = "jdbc:sqlite:" + args[0];
    ScriptedLlm model = scriptedModel(3);
    LlmAgent agent =
        LlmAgent.builder()
            .name("greeter")
            .model(model)
            .instruction("Greet {user:name}.")
            .tools(FunctionTool.create(App.class, "countVisit"))
            .build();

    try (DatabaseSessionService sessions = new DatabaseSessionService(url)) {
      Runner runner = new Runner(agent, "consumer_app", null, sessions);
      sessions
          .createSession("consumer_app", "alice", Map.of("user:name", "Alice"), "s1")
          .blockingGet();
      expect("first turn", turn(runner, "alice", "Hello"), "Greet Alice. Visit 1.");
      expect("second turn", turn(runner, "alice", "Hello again"), "Greet Alice. Visit 2.");
    }
    try (DatabaseSessionService reopened = new DatabaseSessionService(url)) {
      Session session = reopened.getSession("consumer_app", "alice", "s1").blockingGet();
      expect(
          "user:visits after a restart", String.valueOf(session.state().get("user:visits")), "2");
      System.out.println("consumer app: SQLite ok, " + session.events().size() + " events stored");
    }

    InMemoryRunner memory = new InMemoryRunner(agent, "consumer_app");
    memory
        .sessionService()
        .createSession("consumer_app", "bob", Map.of("user:name", "Bob"), "s1")
        .blockingGet();
    expect("in-memory turn", turn(memory, "bob", "Hi"), "Greet Bob. Visit 1.");
    model.assertScriptConsumed();
    System.out.println("consumer app: in-memory ok");
  }

  /** Runs one turn of the user's session s1; returns the text of its last event. */
  private static String turn(Runner runner, String userId, String text) {
    Content message = Content.builder().role("user").parts(List.of(Part.fromText(text))).build();
    List<Event> events =
        runner.runAsync(userId, "s1", message, RunConfig.builder().build()).toList().blockingGet();
    return events.get(events.size() - 1).stringifyContent();
  }

  private static void expect(String what, String actual, String expected) {
    if (!actual.equals(expected)) {
      System.err.println(
          "consumer app: " + what + ": expected '" + expected + "' but got '" + actual + "'");
      System.exit(1);
    }
  }
}
