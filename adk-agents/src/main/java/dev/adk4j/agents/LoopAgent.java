package dev.adk4j.agents;

import dev.adk4j.events.Event;
import io.reactivex.rxjava3.core.BackpressureStrategy;
import io.reactivex.rxjava3.core.Flowable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * Runs its sub-agents in order, again and again, until one of their events escalates ({@code
 * EventActions.escalate}), the invocation ends, or {@code maxIterations} rounds have run (no limit
 * when unset). A sub-agent skipped by its before-agent callback does not stop the loop; the
 * callback can escalate through {@link CallbackContext#setActions}.
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

  @Override
  protected Flowable<Event> runAsyncImpl(InvocationContext context) {
    return Flowable.create(
        emitter -> {
          try {
            int round = 0;
            boolean stop = subAgents().isEmpty();
            while (!stop && (maxIterations == null || round < maxIterations)) {
              round++;
              for (BaseAgent sub : subAgents()) {
                if (emitter.isCancelled() || context.endInvocation()) {
                  stop = true;
                  break;
                }
                AtomicBoolean escalated = new AtomicBoolean();
                Flows.forEach(
                    sub.runAsync(context),
                    e -> {
                      if (e.actions().escalate().orElse(false)
                          || e.hasPendingLongRunningToolCall()) {
                        escalated.set(true);
                      }
                      Flows.emit(emitter, e);
                    });
                if (escalated.get()) {
                  stop = true;
                  break;
                }
              }
            }
            emitter.onComplete();
          } catch (Throwable t) {
            emitter.tryOnError(t);
          }
        },
        BackpressureStrategy.BUFFER);
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
