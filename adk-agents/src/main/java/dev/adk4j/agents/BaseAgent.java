package dev.adk4j.agents;

import com.google.genai.types.Content;
import dev.adk4j.events.Event;
import dev.adk4j.internal.telemetry.Telemetry;
import dev.adk4j.plugins.BasePlugin;
import io.opentelemetry.api.trace.Span;
import io.reactivex.rxjava3.core.BackpressureStrategy;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * An agent: something that, given an {@link InvocationContext}, produces events.
 *
 * <p>{@link #runAsync(InvocationContext)} runs the before-agent callbacks, then {@link
 * #runAsyncImpl}, then the after-agent callbacks. A before-agent callback that returns content
 * answers in the agent's place: that content becomes the agent's event and the agent is skipped
 * (neither {@link #runAsyncImpl} nor its after-agent callbacks run), while the rest of the
 * invocation goes on (the next sub-agent of a sequence, the other branches of a parallel agent, the
 * next round of a loop). Every non-partial event is stored in the session (through {@link
 * InvocationContext#persist}) before it is emitted, so a consumer that sees an event can read its
 * state from storage, and the next step of the invocation sees it in the session's history.
 *
 * <p>Agents are immutable once built and may be run by several invocations at once.
 */
public abstract class BaseAgent {

  /** adk4j's first rule: a Java-style identifier. */
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /**
   * ADK for Java's rule (1.8.0): words of letters and digits, optionally after one leading
   * underscore, joined by single spaces, dots, underscores or hyphens ({@code "test agent"}, {@code
   * "agent-1"}, {@code "2nd.agent"}).
   */
  private static final Pattern ADK_NAME = Pattern.compile("_?[a-zA-Z0-9]*([. _-][a-zA-Z0-9]+)*");

  private final String name;
  private final String description;
  private final List<BaseAgent> subAgents;
  private final List<Callbacks.BeforeAgentCallback> beforeAgentCallbacks;
  private final List<Callbacks.AfterAgentCallback> afterAgentCallbacks;
  private volatile @Nullable BaseAgent parentAgent;

  /**
   * A null list of sub-agents or callbacks means none (as in ADK for Java).
   *
   * <p>A name is an identifier ({@code [A-Za-z_][A-Za-z0-9_]*}) or any non-empty name ADK for Java
   * accepts: words of letters and digits joined by single spaces, dots, underscores or hyphens,
   * optionally after one leading underscore. Where a name must be an identifier for a model (an
   * {@code AgentTool}'s function name), one is derived from it; {@code transfer_to_agent} takes the
   * name as it is.
   *
   * @throws IllegalArgumentException if {@code name} is empty, matches neither rule or is {@code
   *     user}, or two sub-agents share a name, or a sub-agent already has another parent
   */
  protected BaseAgent(
      String name,
      @Nullable String description,
      @Nullable List<? extends BaseAgent> subAgents,
      @Nullable List<? extends Callbacks.BeforeAgentCallback> beforeAgentCallbacks,
      @Nullable List<? extends Callbacks.AfterAgentCallback> afterAgentCallbacks) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()
        || !(IDENTIFIER.matcher(name).matches() || ADK_NAME.matcher(name).matches())) {
      throw new IllegalArgumentException(
          "Agent name '"
              + name
              + "' is neither an identifier ([A-Za-z_][A-Za-z0-9_]*) nor words of letters and"
              + " digits joined by single spaces, dots, underscores or hyphens");
    }
    if (name.equals("user")) {
      throw new IllegalArgumentException("Agent name 'user' is reserved for the user's messages");
    }
    this.name = name;
    this.description = description == null ? "" : description;
    this.subAgents = subAgents == null ? List.of() : List.copyOf(subAgents);
    this.beforeAgentCallbacks =
        beforeAgentCallbacks == null ? List.of() : List.copyOf(beforeAgentCallbacks);
    this.afterAgentCallbacks =
        afterAgentCallbacks == null ? List.of() : List.copyOf(afterAgentCallbacks);
    Set<String> names = new HashSet<>();
    for (BaseAgent sub : this.subAgents) {
      if (!names.add(sub.name())) {
        throw new IllegalArgumentException(
            "Agent '" + name + "' has two sub-agents named '" + sub.name() + "'");
      }
      if (sub.parentAgent != null && sub.parentAgent != this) {
        throw new IllegalArgumentException(
            "Agent '"
                + sub.name()
                + "' is already a sub-agent of '"
                + sub.parentAgent.name()
                + "'; it cannot also be one of '"
                + name
                + "'");
      }
      sub.parentAgent = this;
    }
  }

  public String name() {
    return name;
  }

  public String description() {
    return description;
  }

  /**
   * ADK for Java's {@code close()}: releases what this agent holds (an {@link LlmAgent}'s
   * toolsets), then closes its sub-agents, in order. Nothing else needs closing in adk4j; {@code
   * Runner.close()} closes the toolsets of a whole tree. An agent must not run once closed.
   */
  public Completable close() {
    return Completable.concat(subAgents().stream().map(BaseAgent::close).toList());
  }

  public List<BaseAgent> subAgents() {
    return subAgents;
  }

  public Optional<BaseAgent> parentAgent() {
    return Optional.ofNullable(parentAgent);
  }

  /** The root of this agent's tree. */
  public BaseAgent rootAgent() {
    BaseAgent a = this;
    while (a.parentAgent != null) {
      a = a.parentAgent;
    }
    return a;
  }

  /** This agent or the descendant named {@code name}. */
  public Optional<BaseAgent> findAgent(String name) {
    if (this.name.equals(name)) {
      return Optional.of(this);
    }
    for (BaseAgent sub : subAgents) {
      Optional<BaseAgent> found = sub.findAgent(name);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  public List<Callbacks.BeforeAgentCallback> beforeAgentCallbacks() {
    return beforeAgentCallbacks;
  }

  public List<Callbacks.AfterAgentCallback> afterAgentCallbacks() {
    return afterAgentCallbacks;
  }

  /** ADK for Java's name for {@link #beforeAgentCallbacks()}. */
  public List<Callbacks.BeforeAgentCallback> canonicalBeforeAgentCallbacks() {
    return beforeAgentCallbacks;
  }

  /** ADK for Java's name for {@link #afterAgentCallbacks()}. */
  public List<Callbacks.AfterAgentCallback> canonicalAfterAgentCallbacks() {
    return afterAgentCallbacks;
  }

  /**
   * Runs this agent in the invocation of {@code parentContext}. Lazy: nothing happens until
   * subscription. Events are emitted in order, each non-partial one already stored.
   */
  public final Flowable<Event> runAsync(InvocationContext parentContext) {
    return Flowable.defer(
        () -> {
          InvocationContext base = parentContext.forAgent(this);
          Span span =
              Telemetry.startAgent(
                  base.telemetry(), name, description, base.session().id(), base.invocationId());
          InvocationContext ctx = base.withTelemetry(base.telemetry().with(span));
          // adk4j's own agents store each event where they make it (once, through the
          // invocation's one appender, InvocationContext.persist) and pass their sub-agents'
          // stored events on: they go through unseen. Another agent's events may be unstored.
          Flowable<Event> work =
              storesOwnEvents()
                  ? Flowable.defer(() -> runAsyncImpl(ctx))
                  : Flowable.defer(() -> runAsyncImpl(ctx).map(ctx::persist));
          return withAgentCallbacks(ctx, work)
              .doOnError(t -> Telemetry.fail(span, t))
              .doFinally(span::end);
        });
  }

  /**
   * {@code work} between the plugins' and this agent's before-agent and after-agent callbacks, in
   * {@code ctx} (this agent's context): how {@link #runAsync} runs {@link #runAsyncImpl}, and how a
   * live run runs an {@link LlmAgent}.
   */
  final Flowable<Event> withAgentCallbacks(InvocationContext ctx, Flowable<Event> work) {
    if (ctx.plugins().isEmpty()
        && beforeAgentCallbacks.isEmpty()
        && afterAgentCallbacks.isEmpty()) {
      // No callback to run: the work alone, unless the invocation has ended (as below).
      return Flowable.defer(() -> ctx.endInvocation() ? Flowable.<Event>empty() : work);
    }
    return Flowable.defer(
        () -> {
          // Set when a before-agent callback answered in this agent's place. It skips this
          // agent only (its own work and its after-agent callbacks), never the invocation: the
          // invocation-wide flag stays for steps that explicitly end the invocation.
          AtomicBoolean skipped = new AtomicBoolean();
          return Flowable.concat(
              Flowable.defer(() -> runBeforeCallbacks(ctx, skipped)),
              Flowable.defer(
                  () -> skipped.get() || ctx.endInvocation() ? Flowable.<Event>empty() : work),
              Flowable.defer(
                  () -> skipped.get() ? Flowable.<Event>empty() : runAfterCallbacks(ctx)));
        });
  }

  /**
   * Whether {@link #runAsyncImpl} emits only events already stored (or partial ones): true for
   * adk4j's own agents, which store each event where they make it, so that {@link #runAsync} does
   * not look at it again. False for any other agent, whose events {@link #runAsync} stores if they
   * are not stored yet.
   */
  boolean storesOwnEvents() {
    return false;
  }

  /** This agent's own work. Events it emits are stored by {@link #runAsync} if not yet stored. */
  protected abstract Flowable<Event> runAsyncImpl(InvocationContext context);

  /**
   * ADK for Java's live hook, so that a custom agent written for ADK (where it is abstract) keeps
   * its override. adk4j never calls it: a live run ({@code Runner.runLive}) needs an {@link
   * LlmAgent} root and runs it through {@link LlmAgent#runLive}. By default it fails with an {@link
   * UnsupportedOperationException} naming the agent.
   */
  protected Flowable<Event> runLiveImpl(InvocationContext context) {
    return Flowable.error(
        new UnsupportedOperationException(
            "Agent '" + name + "' has no live mode: a live run needs an LlmAgent root"));
  }

  /** The plugins' before-agent hooks, then this agent's before-agent callbacks. */
  private Flowable<Event> runBeforeCallbacks(InvocationContext ctx, AtomicBoolean skipped) {
    List<Function<CallbackContext, Maybe<Content>>> all = new ArrayList<>();
    for (BasePlugin p : ctx.plugins()) {
      all.add(cc -> p.beforeAgentCallback(this, cc));
    }
    for (Callbacks.BeforeAgentCallback cb : beforeAgentCallbacks) {
      all.add(cb::call);
    }
    return runAgentCallbacks(ctx, all, skipped);
  }

  /** The plugins' after-agent hooks, then this agent's after-agent callbacks. */
  private Flowable<Event> runAfterCallbacks(InvocationContext ctx) {
    List<Function<CallbackContext, Maybe<Content>>> all = new ArrayList<>();
    for (BasePlugin p : ctx.plugins()) {
      all.add(cc -> p.afterAgentCallback(this, cc));
    }
    for (Callbacks.AfterAgentCallback cb : afterAgentCallbacks) {
      all.add(cb::call);
    }
    return runAgentCallbacks(ctx, all, null);
  }

  /**
   * Runs agent callbacks (the plugins' hooks first) in order with one shared context. The first
   * that returns content ends the step with an event carrying that content; otherwise state written
   * by the callbacks becomes one content-less event. For before-callbacks ({@code skipped} given),
   * content is the agent's reply in its place: {@code skipped} is set, so the agent does not run,
   * and {@link #recordBeforeAgentReply} may add to the reply event's actions (an {@link LlmAgent}'s
   * output key). The rest of the invocation goes on.
   */
  private Flowable<Event> runAgentCallbacks(
      InvocationContext ctx,
      List<Function<CallbackContext, Maybe<Content>>> callbacks,
      @Nullable AtomicBoolean skipped) {
    if (callbacks.isEmpty()) {
      return Flowable.empty();
    }
    return Flowable.create(
        emitter -> {
          CallbackContext cc = new CallbackContext(ctx);
          Content content = null;
          for (Function<CallbackContext, Maybe<Content>> cb : callbacks) {
            content = cb.apply(cc).blockingGet();
            if (content != null) {
              break;
            }
          }
          Event draft = newEvent(ctx).content(content).build();
          if (content != null && skipped != null) {
            skipped.set(true);
            recordBeforeAgentReply(cc, draft);
          }
          // A callback that only wrote temp: keys leaves no event: those writes are already
          // visible in the live state, and a stored event would carry nothing.
          if (content != null || storesSomething(cc.actions())) {
            emitter.onNext(ctx.persist(draft.toBuilder().actions(cc.actions()).build()));
          }
          emitter.onComplete();
        },
        BackpressureStrategy.BUFFER);
  }

  /**
   * Called when a before-agent callback answered in this agent's place, before the reply event
   * ({@code reply}, without its actions yet) is stored: writes made through {@code context} land in
   * that event's delta. Does nothing by default; an {@link LlmAgent} stores the reply under its
   * output key as it would its model's final answer.
   */
  void recordBeforeAgentReply(CallbackContext context, Event reply) {}

  private static boolean storesSomething(dev.adk4j.events.EventActions actions) {
    return !actions.toBuilder()
        .stateDelta(dev.adk4j.state.Scope.withoutTemp(actions.stateDelta()))
        .expectedState(java.util.Map.of())
        .stateIncrements(dev.adk4j.state.Scope.withoutTemp(actions.stateIncrements()))
        .build()
        .isEmpty();
  }

  /**
   * Builds an event authored by this agent in {@code ctx}, with an id from its {@link
   * InvocationContext#idSource()} and the time of its {@link InvocationContext#clock()}.
   */
  protected Event.Builder newEvent(InvocationContext ctx) {
    return Event.builder()
        .id(ctx.idSource().newEventId())
        .timestamp(ctx.clock().millis())
        .invocationId(ctx.invocationId())
        .author(name)
        .branch(ctx.branch().orElse(null));
  }

  /** Common builder state of agents. */
  @SuppressWarnings("unchecked")
  public abstract static class Builder<B extends Builder<B>> {
    protected @Nullable String name;
    protected @Nullable String description;
    protected final List<BaseAgent> subAgents = new ArrayList<>();
    protected final List<Callbacks.BeforeAgentCallback> beforeAgentCallbacks = new ArrayList<>();
    protected final List<Callbacks.AfterAgentCallback> afterAgentCallbacks = new ArrayList<>();

    public B name(String name) {
      this.name = name;
      return (B) this;
    }

    public B description(String description) {
      this.description = description;
      return (B) this;
    }

    public B subAgents(BaseAgent... agents) {
      return subAgents(List.of(agents));
    }

    public B subAgents(List<? extends BaseAgent> agents) {
      this.subAgents.clear();
      this.subAgents.addAll(agents);
      return (B) this;
    }

    public B beforeAgentCallback(Callbacks.BeforeAgentCallback callback) {
      this.beforeAgentCallbacks.add(Objects.requireNonNull(callback));
      return (B) this;
    }

    public B afterAgentCallback(Callbacks.AfterAgentCallback callback) {
      this.afterAgentCallbacks.add(Objects.requireNonNull(callback));
      return (B) this;
    }

    /**
     * ADK for Java's list form: replaces the before-agent callbacks set so far with {@code
     * callbacks}, in order; each is a {@link Callbacks.BeforeAgentCallback} or a {@link
     * Callbacks.BeforeAgentCallbackSync}. Null or empty: none.
     *
     * @throws IllegalArgumentException naming the position of an element of another type
     */
    public B beforeAgentCallback(@Nullable List<?> callbacks) {
      beforeAgentCallbacks.clear();
      int i = 0;
      for (Object c : callbacks == null ? List.of() : callbacks) {
        if (c instanceof Callbacks.BeforeAgentCallback async) {
          beforeAgentCallback(async);
        } else if (c instanceof Callbacks.BeforeAgentCallbackSync sync) {
          beforeAgentCallbackSync(sync);
        } else {
          throw notACallback("beforeAgentCallback", i, c);
        }
        i++;
      }
      return (B) this;
    }

    /** ADK for Java's list form of {@link #afterAgentCallback}: replaces those set so far. */
    public B afterAgentCallback(@Nullable List<?> callbacks) {
      afterAgentCallbacks.clear();
      int i = 0;
      for (Object c : callbacks == null ? List.of() : callbacks) {
        if (c instanceof Callbacks.AfterAgentCallback async) {
          afterAgentCallback(async);
        } else if (c instanceof Callbacks.AfterAgentCallbackSync sync) {
          afterAgentCallbackSync(sync);
        } else {
          throw notACallback("afterAgentCallback", i, c);
        }
        i++;
      }
      return (B) this;
    }

    /** The error of a callback list holding something else than a callback. */
    static IllegalArgumentException notACallback(
        String method, int index, @Nullable Object element) {
      return new IllegalArgumentException(
          method
              + ": element "
              + index
              + " is not a callback of that kind but "
              + (element == null ? "null" : element.getClass().getName()));
    }

    /**
     * Adds a before-agent callback that returns {@link java.util.Optional} (ADK for Java's
     * spelling; ADK replaces the callbacks set so far, adk4j adds this one after them).
     */
    public B beforeAgentCallbackSync(Callbacks.BeforeAgentCallbackSync callback) {
      return beforeAgentCallback(Objects.requireNonNull(callback).toAsync());
    }

    /**
     * Adds an after-agent callback that returns {@link java.util.Optional} (ADK for Java's
     * spelling; ADK replaces the callbacks set so far, adk4j adds this one after them).
     */
    public B afterAgentCallbackSync(Callbacks.AfterAgentCallbackSync callback) {
      return afterAgentCallback(Objects.requireNonNull(callback).toAsync());
    }

    protected String requireName() {
      if (name == null) {
        throw new IllegalArgumentException("An agent needs a name");
      }
      return name;
    }

    public abstract BaseAgent build();
  }
}
