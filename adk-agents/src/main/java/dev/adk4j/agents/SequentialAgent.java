package dev.adk4j.agents;

import dev.adk4j.events.Event;
import io.reactivex.rxjava3.core.Flowable;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs its sub-agents one after the other in the same invocation: each sees the state and events of
 * those before it, {@code temp:} keys included.
 */
public final class SequentialAgent extends BaseAgent {

  private SequentialAgent(Builder b) {
    super(
        b.requireName(), b.description, b.subAgents, b.beforeAgentCallbacks, b.afterAgentCallbacks);
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  protected Flowable<Event> runAsyncImpl(InvocationContext context) {
    List<Flowable<Event>> runs = new ArrayList<>();
    for (BaseAgent sub : subAgents()) {
      runs.add(
          Flowable.defer(() -> context.endInvocation() ? Flowable.empty() : sub.runAsync(context)));
    }
    return Flowable.concat(runs);
  }

  /** Builds a {@link SequentialAgent}. */
  public static final class Builder extends BaseAgent.Builder<Builder> {
    private Builder() {}

    @Override
    public SequentialAgent build() {
      return new SequentialAgent(this);
    }
  }
}
