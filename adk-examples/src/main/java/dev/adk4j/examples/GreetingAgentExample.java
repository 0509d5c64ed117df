package dev.adk4j.examples;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;

/** {@code outputKey}: the agent's final answer is stored in state, through its event's delta. */
public final class GreetingAgentExample {
  private GreetingAgentExample() {}

  /** Runs the example; returns the session after the run. */
  public static Session run(BaseSessionService sessions, Transcript t) {
    BaseLlm model = ExampleModels.model(request -> "Hello there! How can I help you today?");
    // tag::greeting[]
    LlmAgent greeter =
        LlmAgent.builder()
            .name("Greeter")
            .model(model)
            .instruction("Generate a short, friendly greeting.")
            .outputKey("last_greeting") // the final answer lands in state['last_greeting']
            .build();
    Runner runner = new Runner(greeter, "state_app", null, sessions);
    // end::greeting[]
    ExampleSupport.freshSession(sessions, "state_app", "user1", "session1", null);

    t.step("Run the Greeter, whose outputKey is last_greeting");
    ExampleSupport.run(runner, "user1", "session1", "Hello", t);
    Session after = ExampleSupport.load(sessions, "state_app", "user1", "session1");
    t.state("State after the run", after);
    return after;
  }
}
