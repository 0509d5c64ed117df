package dev.adk4j.agents;

import dev.adk4j.events.Event;
import io.reactivex.rxjava3.core.Flowable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Runs its sub-agents in order, again and again, until one of their events escalates ({@code
 * EventActions.escalate}), the invocation ends, or {@code maxIterations} rounds have run (no limit
 * when unset). As in ADK for Java, the escalating event is the last one of the loop: the sub-agent
 * that emitted it is stopped there, the rest of the round does not run, and an enclosing loop or
 * parallel agent stops too (a {@link SequentialAgent} around it goes on with its next sub-agent).
 * Rounds run as the subscriber reads their events, so an unbounded loop read lazily ({@code
 * blockingIterable()}, {@code take(n)}) runs only as far as it is read. A sub-agent skipped by its
 * before-agent callback does not stop the loop; the callback can escalate through {@link
 * CallbackContext#setActions}.
 *
 * <p>A sub-agent that pauses the invocation (on a long-running call or a confirmation request, see
 * {@code LongRunningFunctionTool}) stops the loop too. The message that resumes the invocation runs
 * the paused agent (and the sequential agents between it and this loop) to its end; the loop does
 * not go on.
 */
public final class LoopAgent extends BaseAgent {
  private final @Nullable Integer maxIterations;

  private LoopAgent(Builder b) {
    super(
        b.requireName(), b.description, b.subAgents, b.beforeAgentCallbacks, b.afterAgentCallbacks);
    if (b.maxIterations != null && b.maxIterations < 1) {
      throw new IllegalArgumentException(
          "Loop agent '" + b.name + "' needs maxIterations >= 1, got " + b.maxIterations);
    }
    this.maxIterations = b.maxIterations;
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
    if (subAgents().isEmpty()) {
      return Flowable.empty();
    }
    // Composed, not a loop on the subscriber's thread: a round runs when the subscriber asks for
    // its events, so a loop without maxIterations read through blockingIterable() (or taken
    // with take(n)) produces only what is read.
    return Flowable.defer(
        () -> {
          AtomicBoolean stop = new AtomicBoolean();
          AtomicInteger rounds = new AtomicInteger();
          Flowable<Event> round =
              Flowable.fromIterable(subAgents())
                  .concatMap(
                      sub ->
                          Flowable.defer(
                              () ->
                                  stop.get() || context.endInvocation()
                                      ? Flowable.<Event>empty()
                                      : sub.runAsync(context)
                                          // As in ADK: the escalating event is the sub-agent's
                                          // last; nothing after it runs.
                                          .takeUntil(LoopAgent::escalates)
                                          .doOnNext(
                                              e -> {
                                                if (escalates(e)
                                                    || e.hasPendingLongRunningToolCall()) {
                                                  stop.set(true);
                                                }
                                              })));
          return round.repeatUntil(
              () ->
                  stop.get()
                      || context.endInvocation()
                      || (maxIterations != null && rounds.incrementAndGet() >= maxIterations));
        });
  }

  static boolean escalates(Event e) {
    return e.actions().escalate().orElse(false);
  }

  /** Builds a {@link LoopAgent}. */
  public static final class Builder extends BaseAgent.Builder<Builder> {
    private @Nullable Integer maxIterations;

    private Builder() {}

    public Builder maxIterations(int maxIterations) {
      this.maxIterations = maxIterations;
      return this;
    }

    @Override
    public LoopAgent build() {
      return new LoopAgent(this);
    }
  }
}
