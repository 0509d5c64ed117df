package dev.adk4j.runner;

import com.google.genai.types.Content;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmCallsLimitExceededException;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.artifacts.BaseArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.internal.telemetry.Telemetry;
import dev.adk4j.memory.BaseMemoryService;
import dev.adk4j.models.LlmException;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionBusyException;
import dev.adk4j.sessions.SessionLease;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.sessions.StateConflictException;
import io.opentelemetry.api.trace.Span;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.FlowableEmitter;
import io.reactivex.rxjava3.subscribers.DisposableSubscriber;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One invocation of a {@link Runner}'s agent: takes the session's lease (with the user's message,
 * in that append's transaction, when the service offers {@code leaseOnFirstAppend} and nobody holds
 * or waits for the session; else waiting in the session's queue first), reads the session, stores
 * the user's message, runs the agent while storing and emitting its events, and closes a failed
 * invocation with its error event (see {@link Runner} for the contract). Logs as {@link Runner}.
 */
final class Invocation {
  private static final Logger log = LoggerFactory.getLogger(Runner.class);

  private final Runner runner;
  private final BaseAgent agent;
  private final String appName;
  private final BaseSessionService sessionService;
  private final @Nullable BaseArtifactService artifactService;
  private final @Nullable BaseMemoryService memoryService;
  private final @Nullable EventsCompactionConfig compaction;
  private final List<BasePlugin> plugins;
  private final String userId;
  private final String sessionId;
  private final @Nullable Content newMessage;
  private final RunConfig runConfig;
  private final @Nullable Map<String, Object> stateDelta;

  /**
   * ADK's {@code callbackContextData}: one map for the invocation, however often its root context
   * is made again (a replaced user message, saved blobs, a turn that starts over).
   */
  private final Map<String, Object> callbackData = new java.util.concurrent.ConcurrentHashMap<>();

  /** The invocation this run resumes by its id; null: a new one, or the one the message answers. */
  private final @Nullable String resumedId;

  /**
   * Whether the invocation began in storage: its user message was stored (or it had none to store).
   * Until then a failure stores no closing event, which would make a turn without its message
   * (found by the history checker when the store failed under the message's append).
   */
  private boolean begun;

  /**
   * Whether storing the closing events of a failed turn failed too: the turn is left open, and its
   * lease is given up unfinished so that the next turn closes it.
   */
  private volatile boolean closingFailed;

  Invocation(
      Runner runner,
      String userId,
      String sessionId,
      @Nullable Content newMessage,
      RunConfig runConfig,
      @Nullable Map<String, Object> stateDelta) {
    this(runner, userId, sessionId, newMessage, runConfig, stateDelta, null);
  }

  /** An invocation that resumes invocation {@code resumedId} (if not null) by its id. */
  Invocation(
      Runner runner,
      String userId,
      String sessionId,
      @Nullable Content newMessage,
      RunConfig runConfig,
      @Nullable Map<String, Object> stateDelta,
      @Nullable String resumedId) {
    this.resumedId = resumedId;
    this.runner = runner;
    this.agent = runner.agent();
    this.appName = runner.appName();
    this.sessionService = runner.sessionService();
    this.artifactService = runner.artifactService();
    this.memoryService = runner.memoryService();
    this.compaction = runner.eventsCompactionConfig().orElse(null);
    this.plugins = runner.plugins();
    this.userId = userId;
    this.sessionId = sessionId;
    this.newMessage = newMessage;
    this.runConfig = runConfig;
    this.stateDelta = stateDelta;
  }

  void run(FlowableEmitter<Event> emitter, io.opentelemetry.context.Context caller) {
    // Whatever fails here, even an Error RxJava would treat as fatal and never deliver (a
    // NoSuchMethodError from a mismatched library), ends the subscriber's flow below.
    Span span = null;
    Throwable terminal;
    try {
      String invocationId = runner.idSource().newInvocationId();
      span = Telemetry.startInvocation(caller, appName, sessionId, invocationId, agent.name());
      // Current on this thread for the whole invocation: the root context's spans are its
      // children.
      try (io.opentelemetry.context.Scope scope = span.makeCurrent()) {
        terminal = runInSpan(emitter, invocationId, span);
      }
    } catch (Throwable t) {
      terminal = t;
    }
    if (span != null) {
      if (terminal != null) {
        Telemetry.fail(span, terminal);
      }
      span.end();
    }
    // Signalled only now, with the lease released: a caller may close the service or start
    // the next turn as soon as it sees the end of the run. An invocation that began ends
    // normally even when it failed: its last event says why (errorCode, errorMessage), and
    // every consumer, RxJava's fail-fast blocking iterators included, sees all its events.
    // Only a failure before anything was stored or emitted is signalled as an error.
    if (terminal == null || begun) {
      emitter.onComplete();
    } else {
      emitter.tryOnError(terminal);
    }
  }

  /**
   * The invocation itself, under its span: emits its events and returns what ended it, or null if
   * it succeeded; the lease (and the permit of a service without leases) is released when it
   * returns.
   */
  private @Nullable Throwable runInSpan(
      FlowableEmitter<Event> emitter, String newInvocationId, Span span) {
    String key = null; // the session's key in the runner's queue: a service without leases only
    long deadline = System.nanoTime() + runConfig.maxSessionWait().toNanos();
    SessionTurns.Permit permit = null;
    SessionLease lease = null;
    Session session = null;
    InvocationContext ctx = null;
    boolean succeeded = false;
    Throwable terminal = null;
    try {
      // A turn that stores a message first takes a free lease with that append, in its
      // transaction: no transaction of its own. If the session is busy, or someone waits for it,
      // that append stores nothing and the turn waits in the session's queue, then starts again.
      boolean storesFirst = newMessage != null || (stateDelta != null && !stateDelta.isEmpty());
      SessionLease onFirstAppend =
          storesFirst ? sessionService.leaseOnFirstAppend(appName, userId, sessionId) : null;
      lease = onFirstAppend != null ? onFirstAppend : lease(runConfig.maxSessionWait());
      if ("none".equals(lease.owner())) {
        key = appName + '\u0000' + userId + '\u0000' + sessionId;
        permit = runner.turns.ifUnguarded(lease, key, deadline, runConfig.sessionWaitListener());
      }
      Resumption resume = null;
      boolean userMessageCallbacksRan = false;
      Content userMessage = null; // as a plugin replaced it
      InputBlobs.Saved savedBlobs = null; // RunConfig.saveInputBlobsAsArtifacts
      while (true) {
        session =
            runner.sessionCache.load(
                sessionService, appName, userId, sessionId, compaction != null);
        if (session == null) {
          if (lease == onFirstAppend) {
            // Created here if allowed (RunConfig.autoCreateSession), else SessionNotFoundException.
            lease.close();
            lease = lease(untilDeadline(deadline));
            continue;
          }
          throw new SessionNotFoundException(appName, userId, sessionId);
        }
        lease.attach(session);
        long readRevision = session.revision();
        try {
          // A message answering calls the session's last invocations paused on resumes that
          // invocation: checked before anything is stored, so a wrong answer changes nothing.
          resume =
              resumedId == null
                  ? Resumption.of(agent, session, newMessage, appName, userId)
                  : Resumption.byId(agent, session, resumedId, newMessage, appName, userId);
          if (resumedId != null && resume == null) {
            // ADK's no-op: the invocation finished (or went on after its answers) already
            succeeded = true;
            return null;
          }
          String invocationId = newInvocationId;
          if (resume != null) {
            invocationId = resume.invocationId(newInvocationId);
            Telemetry.resumed(span, invocationId);
          }
          Content answers = resume == null ? null : resume.answers();
          ctx =
              newContext(session, newMessage == null ? answers : newMessage, invocationId, resume);
          InvocationHistory.closeInterrupted(ctx, agent, lease.tookOver());
          Content message = newMessage;
          if (message != null) {
            if (!userMessageCallbacksRan) {
              // Once per invocation: a turn that starts over keeps the message they gave.
              // indexed: no iterator per loop (these lists are usually empty)
              for (int pi = 0; pi < plugins.size(); pi++) {
                BasePlugin p = plugins.get(pi);
                Content replaced = p.onUserMessageCallback(ctx, message).blockingGet();
                if (replaced != null) {
                  userMessage = replaced;
                  break;
                }
              }
              userMessageCallbacksRan = true;
            }
            if (userMessage != null) {
              message = userMessage;
              ctx = newContext(session, message, ctx.invocationId(), resume);
            }
          }
          log.debug(
              "Invocation {} of agent '{}' on session '{}' of user '{}' in app '{}'",
              ctx.invocationId(),
              agent.name(),
              sessionId,
              userId,
              appName);
          EventActions userActions =
              stateDelta == null || stateDelta.isEmpty()
                  ? EventActions.empty()
                  : EventActions.builder().stateDelta(stateDelta).build();
          if (message != null && runConfig.saveInputBlobsAsArtifacts()) {
            // ADK's saveInputBlobsAsArtifacts: once per invocation (a turn that starts over keeps
            // what was saved), then the model sees the message with the blobs named, not held.
            if (savedBlobs == null) {
              savedBlobs =
                  InputBlobs.save(
                      artifactService, appName, userId, sessionId, ctx.invocationId(), message);
            }
            if (savedBlobs != null) {
              message = savedBlobs.message();
              ctx = newContext(session, message, ctx.invocationId(), resume);
              userActions =
                  userActions.toBuilder().artifactDelta(savedBlobs.artifactDelta()).build();
            }
          }
          if (message != null || (stateDelta != null && !stateDelta.isEmpty())) {
            ctx.persist(ctx.newEvent("user").content(message).actions(userActions).build());
          }
          break;
        } catch (SessionBusyException | dev.adk4j.sessions.StaleSessionException e) {
          if (lease != onFirstAppend || session.revision() != readRevision) {
            throw e;
          }
          // The first append could not take the lease: another invocation holds it or waits for
          // it, or stored an event since the session was read. Nothing of this one is stored:
          // it queues for the lease, then reads the session again and starts over.
          log.debug(
              "Invocation on session '{}' of user '{}' in app '{}' waits for the lease: {}",
              sessionId,
              userId,
              appName,
              e.getMessage());
          ctx = null;
          lease.close();
          runner.sessionCache.forget(appName, userId, sessionId);
          lease = lease(untilDeadline(deadline));
        }
      }
      begun = true;
      Throwable failure =
          beforeRun(ctx, emitter)
              ? null
              : runAgent(resume == null ? agent : resume.start(), ctx, emitter);
      if (failure == null && emitter.isCancelled()) {
        failure = cancelled();
      }
      if (failure == null) {
        // indexed: no iterator per loop (these lists are usually empty)
        for (int pi = 0; pi < plugins.size(); pi++) {
          BasePlugin p = plugins.get(pi);
          p.afterRunCallback(ctx).blockingAwait();
        }
        succeeded = true;
        if (compaction != null) {
          // Stored (not emitted) before the run completes, so the next turn and any reader
          // after completion see it.
          Compactions.compactIfDue(ctx, agent, compaction);
        }
      } else {
        end(ctx, failure, emitter);
        terminal = failure;
      }
    } catch (Throwable t) {
      // A subscriber that goes away interrupts this thread (RxJava's subscribeOn), which may
      // surface here as whatever the interrupted step threw: the invocation was cancelled.
      Throwable failure = emitter.isCancelled() ? cancelled() : t;
      if (ctx != null) {
        end(ctx, failure, emitter);
      }
      terminal = failure;
    } finally {
      if (session != null) {
        // the copy holds stored state only (no temp: keys): the next turn may start from it
        if (succeeded) {
          runner.sessionCache.remember(session, compaction);
        } else {
          runner.sessionCache.forget(appName, userId, sessionId);
        }
      }
      if (lease != null) {
        if (begun && !succeeded && (closingFailed || terminal instanceof InterruptedException)) {
          // Its turn is left open: the next holder is told to close it (tookOver)
          lease.closeUnfinished();
        } else {
          lease.close();
        }
      }
      if (key != null) {
        runner.turns.release(key, permit);
      }
    }
    return terminal;
  }

  /**
   * The root context (of the agent that resumes, on its branch, when {@code resume} is set); built
   * on the invocation's thread, under its span.
   */
  private InvocationContext newContext(
      Session session,
      @Nullable Content message,
      String invocationId,
      @Nullable Resumption resume) {
    return InvocationContext.builder()
        .sessionService(sessionService)
        .artifactService(artifactService)
        .memoryService(memoryService)
        .agent(agent)
        .session(session)
        .userContent(message)
        .runConfig(runConfig)
        .plugins(plugins)
        .invocationId(invocationId)
        .agent(resume == null ? agent : resume.start())
        .branch(resume == null ? null : resume.branch())
        .clock(runner.clock())
        .idSource(runner.idSource())
        .timerScheduler(runner.timerScheduler().orElse(null))
        .eventsCompactionConfig(compaction)
        .callbackContextData(callbackData)
        .build();
  }

  /**
   * Runs the plugins' before-run hooks; the first content ends the invocation: it is stored and
   * emitted as the root agent's reply, and true is returned.
   */
  private boolean beforeRun(InvocationContext ctx, FlowableEmitter<Event> emitter) {
    // indexed: no iterator per loop (these lists are usually empty)
    for (int pi = 0; pi < plugins.size(); pi++) {
      BasePlugin p = plugins.get(pi);
      Content reply = p.beforeRunCallback(ctx).blockingGet();
      if (reply != null) {
        Event stored = ctx.persist(ctx.newEvent(agent.name()).content(reply).build());
        emit(ctx, stored, emitter);
        return true;
      }
    }
    return false;
  }

  /** Emits a stored event, as the plugins' on-event hooks may replace it. */
  private void emit(InvocationContext ctx, Event stored, FlowableEmitter<Event> emitter) {
    Event out = stored;
    // indexed: no iterator per loop (these lists are usually empty)
    for (int pi = 0; pi < plugins.size(); pi++) {
      BasePlugin p = plugins.get(pi);
      Event replaced = p.onEventCallback(ctx, stored).blockingGet();
      if (replaced != null) {
        out = replaced;
        break;
      }
    }
    if (!emitter.isCancelled()) {
      emitter.onNext(out);
    }
  }

  /** What is left of the wait for the session until {@code deadline} ({@link System#nanoTime}). */
  private static Duration untilDeadline(long deadline) {
    return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
  }

  /** Takes the session's lease, creating the session first if it is missing and allowed to. */
  private SessionLease lease(Duration wait) {
    return lease(sessionService, appName, userId, sessionId, runConfig, wait);
  }

  /**
   * Takes a session's lease for a turn or a live run, creating the session first if it is missing
   * and {@link RunConfig#autoCreateSession()} allows it.
   */
  static SessionLease lease(
      BaseSessionService sessions,
      String appName,
      String userId,
      String sessionId,
      RunConfig runConfig,
      Duration wait) {
    try {
      return sessions
          .acquireLease(appName, userId, sessionId, wait, runConfig.sessionWaitListener())
          .blockingGet();
    } catch (SessionNotFoundException e) {
      if (!runConfig.autoCreateSession()) {
        throw e;
      }
      try {
        sessions.createSession(appName, userId, null, sessionId).blockingGet();
      } catch (dev.adk4j.sessions.SessionAlreadyExistsException raced) {
        // another instance created it first: fine
      }
      return sessions
          .acquireLease(appName, userId, sessionId, wait, runConfig.sessionWaitListener())
          .blockingGet();
    }
  }

  /**
   * Runs the agent, forwarding its events (each stored already: an agent's runAsync stores each
   * event before it emits it) as they come; returns its failure, if any.
   */
  private @Nullable Throwable runAgent(
      BaseAgent start, InvocationContext ctx, FlowableEmitter<Event> emitter)
      throws InterruptedException {
    return forward(
        start.runAsync(ctx),
        emitter,
        e -> {
          if (e.partial().orElse(false)) {
            if (!emitter.isCancelled()) {
              emitter.onNext(e);
            }
          } else {
            emit(ctx, e, emitter);
          }
        });
  }

  /**
   * Subscribes to {@code events} and hands each to {@code onEvent} until they end, {@code onEvent}
   * fails or the run's subscriber cancels (which disposes the subscription); returns the failure,
   * if any. Used by turns and live runs.
   */
  static @Nullable Throwable forward(
      Flowable<Event> events,
      FlowableEmitter<Event> emitter,
      io.reactivex.rxjava3.functions.Consumer<Event> onEvent)
      throws InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    Throwable[] failure = new Throwable[1];
    DisposableSubscriber<Event> forward =
        new DisposableSubscriber<>() {
          @Override
          public void onNext(Event e) {
            try {
              onEvent.accept(e);
            } catch (Throwable t) {
              failure[0] = t;
              dispose();
              done.countDown();
            }
          }

          @Override
          public void onError(Throwable t) {
            failure[0] = t;
            done.countDown();
          }

          @Override
          public void onComplete() {
            done.countDown();
          }
        };
    // Set before subscribing: the agent may run on this thread, inside subscribe.
    emitter.setCancellable(
        () -> {
          forward.dispose();
          done.countDown();
        });
    events.subscribe(forward);
    done.await();
    return failure[0];
  }

  /**
   * Leaves a history a model accepts after {@code failure}: an error response for every unanswered
   * function call of the invocation, then an event saying why it ended. Nothing is written when the
   * session is leased to someone else (this invocation lost it).
   */
  private void end(InvocationContext ctx, Throwable failure, FlowableEmitter<Event> emitter) {
    if (!begun) {
      return; // nothing of this invocation is stored: there is nothing to close
    }
    if (failure instanceof SessionBusyException
        || failure instanceof dev.adk4j.sessions.StaleSessionException
        || failure instanceof InterruptedException) {
      // The session is no longer this invocation's (another turn took it over), or its thread
      // was told to stop: nothing more is stored, and the caller is told why in an event that
      // is not stored.
      String code = errorCode(failure);
      String message = messageOf(failure);
      log.warn(
          "Invocation {} of agent '{}' on {} stopped ({}): {}",
          ctx.invocationId(),
          agent.name(),
          dev.adk4j.sessions.SessionException.describe(appName, userId, sessionId),
          code,
          message);
      List<Event> closing = InvocationHistory.close(ctx, ctx.invocationId(), agent, code, message);
      emitUnstored(ctx, closing.get(closing.size() - 1), failure, emitter);
      return;
    }
    if (failure instanceof CancellationException) {
      onOwnThread(ctx.invocationId(), () -> close(ctx, failure, emitter));
      return;
    }
    close(ctx, failure, emitter);
  }

  /**
   * Runs the closing writes of a run whose subscriber went away. Its cancellation interrupts this
   * thread (now or in a moment), which could cut those writes short, so they run on a thread of
   * their own (a new one: the io() pool may hand back this very thread, whose worker was just
   * released), waited for whatever interrupts come; the lease is released next, and an interrupted
   * thread could fail to release it.
   */
  static void onOwnThread(String invocationId, Runnable closing) {
    Thread.interrupted();
    Thread closer = new Thread(closing, "adk4j-close-" + invocationId);
    closer.setDaemon(true);
    closer.start();
    while (closer.isAlive()) {
      try {
        closer.join();
      } catch (InterruptedException e) {
        // the cancellation's interrupt, which this closing answers
      }
    }
    Thread.interrupted();
  }

  /** {@link #end}'s writes: the closing events, stored and emitted, then the plugins' hooks. */
  private void close(InvocationContext ctx, Throwable failure, FlowableEmitter<Event> emitter) {
    String code = errorCode(failure);
    String message = messageOf(failure);
    String where = dev.adk4j.sessions.SessionException.describe(appName, userId, sessionId);
    boolean cancelled = failure instanceof CancellationException;
    if (cancelled) {
      log.info(
          "Invocation {} of agent '{}' on {} was cancelled",
          ctx.invocationId(),
          agent.name(),
          where);
    } else if (code.equals("INTERNAL_ERROR")) {
      log.warn(
          "Invocation {} of agent '{}' on {} failed ({}): {}",
          ctx.invocationId(),
          agent.name(),
          where,
          code,
          message,
          failure);
    } else {
      log.warn(
          "Invocation {} of agent '{}' on {} failed ({}): {}",
          ctx.invocationId(),
          agent.name(),
          where,
          code,
          message);
    }
    List<Event> closing = InvocationHistory.close(ctx, ctx.invocationId(), agent, code, message);
    Event last = closing.get(closing.size() - 1);
    boolean lastEmitted = false;
    try {
      for (Event e : closing) {
        Event stored = ctx.persist(e);
        if (e == last) {
          InvocationFailedException.remember(stored, failure);
        }
        emit(ctx, stored, emitter);
        lastEmitted = e == last;
      }
      for (BasePlugin p : plugins) {
        p.onRunErrorCallback(ctx, failure).blockingAwait();
      }
    } catch (Throwable t) {
      closingFailed = true;
      failure.addSuppressed(t);
      log.warn(
          "Closing {} invocation {} on {} failed; the next turn closes it",
          cancelled ? "cancelled" : "failed",
          ctx.invocationId(),
          where,
          t);
      if (!lastEmitted) {
        // The caller still learns why the invocation ended, from an event that is not stored.
        emitUnstored(
            ctx,
            last.toBuilder()
                .errorMessage(message + " (this event could not be stored: " + messageOf(t) + ")")
                .build(),
            failure,
            emitter);
      }
    }
  }

  /**
   * Emits the final event of an invocation whose closing events cannot be stored (the only emitted
   * non-partial events that are not stored).
   */
  private void emitUnstored(
      InvocationContext ctx, Event last, Throwable failure, FlowableEmitter<Event> emitter) {
    InvocationFailedException.remember(last, failure);
    try {
      emit(ctx, last, emitter);
    } catch (Throwable t) {
      log.warn("A plugin failed on the final event of invocation {}", ctx.invocationId(), t);
      if (!emitter.isCancelled()) {
        emitter.onNext(last);
      }
    }
  }

  /** What ends an invocation whose subscriber cancelled it: its final event says CANCELLED. */
  static CancellationException cancelled() {
    return new CancellationException(
        "the invocation was cancelled: its caller stopped listening (a client that went away, or a"
            + " server that is stopping)");
  }

  /** The message of {@code t}, or its class and description if it has none. */
  static String messageOf(Throwable t) {
    return t.getMessage() != null ? t.getMessage() : t.toString();
  }

  /** The {@code errorCode} of the final event of an invocation that failed with {@code t}. */
  static String errorCode(Throwable t) {
    if (t instanceof CancellationException) {
      return "CANCELLED";
    }
    if (t instanceof InterruptedException) {
      return "INTERRUPTED";
    }
    if (t instanceof StateConflictException) {
      return "STATE_CONFLICT";
    }
    if (t instanceof SessionBusyException
        || t instanceof dev.adk4j.sessions.StaleSessionException) {
      return "SESSION_BUSY";
    }
    if (t instanceof SessionNotFoundException) {
      return "SESSION_NOT_FOUND";
    }
    if (t instanceof dev.adk4j.sessions.SessionException) {
      return "STORE_ERROR";
    }
    if (t instanceof LlmCallsLimitExceededException) {
      return "LLM_CALLS_LIMIT_EXCEEDED";
    }
    if (t instanceof LlmException) {
      return "MODEL_ERROR";
    }
    if (t instanceof IllegalArgumentException) {
      return "INVALID_ARGUMENT";
    }
    return "INTERNAL_ERROR";
  }
}
