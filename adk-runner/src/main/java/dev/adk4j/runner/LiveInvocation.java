package dev.adk4j.runner;

import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LiveRequestQueue;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionLease;
import dev.adk4j.sessions.SessionNotFoundException;
import io.reactivex.rxjava3.core.FlowableEmitter;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One live run of a {@link Runner}'s agent ({@link Runner#runLive}), on a thread of its own: takes
 * the session's turn and lease as an invocation does and holds them until the run ends, reads the
 * session, runs {@link LlmAgent#runLive} with the caller's queue, stores each non-partial event
 * before emitting it, and closes a failed run as a failed invocation is closed (an error response
 * for each unanswered call, then a final event with {@code errorCode} and {@code errorMessage},
 * stored and emitted, and normal completion). Logs as {@link Runner}.
 */
final class LiveInvocation {
  private static final Logger log = LoggerFactory.getLogger(Runner.class);

  private final Runner runner;
  private final LlmAgent agent;
  private final String appName;
  private final String userId;
  private final String sessionId;
  private final LiveRequestQueue queue;
  private final RunConfig runConfig;

  /** Whether anything of the run was stored: a failure after it is closed in storage. */
  private boolean begun;

  LiveInvocation(
      Runner runner,
      LlmAgent agent,
      String userId,
      String sessionId,
      LiveRequestQueue queue,
      RunConfig runConfig) {
    this.runner = runner;
    this.agent = agent;
    this.appName = runner.appName();
    this.userId = userId;
    this.sessionId = sessionId;
    this.queue = queue;
    this.runConfig = runConfig.toBuilder().streamingMode(RunConfig.StreamingMode.BIDI).build();
  }

  void run(FlowableEmitter<Event> emitter) {
    String key = appName + '\u0000' + userId + '\u0000' + sessionId;
    long deadline = System.nanoTime() + runConfig.maxSessionWait().toNanos();
    // As a turn: the lease first (waiters are served in arrival order by the service), then,
    // for a service whose lease guards nothing, the runner's own queue.
    SessionTurns.Permit permit = null;
    BaseSessionService sessions = runner.sessionService();
    SessionLease lease = null;
    InvocationContext ctx = null;
    Throwable failure = null;
    try {
      lease = lease(sessions, runConfig.maxSessionWait());
      permit = runner.turns.ifUnguarded(lease, key, deadline, runConfig.sessionWaitListener());
      Session session = runner.sessionCache.load(sessions, appName, userId, sessionId, false);
      if (session == null) {
        throw new SessionNotFoundException(appName, userId, sessionId);
      }
      lease.attach(session);
      ctx =
          InvocationContext.builder()
              .sessionService(sessions)
              .artifactService(runner.artifactService())
              .memoryService(runner.memoryService())
              .agent(agent)
              .session(session)
              .runConfig(runConfig)
              .plugins(runner.plugins())
              .clock(runner.clock())
              .idSource(runner.idSource())
              .timerScheduler(runner.timerScheduler().orElse(null))
              .eventsCompactionConfig(runner.eventsCompactionConfig().orElse(null))
              .build();
      InvocationHistory.closeInterrupted(ctx, agent, lease.tookOver());
      begun = true;
      log.debug(
          "Live run {} of agent '{}' on session '{}' of user '{}' in app '{}'",
          ctx.invocationId(),
          agent.name(),
          sessionId,
          userId,
          appName);
      failure = forward(ctx, emitter);
    } catch (Throwable t) {
      failure = t;
    }
    try {
      if (ctx != null && begun) {
        if (emitter.isCancelled()) {
          Throwable cancelled = Invocation.cancelled();
          failure = cancelled;
          cancelled(ctx, cancelled, emitter);
        } else if (failure != null) {
          end(ctx, failure, emitter);
        }
      }
    } finally {
      // The session copy holds this run's temp: keys: the next turn reads the session afresh.
      runner.sessionCache.forget(appName, userId, sessionId);
      if (lease != null) {
        lease.close();
      }
      runner.turns.release(key, permit);
    }
    if (failure == null || begun) {
      emitter.onComplete();
    } else {
      emitter.tryOnError(failure);
    }
  }

  private SessionLease lease(BaseSessionService sessions, Duration wait) {
    return Invocation.lease(sessions, appName, userId, sessionId, runConfig, wait);
  }

  /**
   * Closes a run whose subscriber went away (the cancellation interrupts this thread, which could
   * cut the closing writes short): on a thread of its own, with code {@code CANCELLED}, nothing
   * emitted.
   */
  private void cancelled(InvocationContext ctx, Throwable failure, FlowableEmitter<Event> emitter) {
    Invocation.onOwnThread(ctx.invocationId(), () -> end(ctx, failure, emitter));
  }

  /** Runs the agent live, storing each event before emitting it; returns its failure, if any. */
  private @Nullable Throwable forward(InvocationContext ctx, FlowableEmitter<Event> emitter)
      throws InterruptedException {
    return Invocation.forward(
        agent.runLive(ctx, queue),
        emitter,
        e -> {
          Event stored = ctx.persist(e);
          if (!emitter.isCancelled()) {
            emitter.onNext(stored);
          }
        });
  }

  /** Stores and emits the events that close the run after {@code failure}. */
  private void end(InvocationContext ctx, Throwable failure, FlowableEmitter<Event> emitter) {
    String code = Invocation.errorCode(failure);
    String message = Invocation.messageOf(failure);
    String where = dev.adk4j.sessions.SessionException.describe(appName, userId, sessionId);
    if (code.equals("CANCELLED")) {
      log.info(
          "Live run {} of agent '{}' on {} was cancelled", ctx.invocationId(), agent.name(), where);
    } else {
      log.warn(
          "Live run {} of agent '{}' on {} failed ({}): {}",
          ctx.invocationId(),
          agent.name(),
          where,
          code,
          message);
    }
    List<Event> closing = InvocationHistory.close(ctx, ctx.invocationId(), agent, code, message);
    Event last = closing.get(closing.size() - 1);
    try {
      for (Event e : closing) {
        Event stored = ctx.persist(e);
        if (e == last) {
          InvocationFailedException.remember(stored, failure);
        }
        if (!emitter.isCancelled()) {
          emitter.onNext(stored);
        }
      }
    } catch (Throwable t) {
      failure.addSuppressed(t);
      log.warn("Closing live run {} on session '{}' failed", ctx.invocationId(), sessionId, t);
      InvocationFailedException.remember(last, failure);
      if (!emitter.isCancelled()) {
        emitter.onNext(
            last.toBuilder()
                .errorMessage(
                    message + " (this event could not be stored: " + Invocation.messageOf(t) + ")")
                .build());
      }
    }
  }
}
