package dev.adk4j.examples;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.util.List;
import java.util.Map;

/**
 * Undoing turns: three turns each set the trip's destination; rewinding before the second one
 * restores the state of after the first, and the model no longer sees the undone turns.
 */
public final class RewindExample {
  private RewindExample() {}

  /** Sets the destination the user named last (the demo model passes it). */
  @Schema(name = "set_destination", description = "Sets the trip's destination.")
  public static Map<String, Object> setDestination(
      @Schema(name = "city", description = "The city to go to.") String city, ToolContext context) {
    context.state().put("destination", city);
    int changes = context.state().get("changes") instanceof Number n ? n.intValue() + 1 : 1;
    context.state().put("changes", changes);
    return Map.of("destination", city);
  }

  /** Runs the example on a fresh session; returns the session after the rewind. */
  public static Session run(BaseSessionService sessions, Transcript t) {
    ExampleSupport.freshSession(sessions, "trip_app", "hana", "trip", null);
    List<String> cities = List.of("Lisbon", "Oslo", "Rome");
    List<String> invocations = new java.util.ArrayList<>();
    t.step("Three turns, each setting the destination");
    for (String city : cities) {
      LlmAgent agent =
          LlmAgent.builder()
              .name("Planner")
              .model(
                  ExampleModels.model(
                      r -> "Destination set.", Map.of("set_destination", Map.of("city", city))))
              .instruction("Set the destination the user asks for.")
              .tools(FunctionTool.create(RewindExample.class, "setDestination"))
              .build();
      Runner runner = new Runner(agent, "trip_app", null, sessions);
      List<Event> events = ExampleSupport.run(runner, "hana", "trip", "Go to " + city + ".", t);
      invocations.add(events.get(0).invocationId());
    }
    t.state("State after three turns", ExampleSupport.load(sessions, "trip_app", "hana", "trip"));

    t.step("Rewind to before the second turn");
    String second = invocations.get(1); // the turn that chose Oslo
    LlmAgent any = LlmAgent.builder().name("Planner").model(ExampleModels.model(r -> "")).build();
    // tag::rewind[]
    Runner runner = new Runner(any, "trip_app", null, sessions);
    Event rewind = runner.rewind("hana", "trip", second).blockingGet();
    // end::rewind[]
    t.say("rewind event delta: " + new java.util.TreeMap<>(rewind.actions().stateDelta()));
    Session after = ExampleSupport.load(sessions, "trip_app", "hana", "trip");
    t.state("State after the rewind", after);
    t.say("events stored (none deleted): " + after.events().size());
    return after;
  }
}
