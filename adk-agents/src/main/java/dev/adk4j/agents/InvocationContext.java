package dev.adk4j.agents;

import com.google.genai.types.Content;
import dev.adk4j.artifacts.BaseArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.internal.telemetry.Telemetry;
import dev.adk4j.memory.BaseMemoryService;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import io.opentelemetry.context.Context;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Everything one invocation shares: its id, its live state (the session's state as the invocation
 * started, with every write since, {@code temp:} keys included: only the contexts' {@code State}
 * writes it, recording each write in the event's delta), the session copy its events are appended
 * through (whose read-only {@link Session#state()} holds stored state only, up to the last append),
 * the services, the user's message, the run config, and the invocation-wide flags and counters.
 *
 * <p>An agent runs with its own copy ({@link #forAgent}, {@link #withBranch}) that shares all of
 * the above with its parent: sub-agents see the same invocation id and the same live state.
 *
 * <p>Events are stored through {@link #persist(Event)} and nowhere else: it appends each event once
 * (by id), before it is emitted, and brings the owned session copy up to date. Thread-safe.
 */
public final class InvocationContext {

  private final BaseSessionService sessionService;
  private final @Nullable BaseArtifactService artifactService;
  private final @Nullable BaseMemoryService memoryService;
  private final String invocationId;
  private final BaseAgent agent;
  private final Session session;
  private final @Nullable Content userContent;
  private final RunConfig runConfig;
  private final @Nullable String branch;
  private final List<BasePlugin> plugins;
  private final Context telemetry;
  private final Shared shared;
  private final Map<String, Object> callbackContextData;
  private final @Nullable CompactionSettings compaction;

  /** What every copy of one invocation's context shares. */
  private static final class Shared {
    /** The live state: written by the contexts' {@code State}s and by {@link #persist}. */
    final ConcurrentMap<String, Object> live;

    final AtomicBoolean endInvocation = new AtomicBoolean();
    final AtomicInteger llmCalls = new AtomicInteger();
    final Set<String> persisted = ConcurrentHashMap.newKeySet();

    /** Per agent (by identity), the tools its toolsets listed for its latest step. */
    final ConcurrentMap<LlmAgent, List<dev.adk4j.tools.BaseTool>> listedTools =
        new ConcurrentHashMap<>();

    final java.time.Clock clock;
    final IdSource ids;
    final io.reactivex.rxjava3.core.@Nullable Scheduler timers;

    Shared(
        ConcurrentMap<String, Object> live,
        java.time.Clock clock,
        IdSource ids,
        io.reactivex.rxjava3.core.@Nullable Scheduler timers) {
      this.live = live;
      this.clock = clock;
      this.ids = ids;
      this.timers = timers;
    }
  }

  /** The tools {@code agent} listed for its latest step in this invocation, or null. */
  @Nullable List<dev.adk4j.tools.BaseTool> listedTools(LlmAgent agent) {
    return shared.listedTools.get(agent);
  }

  void rememberListedTools(LlmAgent agent, List<dev.adk4j.tools.BaseTool> tools) {
    shared.listedTools.put(agent, tools);
  }

  private InvocationContext(Builder b, Shared shared) {
    this.sessionService = Objects.requireNonNull(b.sessionService, "sessionService");
    this.artifactService = b.artifactService;
    this.memoryService = b.memoryService;
    this.invocationId = b.invocationId != null ? b.invocationId : shared.ids.newInvocationId();
    this.agent = Objects.requireNonNull(b.agent, "agent");
    this.session = Objects.requireNonNull(b.session, "session");
    this.userContent = b.userContent;
    this.runConfig = b.runConfig != null ? b.runConfig : RunConfig.builder().build();
    this.branch = b.branch;
    this.plugins = b.plugins;
    this.telemetry = b.telemetry != null ? b.telemetry : Context.current();
    this.shared = shared;
    this.callbackContextData =
        b.callbackContextData != null ? b.callbackContextData : new ConcurrentHashMap<>();
    this.compaction = b.compaction;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * ADK for Java's copy: a builder holding this context's services, ids, agent, session, user
   * content, run configuration, branch, plugins, compaction configuration and {@link
   * #callbackContextData()} (the same map, as in ADK). What it builds is a new root context that
   * starts from a copy of this one's live state; it does not share this one's live state,
   * model-call count, end-of-invocation flag or stored events.
   */
  public Builder toBuilder() {
    Builder b = toBuilderState(telemetry);
    b.liveState = shared.live; // copied by build(): the new context starts from this live state
    return b;
  }

  /** A new invocation id, {@code e-} followed by a UUID. */
  public static String newInvocationContextId() {
    return "e-" + UUID.randomUUID();
  }

  /** This context for {@code agent}, sharing everything else. */
  public InvocationContext forAgent(BaseAgent agent) {
    return copy(agent, branch);
  }

  /** This context on {@code branch} (an agent path such as {@code parent.child}). */
  public InvocationContext withBranch(@Nullable String branch) {
    return copy(agent, branch);
  }

  /**
   * This context with {@code telemetry} as the OpenTelemetry context of its spans (the span of the
   * agent it runs).
   */
  InvocationContext withTelemetry(Context telemetry) {
    return new InvocationContext(toBuilderState(telemetry), shared);
  }

  /**
   * The OpenTelemetry context this context's spans are children of: the current one when the root
   * context was built (a Runner's invocation span), then each agent's span.
   */
  Context telemetry() {
    return telemetry;
  }

  private Builder toBuilderState(Context telemetry) {
    Builder b = new Builder();
    b.sessionService = sessionService;
    b.artifactService = artifactService;
    b.memoryService = memoryService;
    b.invocationId = invocationId;
    b.agent = agent;
    b.session = session;
    b.userContent = userContent;
    b.runConfig = runConfig;
    b.branch = branch;
    b.plugins = plugins;
    b.telemetry = telemetry;
    b.clock = shared.clock;
    b.ids = shared.ids;
    b.timers = shared.timers;
    b.callbackContextData = callbackContextData;
    b.compaction = compaction;
    return b;
  }

  private InvocationContext copy(BaseAgent agent, @Nullable String branch) {
    Builder b = toBuilderState(telemetry);
    b.agent = agent;
    b.branch = branch;
    return new InvocationContext(b, shared);
  }

  public BaseSessionService sessionService() {
    return sessionService;
  }

  public @Nullable BaseArtifactService artifactService() {
    return artifactService;
  }

  /**
   * The memory service of the invocation, which {@code ToolContext.searchMemory} and the memory
   * tools search; empty if the runner has none.
   */
  public Optional<BaseMemoryService> memoryService() {
    return Optional.ofNullable(memoryService);
  }

  public String invocationId() {
    return invocationId;
  }

  /** The agent this context runs. */
  public BaseAgent agent() {
    return agent;
  }

  /**
   * The session copy this invocation appends its events through. Its (read-only) state is the
   * stored state as of the last append, without {@code temp:} keys; the contexts' {@code state()}
   * is the live state, pending writes included.
   */
  public Session session() {
    return session;
  }

  /**
   * The live state of the invocation, writable: the contexts wrap it in a {@code State}, which
   * records every write in the delta of the event being built; {@link #persist} brings in what an
   * append decided (values of increments, deltas of events built without a {@code State}).
   */
  ConcurrentMap<String, Object> liveState() {
    return shared.live;
  }

  public String appName() {
    return session.appName();
  }

  public String userId() {
    return session.userId();
  }

  public Optional<Content> userContent() {
    return Optional.ofNullable(userContent);
  }

  public RunConfig runConfig() {
    return runConfig;
  }

  /** The agent path of this branch, {@code parent.child}; empty at the root. */
  public Optional<String> branch() {
    return Optional.ofNullable(branch);
  }

  /**
   * The plugins of this invocation, in the order they run (the runner's; see {@link
   * dev.adk4j.plugins.BasePlugin}); empty if none.
   */
  public List<BasePlugin> plugins() {
    return plugins;
  }

  /**
   * ADK's spelling: a {@link dev.adk4j.plugins.PluginManager} over {@link #plugins()}, running
   * their hooks in order: the invocation's one plugin if that is a manager (as {@link
   * Builder#pluginManager} sets it), else a new one on each call (registering a plugin with it does
   * not add one to the invocation).
   */
  public dev.adk4j.plugins.PluginManager pluginManager() {
    if (plugins.size() == 1 && plugins.get(0) instanceof dev.adk4j.plugins.PluginManager m) {
      return m;
    }
    return new dev.adk4j.plugins.PluginManager(plugins);
  }

  /**
   * ADK for Java's scratch map of the invocation: whatever plugins and callbacks want to hand each
   * other during one invocation (a before-model callback's start time for the after-model one,
   * say). One map for the whole invocation: every agent's context, and every context made from
   * them, the callback and tool contexts' {@code invocationContext()} included, answer the same
   * map, and so does a context built with {@link #toBuilder()}. Never stored, so nothing in it
   * outlives the invocation or reaches another instance; thread-safe (a {@link ConcurrentHashMap}
   * unless {@link Builder#callbackContextData} gave another map).
   */
  public Map<String, Object> callbackContextData() {
    return callbackContextData;
  }

  /**
   * ADK for Java's {@code eventsCompactionConfig()}: the runner's {@code
   * dev.adk4j.runner.EventsCompactionConfig}, if it compacts events; empty otherwise. The agents do
   * not depend on the runner, so the value is typed by the caller: {@code
   * Optional<EventsCompactionConfig> c = ctx.eventsCompactionConfig();} compiles as in ADK, and
   * without a target type the value is a {@link CompactionSettings} (its interval and overlap).
   *
   * @param <C> the configuration's type: {@code EventsCompactionConfig} or {@link
   *     CompactionSettings}; another type fails with a {@code ClassCastException} where the value
   *     is used
   */
  @SuppressWarnings({"unchecked", "TypeParameterUnusedInFormals"})
  public <C extends CompactionSettings> Optional<C> eventsCompactionConfig() {
    return Optional.ofNullable((C) compaction);
  }

  /** Whether some step asked to end the invocation. */
  public boolean endInvocation() {
    return shared.endInvocation.get();
  }

  /** Ends the invocation after the current step. */
  public void setEndInvocation(boolean end) {
    shared.endInvocation.set(end);
  }

  /**
   * Counts one model call.
   *
   * @throws LlmCallsLimitExceededException if the call exceeds {@link RunConfig#maxLlmCalls()}
   */
  public void incrementLlmCallsCount() {
    int calls = shared.llmCalls.incrementAndGet();
    int max = runConfig.maxLlmCalls();
    if (max > 0 && calls > max) {
      throw new LlmCallsLimitExceededException(
          "Invocation "
              + invocationId
              + " of agent '"
              + agent.name()
              + "' exceeded maxLlmCalls = "
              + max);
    }
  }

  /**
   * Stores {@code event} in the session (once per event id) and returns it as stored. Partial
   * events are returned as they are, never stored. Blocks until the append completes.
   */
  public Event persist(Event event) {
    if (event.partial().orElse(false) || shared.persisted.contains(event.id())) {
      return event;
    }
    Event stored = sessionService.appendEvent(session, event).blockingGet();
    shared.persisted.add(stored.id());
    if (stored.actions().endInvocation().orElse(false)) {
      setEndInvocation(true); // ADK's EventActions.endInvocation: nothing runs after this event
    }
    takeIntoLiveState(event, stored);
    Telemetry.stateWritten(telemetry, stored);
    return stored;
  }

  /**
   * Brings the live state up to date with an appended event: its delta (which a {@code State}
   * usually wrote into the live state already: the very same values, skipped), {@code temp:} and
   * {@code secret:} keys included, with the values the store resolved for its increments.
   */
  private void takeIntoLiveState(Event event, Event stored) {
    Map<String, @Nullable Object> delta = event.actions().stateDelta();
    Map<String, @Nullable Object> storedDelta = stored.actions().stateDelta();
    ConcurrentMap<String, Object> live = shared.live;
    // forEach, not an iteration: the maps are read-only views, whose iterators wrap every entry
    if (!delta.isEmpty()) {
      delta.forEach(
          (key, value) -> {
            if (value == null) {
              live.remove(key);
            } else if (live.get(key) != value) {
              live.put(key, value);
            }
          });
    }
    Map<String, Long> increments = stored.actions().stateIncrements();
    if (!increments.isEmpty()) {
      increments.forEach(
          (key, amount) -> {
            Object value = storedDelta.get(key);
            if (value != null && live.get(key) != value) {
              live.put(key, value);
            }
          });
    }
  }

  /** Whether {@code event} was already stored through {@link #persist}. */
  public boolean isPersisted(Event event) {
    return shared.persisted.contains(event.id());
  }

  /**
   * The clock of the invocation's event timestamps (and of what else it dates); the system's UTC
   * clock unless one was given ({@code Runner.builder().clock(...)}).
   */
  public java.time.Clock clock() {
    return shared.clock;
  }

  /** Where the invocation's new ids come from ({@link IdSource#random()} unless one was given). */
  public IdSource idSource() {
    return shared.ids;
  }

  /**
   * The scheduler the invocation's timers run on, when one was given ({@code
   * Runner.builder().timerScheduler(...)}): the deadline of each model call ({@link
   * RunConfig#llmCallTimeout()}). Empty: deadlines are waited for in real time.
   */
  public java.util.Optional<io.reactivex.rxjava3.core.Scheduler> timerScheduler() {
    return java.util.Optional.ofNullable(shared.timers);
  }

  /**
   * A builder of an event of this invocation by {@code author}: its id drawn from {@link
   * #idSource()}, its timestamp from {@link #clock()}.
   */
  public Event.Builder newEvent(String author) {
    return Event.builder()
        .id(shared.ids.newEventId())
        .timestamp(shared.clock.millis())
        .invocationId(invocationId)
        .author(author);
  }

  /** Builds the root context of an invocation. */
  public static final class Builder {
    private @Nullable BaseSessionService sessionService;
    private @Nullable BaseArtifactService artifactService;
    private @Nullable BaseMemoryService memoryService;
    private @Nullable String invocationId;
    private @Nullable BaseAgent agent;
    private @Nullable Session session;
    private @Nullable Content userContent;
    private @Nullable RunConfig runConfig;
    private @Nullable String branch;
    private List<BasePlugin> plugins = List.of();
    private @Nullable Context telemetry;
    private @Nullable Map<String, Object> liveState;
    private java.time.Clock clock = java.time.Clock.systemUTC();
    private IdSource ids = IdSource.random();
    private io.reactivex.rxjava3.core.@Nullable Scheduler timers;
    private @Nullable Map<String, Object> callbackContextData;
    private @Nullable CompactionSettings compaction;
    private boolean endInvocation;

    private Builder() {}

    /**
     * ADK for Java's spelling: the map {@link InvocationContext#callbackContextData()} answers
     * (used as it is, not copied); a new {@link ConcurrentHashMap} by default.
     */
    public Builder callbackContextData(Map<String, Object> callbackContextData) {
      this.callbackContextData = Objects.requireNonNull(callbackContextData, "callbackContextData");
      return this;
    }

    /**
     * The runner's compaction configuration, which {@link
     * InvocationContext#eventsCompactionConfig()} answers (a {@code Runner} sets its own); none by
     * default. It does not make the context compact anything: the runner does.
     */
    public Builder eventsCompactionConfig(@Nullable CompactionSettings eventsCompactionConfig) {
      this.compaction = eventsCompactionConfig;
      return this;
    }

    /**
     * ADK for Java's spelling: whether the context starts ended ({@link
     * InvocationContext#endInvocation()}); false by default.
     */
    public Builder endInvocation(boolean endInvocation) {
      this.endInvocation = endInvocation;
      return this;
    }

    /** The clock of event timestamps; the system's UTC clock by default. */
    public Builder clock(java.time.Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Where new ids come from; {@link IdSource#random()} by default. */
    public Builder idSource(IdSource idSource) {
      this.ids = Objects.requireNonNull(idSource, "idSource");
      return this;
    }

    /**
     * The scheduler of the invocation's timers (each model call's deadline); none by default, and
     * deadlines are waited for in real time. A test's {@code TestScheduler} drives them.
     */
    public Builder timerScheduler(io.reactivex.rxjava3.core.@Nullable Scheduler timers) {
      this.timers = timers;
      return this;
    }

    /**
     * The plugins whose hooks run around every agent, model and tool call of the invocation, in
     * this order; none by default. A {@code Runner} sets its own.
     */
    public Builder plugins(List<? extends BasePlugin> plugins) {
      this.plugins = List.copyOf(plugins);
      return this;
    }

    /**
     * ADK's spelling: the invocation's plugins are {@code pluginManager}'s (the manager is the one
     * plugin, and {@link InvocationContext#pluginManager()} answers it).
     */
    public Builder pluginManager(dev.adk4j.plugins.PluginManager pluginManager) {
      return plugins(List.of(pluginManager));
    }

    public Builder sessionService(BaseSessionService sessionService) {
      this.sessionService = sessionService;
      return this;
    }

    public Builder artifactService(@Nullable BaseArtifactService artifactService) {
      this.artifactService = artifactService;
      return this;
    }

    /** Null: tools cannot search memory. */
    public Builder memoryService(@Nullable BaseMemoryService memoryService) {
      this.memoryService = memoryService;
      return this;
    }

    public Builder invocationId(String invocationId) {
      this.invocationId = invocationId;
      return this;
    }

    public Builder agent(BaseAgent agent) {
      this.agent = agent;
      return this;
    }

    public Builder session(Session session) {
      this.session = session;
      return this;
    }

    public Builder userContent(@Nullable Content userContent) {
      this.userContent = userContent;
      return this;
    }

    public Builder runConfig(RunConfig runConfig) {
      this.runConfig = runConfig;
      return this;
    }

    /**
     * The live state the invocation starts with, copied (no null values); by default the session's
     * state. An agent tool's child invocation starts with its caller's, {@code temp:} keys
     * included.
     */
    public Builder liveState(@Nullable Map<String, Object> liveState) {
      this.liveState = liveState;
      return this;
    }

    public Builder branch(@Nullable String branch) {
      this.branch = branch;
      return this;
    }

    public InvocationContext build() {
      Session s = Objects.requireNonNull(session, "session");
      InvocationContext ctx =
          new InvocationContext(
              this,
              new Shared(
                  new ConcurrentHashMap<>(liveState != null ? liveState : s.state()),
                  clock,
                  ids,
                  timers));
      if (endInvocation) {
        ctx.setEndInvocation(true);
      }
      return ctx;
    }
  }
}
