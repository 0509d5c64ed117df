package dev.adk4j.examples;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A tool that updates state through its {@link ToolContext}: {@code user_action_count} is
 * incremented and stored with the tool's response event; {@code temp:last_operation_status} is seen
 * by the rest of the invocation and then gone.
 */
public final class ToolStateExample {
  private ToolStateExample() {}

  // tag::tool[]
  /** Counts the user's actions; the ToolContext parameter is injected, not asked of the model. */
  @Schema(name = "update_action_count", description = "Updates the user action count in the state.")
  public static Map<String, Object> updateActionCount(ToolContext context) {
    int count = context.state().get("user_action_count") instanceof Number n ? n.intValue() : 0;
    context.state().put("user_action_count", count + 1); // stored with the response event
    context.state().put("temp:last_operation_status", "success"); // this invocation only
    return Map.of("user_action_count", count + 1);
  }

  // end::tool[]

  /** What the example observed. */
  public record Outcome(Session session, List<Object> tempDuringRun) {}

  /** The example's agent, as the run and the example server ({@link ExampleServer}) use it. */
  static LlmAgent.Builder agent() {
    return LlmAgent.builder()
        .name("ToolAgent")
        .model(ExampleModels.model(request -> "I can count your actions."))
        .instruction("Use the update_action_count tool.")
        .tools(FunctionTool.create(ToolStateExample.class, "updateActionCount"));
  }

  /** Runs the example twice on one session; returns the final session and the temp values seen. */
  public static Outcome run(BaseSessionService sessions, Transcript t) {
    List<Object> tempSeen = new ArrayList<>();
    LlmAgent agent =
        agent()
            .afterToolCallback(
                (tool, args, ctx, response) -> {
                  tempSeen.add(ctx.state().get("temp:last_operation_status"));
                  return Maybe.empty();
                })
            .build();
    Runner runner = new Runner(agent, "tool_app", null, sessions);
    ExampleSupport.freshSession(sessions, "tool_app", "user3", "tools", null);

    t.step("Run the ToolAgent twice; its tool writes through ToolContext");
    ExampleSupport.run(runner, "user3", "tools", "Please update the action count.", t);
    ExampleSupport.run(runner, "user3", "tools", "And once more.", t);
    t.say("temp:last_operation_status seen during the runs: " + tempSeen);
    Session after = ExampleSupport.load(sessions, "tool_app", "user3", "tools");
    t.state("State after the runs (no temp: key)", after);
    return new Outcome(after, tempSeen);
  }
}
