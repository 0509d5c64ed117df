package com.example.app;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Flowable;
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

  /** A model that calls the tool, then reports its result with the instruction it was given. */
  static final class ScriptedModel extends BaseLlm {
    ScriptedModel() {
      super("scripted");
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
      return Flowable.fromCallable(
          () -> {
            Content last = request.contents().get(request.contents().size() - 1);
            Part part = last.parts().orElse(List.of()).get(0);
            if (part.functionResponse().isPresent()) {
              Object visits =
                  part.functionResponse().get().response().orElse(Map.of()).get("visits");
              String text = request.systemInstruction().orElse("") + " Visit " + visits + ".";
              return reply(Part.fromText(text));
            }
            return reply(
                Part.builder()
                    .functionCall(FunctionCall.builder().name("count_visit").args(Map.of()).build())
                    .build());
          });
    }

    private static LlmResponse reply(Part part) {
      return LlmResponse.builder()
          .content(Content.builder().role("model").parts(List.of(part)).build())
          .build();
    }
  }

  public static void main(String[] args) {
    String url = "jdbc:sqlite:" + args[0];
    LlmAgent agent =
        LlmAgent.builder()
            .name("greeter")
            .model(new ScriptedModel())
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
