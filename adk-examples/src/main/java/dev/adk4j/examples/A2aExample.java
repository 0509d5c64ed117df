package dev.adk4j.examples;

import dev.adk4j.a2a.A2aServer;
import dev.adk4j.a2a.RemoteA2aAgent;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.SequentialAgent;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import java.io.IOException;

/**
 * Agents over Agent2Agent (A2A), offline: two A2A servers in this process, on 127.0.0.1. The first
 * serves a {@code forecaster}; the second serves a {@code trip_planner} sequence whose first step
 * is that forecaster, called through a {@link RemoteA2aAgent} (its answer shared with the next step
 * through {@code temp:forecast}). The example's app calls the planner through another {@link
 * RemoteA2aAgent}, storing each plan under {@code user:last_plan}; its two turns go to one remote
 * A2A context, that is one session of the planner's app.
 */
public final class A2aExample {
  private A2aExample() {}

  /** Runs the example; returns the session after the run. */
  public static Session run(BaseSessionService sessions, Transcript t) throws IOException {
    // tag::a2a[]
    LlmAgent forecasterAgent =
        LlmAgent.builder()
            .name("forecaster")
            .description("Tells tomorrow's weather for a city.")
            .model(ExampleModels.model(request -> "Tomorrow in Lyon: sunny, 21 °C."))
            .instruction("Give tomorrow's forecast for the city the user names, in one line.")
            .build();
    try (A2aServer forecaster =
        A2aServer.builder().runner(new InMemoryRunner(forecasterAgent, "forecaster")).build()) {
      forecaster.start("127.0.0.1", 0);
      t.step("A2A server 1: 'forecaster', card at " + forecaster.agentCardUrl());

      SequentialAgent planner =
          SequentialAgent.builder()
              .name("trip_planner")
              .description("Plans a day out around tomorrow's weather.")
              .subAgents(
                  RemoteA2aAgent.builder()
                      .name("forecaster")
                      .url(forecaster.url().toString()) // reads the agent card now
                      .outputKey("temp:forecast")
                      .build(),
                  LlmAgent.builder()
                      .name("planner")
                      .model(
                          ExampleModels.model(
                              request ->
                                  request.systemInstruction().orElse("").contains("sunny")
                                      ? "A picnic on the banks of the Saône."
                                      : "The Musée des Confluences."))
                      .instruction("Plan a day out in one line. The forecast: {temp:forecast}")
                      .build())
              .build();
      try (A2aServer trips =
          A2aServer.builder().runner(new InMemoryRunner(planner, "trip_planner")).build()) {
        trips.start("127.0.0.1", 0);
        t.step("A2A server 2: 'trip_planner', card at " + trips.agentCardUrl());

        RemoteA2aAgent tripsAgent =
            RemoteA2aAgent.builder()
                .name("trips")
                .url(trips.url().toString())
                .outputKey("user:last_plan")
                .build();
        try (Runner runner = new Runner(tripsAgent, "a2a_app", null, sessions)) {
          ExampleSupport.freshSession(sessions, "a2a_app", "user10", "a2a", null);
          ExampleSupport.run(runner, "user10", "a2a", "Plan my Saturday in Lyon.", t);
          ExampleSupport.run(runner, "user10", "a2a", "And one more idea?", t);
        }
      }
    }
    // end::a2a[]
    Session after = ExampleSupport.load(sessions, "a2a_app", "user10", "a2a");
    t.state("State after the run (the context id is the planner's session id)", after);
    return after;
  }
}
