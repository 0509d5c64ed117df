package dev.adk4j.agents;

import dev.adk4j.events.Event;
import dev.adk4j.internal.tools.PendingCalls;
import io.reactivex.rxjava3.core.Flowable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs its sub-agents one after the other in the same invocation: each sees the state and events of
 * those before it, {@code temp:} keys included.
 *
 * <p>A sub-agent that pauses the invocation (on a long-running call or a confirmation request, see
 * {@code LongRunningFunctionTool}) stops the sequence. The message that resumes the invocation runs
 * the sequence again from the sub-agent that paused (the one that made the answered call, or holds
 * it): the sub-agents before it are not run again.
 */
public final class SequentialAgent extends BaseAgent {

  private SequentialAgent(Builder b) {
    super(
        b.requireName(), b.description, b.subAgents, b.beforeAgentCallbacks, b.afterAgentCallbacks);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Its events are stored where they are made (see {@link BaseAgent#storesOwnEvents}). */
  @Override
  boolean storesOwnEvents() {
    return true;
  }

  @Override
  protected Flowable<Event> runAsyncImpl(InvocationContext context) {
    List<Flowable<Event>> runs = new ArrayList<>();
    AtomicBoolean paused = new AtomicBoolean();
    List<BaseAgent> subs = subAgents();
    for (BaseAgent sub : subs.subList(resumeIndex(context), subs.size())) {
      runs.add(
          Flowable.defer(
              () ->
                  context.endInvocation() || paused.get()
                      ? Flowable.<Event>empty()
                      : sub.runAsync(context)
                          .doOnNext(
                              e -> {
                                if (e.hasPendingLongRunningToolCall()) {
                                  paused.set(true);
                                }
                              })));
    }
    return Flowable.concat(runs);
  }

  /**
   * The sub-agent to start from: the one that made (or holds the agent that made) the calls the
   * invocation's message answers when it resumes the invocation; otherwise the first.
   */
  private int resumeIndex(InvocationContext context) {
    String paused =
        PendingCalls.resumedAgent(context.session().events(), context.userContent().orElse(null));
    if (paused == null) {
      return 0;
    }
    List<BaseAgent> subs = subAgents();
    for (int i = 0; i < subs.size(); i++) {
      if (subs.get(i).findAgent(paused).isPresent()) {
        return i;
      }
    }
    return 0;
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
