package dev.adk4j.agents;

import dev.adk4j.events.Event;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * Runs its sub-agents concurrently, each on its own branch, in the same invocation: they share the
 * invocation id and the live state ({@code temp:} keys included), and their writes are thread-safe.
 * Each child's branch is the agent path from the root, {@code parent.child} (nested parallel agents
 * give {@code outer.inner.child}), so a child's model sees only its own branch's history. Events of
 * all children are emitted as they come, each already stored.
 *
 * <p>As in ADK for Java, an event that escalates ({@code EventActions.escalate}) ends the parallel
 * agent: it is emitted, then the other children are cancelled (a child stops at its next step: a
 * model call or tool call already running finishes, and what it stored stays stored, but nothing
 * more is emitted). An enclosing {@link LoopAgent} then stops too.
 */
public final class ParallelAgent extends BaseAgent {
  private final Scheduler scheduler;

  private ParallelAgent(Builder b) {
    super(
        b.requireName(), b.description, b.subAgents, b.beforeAgentCallbacks, b.afterAgentCallbacks);
    this.scheduler = b.scheduler;
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
    for (BaseAgent sub : subAgents()) {
      InvocationContext branchContext = context.withBranch(pathOf(sub));
      runs.add(sub.runAsync(branchContext).subscribeOn(scheduler));
    }
    // As in ADK: an escalating event is the last of the parallel agent; the other branches are
    // cancelled (each stops at its next step; what it stored before stays stored).
    return Flowable.merge(runs).takeUntil(LoopAgent::escalates);
  }

  /** The agent path of {@code agent} from the root of its tree, dot-separated. */
  static String pathOf(BaseAgent agent) {
    List<String> names = new ArrayList<>();
    for (BaseAgent a = agent; a != null; a = a.parentAgent().orElse(null)) {
      names.add(0, a.name());
    }
    StringJoiner path = new StringJoiner(".");
    names.forEach(path::add);
    return path.toString();
  }

  /** Builds a {@link ParallelAgent}. */
  public static final class Builder extends BaseAgent.Builder<Builder> {
    private Scheduler scheduler = Schedulers.io();

    private Builder() {}

    /** Where children run; {@link Schedulers#io()} by default. */
    public Builder scheduler(Scheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    @Override
    public ParallelAgent build() {
      return new ParallelAgent(this);
    }
  }
}
