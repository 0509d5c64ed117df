package dev.adk4j.examples;

import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import io.reactivex.rxjava3.core.Maybe;

/**
 * A callback that updates state through its {@link CallbackContext}: the writes of an after-agent
 * callback that returns no content become their own content-less event carrying the delta.
 */
public final class CallbackStateExample {
  private CallbackStateExample() {}

  // tag::callback[]
  /** After the agent answers, count the answer; the write lands in the callback's own event. */
  static Maybe<com.google.genai.types.Content> onAfterAgent(CallbackContext callbackContext) {
    // A counter shared by the user's sessions: increment, so concurrent sessions all count.
    callbackContext.state().increment("user:answers_given", 1);
    callbackContext.state().put("temp:last_operation_status", "success");
    return Maybe.empty(); // no content: the agent's answer stands
  }

  // end::callback[]

  /** The example's agent, as the run and the example server ({@link ExampleServer}) use it. */
  static LlmAgent.Builder agent() {
    return LlmAgent.builder()
        .name("Helper")
        .model(ExampleModels.model(request -> "Happy to help."))
        .instruction("Answer briefly.")
        .afterAgentCallback(CallbackStateExample::onAfterAgent);
  }

  /** Runs the example; returns the session after the run. */
  public static Session run(BaseSessionService sessions, Transcript t) {
    LlmAgent agent = agent().build();
    Runner runner = new Runner(agent, "callback_app", null, sessions);
    ExampleSupport.freshSession(
        sessions, "callback_app", "user4", "callbacks", java.util.Map.of("user:answers_given", 0));

    t.step("Run the Helper; its after-agent callback counts answers in user scope");
    ExampleSupport.run(runner, "user4", "callbacks", "Can you help me?", t);
    Session after = ExampleSupport.load(sessions, "callback_app", "user4", "callbacks");
    t.state("State after the run", after);
    return after;
  }
}
