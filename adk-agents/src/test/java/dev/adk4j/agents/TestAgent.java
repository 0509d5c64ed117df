package dev.adk4j.agents;

import dev.adk4j.events.Event;
import io.reactivex.rxjava3.core.Flowable;
import java.util.List;

/** An agent that does nothing: tests need one to build an {@link InvocationContext}. */
public final class TestAgent extends BaseAgent {

  public TestAgent(String name) {
    super(name, "a test agent", List.of(), List.of(), List.of());
  }

  @Override
  protected Flowable<Event> runAsyncImpl(InvocationContext context) {
    return Flowable.empty();
  }
}
