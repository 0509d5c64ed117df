package dev.adk4j.runner;

import com.google.genai.types.Content;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.IdSource;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.artifacts.BaseArtifactService;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.memory.BaseMemoryService;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionBusyException;
import dev.adk4j.sessions.SessionLease;
import dev.adk4j.sessions.SessionNotFoundException;
import io.reactivex.rxjava3.core.BackpressureStrategy;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives an agent through invocations on sessions of one app.
 *
 * <p>{@link #runAsync} waits for its turn on the session, loads it from storage (so {@code temp:}
 * values of earlier invocations are gone; see "Reads" below), appends the user's message (carrying
 * the optional state delta), runs the agent, and emits its events as they are produced. Each
 * non-partial event is appended to the session <em>before</em> it is emitted, so a consumer that
 * sees an event can read its state from storage; partial (streamed) events are emitted but never
 * stored. The invocation works on the subscribing thread, with no thread hand-off: a consumer that
 * subscribes with a callback ({@code subscribe(e -> ...)}) gets each event as it is stored, and a
 * blocking consumer ({@code blockingForEach}, {@code blockingIterable}, {@code blockingSubscribe})
 * gets them when the turn ends. A streamed run ({@link RunConfig.StreamingMode#SSE}) works on a
 * thread of its own ({@link Schedulers#io()}), so every consumer sees each partial response as it
 * arrives. Subscribe on a scheduler of your choice ({@code subscribeOn}) where the subscribing
 * thread must not block (an event loop) or a blocking consumer must see events as they come. A
 * model whose calls may block ({@link dev.adk4j.models.BaseLlm#blocksSubscriber()}) is called on a
 * thread of its own, so that {@link RunConfig#llmCallTimeout()} can abandon a call that hangs.
 *
 * <p><b>Turns on one session are serialized</b>: within this {@code Runner} on a fair in-process
 * queue, and across runners and processes by the session service's lease ({@link
 * BaseSessionService#acquireLease}), which a {@code DatabaseSessionService} keeps in the database.
 * A turn waits for the one before it for up to {@link RunConfig#maxSessionWait()}, then fails with
 * {@link SessionBusyException}. No transaction or row lock is held while the model or a tool runs.
 *
 * <p><b>Failures</b> leave a history a model accepts as it is. When an invocation fails after it
 * began (a model error, a callback or template error, {@code maxLlmCalls}, a state conflict), the
 * runner stores an error response for every function call of the invocation that has none, then a
 * final event whose {@code errorCode}/{@code errorMessage} say why the invocation ended, emits
 * them, and <b>completes normally</b>: the failure is that last event, never an error signal, so
 * every consumer sees every event (see "Consuming a run"). If those closing events cannot be stored
 * (the store failed, or another turn took the session over), the final event is emitted without
 * being stored, and the next turn closes the invocation. Only a failure before the invocation began
 * (nothing stored or emitted: an invalid id, an unknown session, a session busy past {@link
 * RunConfig#maxSessionWait()}, a store that cannot be read) is signalled as an error. A turn that
 * finds the previous invocation cut short (its process died with function calls unanswered) first
 * closes those calls the same way, with error code {@code INTERRUPTED}. A run whose subscriber
 * cancels it (disposes) stops after its current step and is closed the same way, with code {@code
 * CANCELLED}, stored but not emitted. Error codes: {@code STATE_CONFLICT}, {@code
 * LLM_CALLS_LIMIT_EXCEEDED}, {@code MODEL_ERROR}, {@code INVALID_ARGUMENT}, {@code SESSION_BUSY}
 * (the session was taken over), {@code SESSION_NOT_FOUND} (it was deleted meanwhile), {@code
 * STORE_ERROR} (the session service failed), {@code INTERRUPTED}, {@code INTERNAL_ERROR}, {@code
 * CANCELLED}.
 *
 * <p><b>Reads</b>: each turn reads the session's state (app, user and session keys) and revision.
 * For the events, a runner remembers those of the last {@value #CACHED_SESSIONS} sessions it served
 * and reads only the events appended since (by any instance), checked against the stored revision;
 * otherwise it reads them all, or, with compaction on, those from the latest compaction event on.
 *
 * <p><b>Compaction</b>: with an {@link EventsCompactionConfig}, a successful invocation that
 * completes an interval also stores a compaction event (not emitted) before the run completes; the
 * agents' models then receive the latest summary plus the events after it.
 *
 * <p><b>Consuming a run</b>: any RxJava consumer works and sees every event of the invocation,
 * because a failed invocation ends with its error event and normal completion. (RxJava's {@code
 * blockingForEach} and {@code blockingIterable} throw an error signal as soon as it arrives, even
 * with events still queued: with an error signal they could not be given every event.) A caller
 * that wants an exception checks the last event's {@code errorCode()}.
 *
 * <p><b>Plugins</b> ({@link Builder#plugins}, {@link BasePlugin}) run for every invocation: {@code
 * onUserMessage} before the message is stored (content replaces it), {@code beforeRun} before the
 * root agent (content is stored and emitted as the root agent's reply, and no agent runs), {@code
 * onEvent} for each stored event before it is emitted (a returned event is emitted in its place;
 * storage keeps the original), {@code afterRun} after a successful invocation (also after a {@code
 * beforeRun} reply), {@code onRunError} after a failed one's error events; and, through the
 * invocation context, around every agent, model and tool call, before the agents' own callbacks.
 *
 * <p><b>Closing</b> ({@link #close()}) closes the toolsets of the agent tree (the MCP sessions and
 * server processes of {@code McpToolset}s, for instance); the session, artifact and memory services
 * belong to the caller and stay open.
 *
 * <p>Its methods are final: a subclass (such as {@link InMemoryRunner}) chooses the services, never
 * how a turn reads the session, applies state deltas or stores events.
 */
public class Runner implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Runner.class);

  private final BaseAgent agent;
  private final String appName;
  private final @Nullable BaseArtifactService artifactService;
  private final BaseSessionService sessionService;
  private final @Nullable BaseMemoryService memoryService;
  private final @Nullable EventsCompactionConfig compaction;
  private final List<BasePlugin> plugins;
  private final java.time.Clock clock;
  private final IdSource idSource;
  private final io.reactivex.rxjava3.core.@Nullable Scheduler timerScheduler;

  /** One turn at a time per session within this runner. */
  final SessionTurns turns = new SessionTurns();

  /** The run configuration of the runs that give none (immutable: built once). */
  private static final RunConfig DEFAULT_RUN_CONFIG = RunConfig.builder().build();

  /** Sessions whose events this runner keeps between turns. */
  static final int CACHED_SESSIONS = 1_000;

  final SessionCache sessionCache = new SessionCache(CACHED_SESSIONS);

  /** The clock of event timestamps ({@link Builder#clock}). */
  public final java.time.Clock clock() {
    return clock;
  }

  /** Where new ids come from ({@link Builder#idSource}). */
  public final IdSource idSource() {
    return idSource;
  }

  /** The scheduler of model-call deadlines, if one was given ({@link Builder#timerScheduler}). */
  public final java.util.Optional<io.reactivex.rxjava3.core.Scheduler> timerScheduler() {
    return java.util.Optional.ofNullable(timerScheduler);
  }

  /**
   * @param artifactService nullable: without one, agents cannot save or load artifacts
   */
  public Runner(
      BaseAgent agent,
      String appName,
      @Nullable BaseArtifactService artifactService,
      BaseSessionService sessionService) {
    this(agent, appName, artifactService, sessionService, null, null, List.of());
  }

  /**
   * @param artifactService nullable: without one, agents cannot save or load artifacts
   * @param compaction nullable: without it, events are never compacted
   */
  public Runner(
      BaseAgent agent,
      String appName,
      @Nullable BaseArtifactService artifactService,
      BaseSessionService sessionService,
      @Nullable EventsCompactionConfig compaction) {
    this(agent, appName, artifactService, sessionService, null, compaction, List.of());
  }

  /**
   * ADK for Java's constructor with a memory service.
   *
   * @param artifactService nullable: without one, agents cannot save or load artifacts
   * @param memoryService nullable: without one, tools cannot search memory ({@link
   *     dev.adk4j.tools.ToolContext#searchMemory})
   */
  public Runner(
      BaseAgent agent,
      String appName,
      @Nullable BaseArtifactService artifactService,
      BaseSessionService sessionService,
      @Nullable BaseMemoryService memoryService) {
    this(agent, appName, artifactService, sessionService, memoryService, null, List.of());
  }

  /**
   * A runner with a memory service and compaction, without plugins.
   *
   * @param artifactService nullable: without one, agents cannot save or load artifacts
   * @param memoryService nullable: without one, tools cannot search memory
   * @param compaction nullable: without it, events are never compacted
   */
  public Runner(
      BaseAgent agent,
      String appName,
      @Nullable BaseArtifactService artifactService,
      BaseSessionService sessionService,
      @Nullable BaseMemoryService memoryService,
      @Nullable EventsCompactionConfig compaction) {
    this(agent, appName, artifactService, sessionService, memoryService, compaction, List.of());
  }

  /**
   * ADK for Java's constructor with a memory service and plugins. (With compaction as well, use the
   * seven-argument constructor or {@link #builder()}.)
   *
   * @param artifactService nullable: without one, agents cannot save or load artifacts
   * @param memoryService nullable: without one, tools cannot search memory
   * @param plugins the plugins of every invocation, in the order their hooks run
   */
  public Runner(
      BaseAgent agent,
      String appName,
      @Nullable BaseArtifactService artifactService,
      BaseSessionService sessionService,
      @Nullable BaseMemoryService memoryService,
      List<? extends BasePlugin> plugins) {
    this(agent, appName, artifactService, sessionService, memoryService, null, plugins);
  }

  /**
   * @param artifactService nullable: without one, agents cannot save or load artifacts
   * @param memoryService nullable: without one, tools cannot search memory
   * @param compaction nullable: without it, events are never compacted
   * @param plugins the plugins of every invocation, in the order their hooks run (see {@link
   *     BasePlugin})
   * @throws IllegalArgumentException if two plugins share a name
   */
  public Runner(
      BaseAgent agent,
      String appName,
      @Nullable BaseArtifactService artifactService,
      BaseSessionService sessionService,
      @Nullable BaseMemoryService memoryService,
      @Nullable EventsCompactionConfig compaction,
      List<? extends BasePlugin> plugins) {
    this(
        agent,
        appName,
        artifactService,
        sessionService,
        memoryService,
        compaction,
        plugins,
        java.time.Clock.systemUTC(),
        IdSource.random(),
        null);
  }

  private Runner(
      BaseAgent agent,
      String appName,
      @Nullable BaseArtifactService artifactService,
      BaseSessionService sessionService,
      @Nullable BaseMemoryService memoryService,
      @Nullable EventsCompactionConfig compaction,
      List<? extends BasePlugin> plugins,
      java.time.Clock clock,
      IdSource idSource,
      io.reactivex.rxjava3.core.@Nullable Scheduler timerScheduler) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.idSource = Objects.requireNonNull(idSource, "idSource");
    this.timerScheduler = timerScheduler;
    this.plugins = checkedPlugins(plugins);
    this.compaction = compaction;
    this.memoryService = memoryService;
    this.agent = Objects.requireNonNull(agent, "agent");
    this.appName = Objects.requireNonNull(appName, "appName");
    this.artifactService = artifactService;
    this.sessionService = Objects.requireNonNull(sessionService, "sessionService");
    requireId(appName, "appName");
  }

  /**
   * A builder, ADK for Java's other way to make a runner: {@code
   * Runner.builder().agent(agent).appName(app).sessionService(sessions).build()}. Services left
   * unset are fresh in-memory ones.
   */
  public static Builder builder() {
    return new Builder();
  }

  private static List<BasePlugin> checkedPlugins(List<? extends BasePlugin> plugins) {
    Objects.requireNonNull(plugins, "plugins");
    Set<String> names = new HashSet<>();
    for (BasePlugin p : plugins) {
      Objects.requireNonNull(p, "a plugin in plugins");
      if (!names.add(p.name())) {
        throw new IllegalArgumentException(
            "Two plugins are named '" + p.name() + "'; a runner's plugins need distinct names");
      }
    }
    return List.copyOf(plugins);
  }

  /** The session services' rule for ids: not null, not empty, not whitespace only. */
  /** The error of an ADK-style run given a {@code SessionKey} without a session id. */
  private static IllegalArgumentException noSessionId(dev.adk4j.sessions.SessionKey key) {
    return new IllegalArgumentException(
        "SessionKey of app '"
            + key.appName()
            + "' and user '"
            + key.userId()
            + "' has no session id");
  }

  private static void requireId(String id, String name) {
    if (id == null) { // the message is built only on failure: this runs on every turn
      throw new NullPointerException(name + " must not be null");
    }
    if (id.isBlank()) {
      throw new IllegalArgumentException(
          name + " must not be " + (id.isEmpty() ? "empty" : "blank, got '" + id + "'"));
    }
  }

  public final BaseAgent agent() {
    return agent;
  }

  public final String appName() {
    return appName;
  }

  public final BaseSessionService sessionService() {
    return sessionService;
  }

  public final @Nullable BaseArtifactService artifactService() {
    return artifactService;
  }

  /**
   * The memory service the invocations' tools search ({@link
   * dev.adk4j.agents.InvocationContext#memoryService()}), or null if there is none. The runner
   * never adds sessions to it: call {@link BaseMemoryService#addSessionToMemory} when a session
   * holds something worth remembering.
   */
  public final @Nullable BaseMemoryService memoryService() {
    return memoryService;
  }

  /** The plugins of this runner's invocations, in the order their hooks run. */
  public final List<BasePlugin> plugins() {
    return plugins;
  }

  /**
   * ADK's spelling: a {@link dev.adk4j.plugins.PluginManager} over {@link #plugins()}: the runner's
   * one plugin if that is a manager, else a new one on each call (registering a plugin with it does
   * not add one to the runner).
   */
  public final dev.adk4j.plugins.PluginManager pluginManager() {
    if (plugins.size() == 1 && plugins.get(0) instanceof dev.adk4j.plugins.PluginManager m) {
      return m;
    }
    return new dev.adk4j.plugins.PluginManager(plugins);
  }

  /** How this runner compacts session histories, if it does. */
  public final java.util.Optional<EventsCompactionConfig> eventsCompactionConfig() {
    return java.util.Optional.ofNullable(compaction);
  }

  /**
   * Closes every {@link dev.adk4j.tools.BaseToolset} of the agent tree (sub-agents and the agents
   * of {@link dev.adk4j.tools.AgentTool}s included), each once; a toolset that fails to close is
   * logged and the others are still closed. The services are not closed: they belong to the caller.
   * Invocations still running may fail once their toolsets are closed.
   */
  @Override
  public final void close() {
    java.util.Set<Object> seen =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    closeToolsets(agent, seen);
  }

  private static void closeToolsets(BaseAgent agent, java.util.Set<Object> seen) {
    if (!seen.add(agent)) {
      return;
    }
    if (agent instanceof dev.adk4j.agents.LlmAgent llm) {
      for (dev.adk4j.tools.BaseToolset set : llm.toolsets()) {
        if (seen.add(set)) {
          try {
            set.close();
          } catch (RuntimeException e) {
            log.warn("Toolset {} of agent '{}' failed to close", set, llm.name(), e);
          }
        }
      }
      for (dev.adk4j.tools.BaseTool t : llm.tools()) {
        if (t instanceof dev.adk4j.tools.AgentTool at) {
          closeToolsets(at.agent(), seen);
        }
      }
    }
    for (BaseAgent sub : agent.subAgents()) {
      closeToolsets(sub, seen);
    }
  }

  /** ADK for Java's form: runs one invocation on the session {@code key} names (its app aside). */
  public final Flowable<Event> runAsync(
      dev.adk4j.sessions.SessionKey key, @Nullable Content newMessage) {
    return runAsync(key, newMessage, DEFAULT_RUN_CONFIG);
  }

  /** ADK for Java's form of {@link #runAsync(String, String, Content, RunConfig)}. */
  public final Flowable<Event> runAsync(
      dev.adk4j.sessions.SessionKey key, @Nullable Content newMessage, RunConfig runConfig) {
    return runAsync(key, newMessage, runConfig, null);
  }

  /**
   * ADK for Java's form of {@link #runAsync(String, String, Content, RunConfig, Map)}: the key's
   * user and session; its app name is not checked against {@link #appName()}, as in ADK.
   */
  public final Flowable<Event> runAsync(
      dev.adk4j.sessions.SessionKey key,
      @Nullable Content newMessage,
      RunConfig runConfig,
      @Nullable Map<String, Object> stateDelta) {
    String id = key.id();
    if (id == null) {
      return Flowable.error(noSessionId(key));
    }
    return runAsync(key.userId(), id, newMessage, runConfig, stateDelta);
  }

  /** Runs one invocation with the default {@link RunConfig}. */
  public final Flowable<Event> runAsync(
      String userId, String sessionId, @Nullable Content newMessage) {
    return runAsync(userId, sessionId, newMessage, DEFAULT_RUN_CONFIG);
  }

  /** Runs one invocation; see the class comment. */
  public final Flowable<Event> runAsync(
      String userId, String sessionId, @Nullable Content newMessage, RunConfig runConfig) {
    return runAsync(userId, sessionId, newMessage, runConfig, null);
  }

  /**
   * Runs one invocation whose user message event also carries {@code stateDelta} (applied by scope
   * like any event's delta). Lazy: nothing happens until subscription.
   *
   * @throws SessionNotFoundException (through the Flowable) if the session does not exist and
   *     {@link RunConfig#autoCreateSession()} is off
   * @throws SessionBusyException (through the Flowable) if another invocation kept the session for
   *     longer than {@link RunConfig#maxSessionWait()}
   * @throws NullPointerException if {@code userId}, {@code sessionId} or {@code runConfig} is null
   * @throws IllegalArgumentException if {@code userId} or {@code sessionId} is empty or blank
   */
  public final Flowable<Event> runAsync(
      String userId,
      String sessionId,
      @Nullable Content newMessage,
      RunConfig runConfig,
      @Nullable Map<String, Object> stateDelta) {
    return run(userId, sessionId, newMessage, runConfig, stateDelta, null);
  }

  /**
   * Resumes invocation {@code invocationId} of the session, paused on a long-running call or a
   * confirmation request, by its id: ADK for Java's form, ADK for Python's {@code
   * run_async(user_id, session_id, invocation_id=..., new_message=...)}. Every adk4j app is
   * resumable (there is no {@code ResumabilityConfig} to set). The resumed run works under that
   * invocation's id, on the branch the calls were made on, from the agent that made them (through
   * its sequential parents, which go on after it), as a resuming message does (see the class
   * comment); any runner on the same store resumes it.
   *
   * <ul>
   *   <li>{@code invocationId} null: the same as {@link #runAsync(String, String, Content,
   *       RunConfig, Map)} (a message answering paused calls resumes their invocation anyway).
   *   <li>With a {@code newMessage}: it must hold the function responses answering calls of that
   *       invocation; it is stored under the invocation's id.
   *   <li>Without one: the answers are in the session already (function responses in an event
   *       authored {@code user} with the invocation's id, stored after its last agent event, for
   *       instance by {@code appendEvent} when a job finished); nothing new is stored (except an
   *       event carrying {@code stateDelta}, if given), and the agents see those answers as the
   *       invocation's message. An invocation that never paused, or went on after its answers, is
   *       not run again: the run completes with no event, as in ADK.
   * </ul>
   *
   * <p>Lazy: nothing happens until subscription.
   *
   * @throws IllegalArgumentException (through the Flowable, before anything is stored) if the
   *     session has no event of that invocation, the message answers no call of it, or the
   *     invocation still waits for answers to its paused calls; directly if an id is empty or blank
   * @throws SessionNotFoundException (through the Flowable) if the session does not exist
   */
  public final Flowable<Event> runAsync(
      String userId,
      String sessionId,
      @Nullable String invocationId,
      @Nullable Content newMessage,
      RunConfig runConfig,
      @Nullable Map<String, Object> stateDelta) {
    if (invocationId != null) {
      requireId(invocationId, "invocationId");
    }
    return run(userId, sessionId, newMessage, runConfig, stateDelta, invocationId);
  }

  private Flowable<Event> run(
      String userId,
      String sessionId,
      @Nullable Content newMessage,
      RunConfig runConfig,
      @Nullable Map<String, Object> stateDelta,
      @Nullable String resumedId) {
    requireId(userId, "userId");
    requireId(sessionId, "sessionId");
    Objects.requireNonNull(runConfig, "runConfig");
    // The span current when the run is subscribed to is the parent of the invocation's; if none
    // is (a caller that subscribes on a scheduler of its own), the one current when runAsync was
    // called.
    io.opentelemetry.context.Context assembled = io.opentelemetry.context.Context.current();
    Flowable<Event> work =
        Flowable.defer(
            () -> {
              io.opentelemetry.context.Context current = io.opentelemetry.context.Context.current();
              io.opentelemetry.context.Context caller =
                  io.opentelemetry.api.trace.Span.fromContext(current).getSpanContext().isValid()
                      ? current
                      : assembled;
              // Flowable.create(..., BUFFER), without a queue while the consumer keeps up
              return dev.adk4j.internal.EmitterFlowable.<Event>create(
                  emitter ->
                      new Invocation(
                              this, userId, sessionId, newMessage, runConfig, stateDelta, resumedId)
                          .run(emitter, caller));
            });
    // A streamed run gets a thread of its own, so that every consumer, a blocking one included,
    // sees each partial response as it arrives; any other run works on the subscribing thread.
    return runConfig.streamingMode() == RunConfig.StreamingMode.NONE
        ? work
        : work.subscribeOn(Schedulers.io());
  }

  /**
   * Runs the agent live (bidirectional streaming) on the session: the caller sends user turns and
   * realtime input (audio) through {@code queue} while the model's turns and tool calls come back
   * as events; the run ends when the queue is closed. The root agent must be an {@link
   * dev.adk4j.agents.LlmAgent} whose model has a live API ({@link dev.adk4j.models.Gemini}).
   *
   * <p>State works as in a turn: the run takes the session's turn and lease (waiting up to {@link
   * RunConfig#maxSessionWait()}) and holds them until it ends; the user's contents, the model's
   * complete turns, its function calls and the tools' responses are stored as events before they
   * are emitted, each carrying its state delta; partial pieces and realtime input are not stored;
   * {@code temp:} keys last until the run ends. A run that fails after it began (the connection
   * closed by the model's server, for instance) ends as a failed invocation does: error responses
   * for unanswered calls and a final event with {@code errorCode}/{@code errorMessage} (such as
   * {@code MODEL_ERROR}), stored and emitted, then normal completion; a subscriber that cancels
   * ends it with {@code CANCELLED} (stored, not emitted). Tool callbacks, the root agent's before-
   * and after-agent callbacks and the plugins' tool and agent hooks run as in a turn; model
   * callbacks, agent transfer and the plugins' run and event hooks do not. Lazy: nothing happens
   * until subscription; one subscription per queue.
   *
   * @throws IllegalArgumentException if the root agent is not an {@code LlmAgent}, or an id is
   *     empty or blank
   */
  public final Flowable<Event> runLive(
      String userId,
      String sessionId,
      dev.adk4j.agents.LiveRequestQueue queue,
      RunConfig runConfig) {
    requireId(userId, "userId");
    requireId(sessionId, "sessionId");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(runConfig, "runConfig");
    if (!(agent instanceof dev.adk4j.agents.LlmAgent llm)) {
      throw new IllegalArgumentException(
          "runLive needs an LlmAgent as the root agent; agent '"
              + agent.name()
              + "' of app '"
              + appName
              + "' is a "
              + agent.getClass().getSimpleName());
    }
    return Flowable.<Event>create(
            emitter ->
                new LiveInvocation(this, llm, userId, sessionId, queue, runConfig).run(emitter),
            BackpressureStrategy.BUFFER)
        .subscribeOn(Schedulers.io());
  }

  /**
   * ADK for Java's form of {@link #runLive(String, String, dev.adk4j.agents.LiveRequestQueue,
   * RunConfig)}: the key's user and session; its app name is not checked against {@link
   * #appName()}, as in ADK (and as {@link #runAsync(dev.adk4j.sessions.SessionKey, Content)}). A
   * key without a session id fails the run, naming its app and user.
   */
  public final Flowable<Event> runLive(
      dev.adk4j.sessions.SessionKey key,
      dev.adk4j.agents.LiveRequestQueue queue,
      RunConfig runConfig) {
    Objects.requireNonNull(key, "key");
    String id = key.id();
    if (id == null) {
      return Flowable.error(noSessionId(key));
    }
    return runLive(key.userId(), id, queue, runConfig);
  }

  /**
   * {@link #runLive(String, String, dev.adk4j.agents.LiveRequestQueue, RunConfig)} on {@code
   * session}'s ids (it is read afresh).
   */
  public final Flowable<Event> runLive(
      Session session, dev.adk4j.agents.LiveRequestQueue queue, RunConfig runConfig) {
    Objects.requireNonNull(session, "session");
    return runLive(session.userId(), session.id(), queue, runConfig);
  }

  /**
   * Rewinds the session to before invocation {@code beforeInvocationId}, as ADK for Python's {@code
   * rewind_async} does: appends (and returns, without emitting) one event, authored {@code user},
   * whose {@link EventActions#rewindBeforeInvocationId()} names that invocation and whose delta
   * restores the session's state to what it was before its first event; models never again see the
   * events from that invocation's first event up to the rewind event (they stay stored, for audit).
   *
   * <ul>
   *   <li>Session keys are restored: each key changed since (or created since) gets the value it
   *       had at that point, or is removed. {@code app:} and {@code user:} keys changed since are
   *       restored the same way (to their last value before, written by any session) only where no
   *       other event changed them after the undone ones (their {@code stateHistory} says so); one
   *       that another session changed later keeps that later value, and one changed meanwhile
   *       fails the rewind with a {@code StateConflictException}. {@code temp:} and {@code secret:}
   *       keys are never in events, so they are not restored.
   *   <li>Artifacts of the session (not {@code user:} ones) saved since get a new version holding
   *       the content of the version they had then; one that did not exist gets an empty version
   *       (no data), as ADK does. The rewind event's {@code artifactDelta} names those versions.
   *   <li>It takes the session's turn like an invocation (waits up to {@link
   *       RunConfig#maxSessionWait()}'s default for a running one).
   * </ul>
   *
   * @return the rewind event, as stored
   * @throws IllegalArgumentException (through the Single) if the session has no event of that
   *     invocation, naming it and the session
   * @throws SessionNotFoundException (through the Single) if the session does not exist
   */
  public final Single<Event> rewind(String userId, String sessionId, String beforeInvocationId) {
    requireId(userId, "userId");
    requireId(sessionId, "sessionId");
    requireId(beforeInvocationId, "beforeInvocationId");
    return Single.fromCallable(
            () -> {
              Duration wait = RunConfig.builder().build().maxSessionWait();
              String key = appName + '\u0000' + userId + '\u0000' + sessionId;
              long deadline = System.nanoTime() + wait.toNanos();
              SessionTurns.Permit permit = null;
              try (SessionLease lease =
                  sessionService.acquireLease(appName, userId, sessionId, wait).blockingGet()) {
                permit = turns.ifUnguarded(lease, key, deadline, w -> {});
                Session session =
                    sessionService.getSession(appName, userId, sessionId).blockingGet();
                if (session == null) {
                  throw new SessionNotFoundException(appName, userId, sessionId);
                }
                lease.attach(session);
                // A turn that crashed with calls unanswered is closed first, as a new turn would
                // close it: after the rewind it is no longer the last invocation.
                InvocationHistory.closeInterrupted(
                    session,
                    agent,
                    lease.tookOver(),
                    "a rewind",
                    e -> sessionService.appendEvent(session, e).blockingGet(),
                    idSource,
                    clock);
                Event rewind =
                    Rewinds.rewindEvent(
                        session,
                        beforeInvocationId,
                        sessionService,
                        artifactService,
                        appName,
                        idSource,
                        clock);
                Event stored = sessionService.appendEvent(session, rewind).blockingGet();
                log.debug(
                    "Rewound session '{}' of user '{}' in app '{}' to before invocation {}",
                    sessionId,
                    userId,
                    appName,
                    beforeInvocationId);
                return stored;
              } finally {
                sessionCache.forget(appName, userId, sessionId);
                turns.release(key, permit);
              }
            })
        .subscribeOn(Schedulers.io());
  }

  /**
   * Builds a {@link Runner}. The agent and app name are required; the session service defaults to a
   * new {@link InMemorySessionService}, the artifact service to a new {@link
   * InMemoryArtifactService} ({@code artifactService(null)} runs without one), the memory service
   * and compaction to none.
   */
  public static final class Builder {
    private @Nullable BaseAgent agent;
    private @Nullable String appName;
    private @Nullable BaseArtifactService artifactService = new InMemoryArtifactService();
    private BaseSessionService sessionService = new InMemorySessionService();
    private @Nullable BaseMemoryService memoryService;
    private @Nullable EventsCompactionConfig compaction;
    private List<? extends BasePlugin> plugins = List.of();
    private java.time.Clock clock = java.time.Clock.systemUTC();
    private IdSource idSource = IdSource.random();
    private io.reactivex.rxjava3.core.@Nullable Scheduler timerScheduler;

    private Builder() {}

    /**
     * The clock of every invocation's event timestamps; the system's UTC clock by default. (Session
     * expiry and leases follow the session service's clock, {@code
     * DatabaseSessionConfig.builder().clock(...)} or {@code InMemorySessionService.builder()}.)
     */
    public Builder clock(java.time.Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Where invocation, event and function call ids come from; {@link IdSource#random()} by
     * default. {@link IdSource#sequential(String)} makes runs repeatable.
     */
    public Builder idSource(IdSource idSource) {
      this.idSource = Objects.requireNonNull(idSource, "idSource");
      return this;
    }

    /**
     * The scheduler on which the deadline of each model call ({@code RunConfig.llmCallTimeout})
     * runs; none by default (the turn waits in real time). A test gives an RxJava {@code
     * TestScheduler} and moves its time instead of sleeping.
     */
    public Builder timerScheduler(io.reactivex.rxjava3.core.@Nullable Scheduler timerScheduler) {
      this.timerScheduler = timerScheduler;
      return this;
    }

    /** The plugins of every invocation, in the order their hooks run; none by default. */
    public Builder plugins(List<? extends BasePlugin> plugins) {
      this.plugins = List.copyOf(Objects.requireNonNull(plugins, "plugins"));
      return this;
    }

    /** The plugins of every invocation, in the order their hooks run; none by default. */
    public Builder plugins(BasePlugin... plugins) {
      return plugins(List.of(plugins));
    }

    public Builder agent(BaseAgent agent) {
      this.agent = Objects.requireNonNull(agent, "agent");
      return this;
    }

    public Builder appName(String appName) {
      this.appName = Objects.requireNonNull(appName, "appName");
      return this;
    }

    /** Null: agents cannot save or load artifacts. */
    public Builder artifactService(@Nullable BaseArtifactService artifactService) {
      this.artifactService = artifactService;
      return this;
    }

    public Builder sessionService(BaseSessionService sessionService) {
      this.sessionService = Objects.requireNonNull(sessionService, "sessionService");
      return this;
    }

    /** Null (the default): tools cannot search memory. */
    public Builder memoryService(@Nullable BaseMemoryService memoryService) {
      this.memoryService = memoryService;
      return this;
    }

    /** Null: events are never compacted. */
    public Builder eventsCompactionConfig(@Nullable EventsCompactionConfig compaction) {
      this.compaction = compaction;
      return this;
    }

    /**
     * @throws IllegalStateException if no agent or no app name was set
     * @throws IllegalArgumentException if the app name is empty or blank, or two plugins share a
     *     name
     */
    public Runner build() {
      if (agent == null) {
        throw new IllegalStateException("Runner.builder(): agent(...) is required");
      }
      if (appName == null) {
        throw new IllegalStateException("Runner.builder(): appName(...) is required");
      }
      return new Runner(
          agent,
          appName,
          artifactService,
          sessionService,
          memoryService,
          compaction,
          plugins,
          clock,
          idSource,
          timerScheduler);
    }
  }
}
