package dev.adk4j.runner;

import com.google.genai.types.Content;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.artifacts.BaseArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.state.Scope;
import io.reactivex.rxjava3.core.Flowable;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives an agent through invocations on sessions of one app.
 *
 * <p>{@link #runAsync} loads the session fresh from storage (so {@code temp:} values of earlier
 * invocations are gone), appends the user's message (carrying the optional state delta), runs the
 * agent, and emits its events. Each non-partial event is appended to the session <em>before</em> it
 * is emitted, so a consumer that sees an event can read its state from storage; partial (streamed)
 * events are emitted but never stored.
 *
 * <p>Concurrency and ordering: runs on one session through one {@code Runner} are serialized (a run
 * waits until the previous run on that session has finished or been cancelled), so they never see a
 * stale session. Runs on different sessions proceed in parallel. Runs on one session through two
 * runners (or two processes) are not serialized: the later append fails with {@code
 * StaleSessionException} rather than losing an update.
 */
public class Runner {
  private static final Logger log = LoggerFactory.getLogger(Runner.class);

  private final BaseAgent agent;
  private final String appName;
  private final @Nullable BaseArtifactService artifactService;
  private final BaseSessionService sessionService;
  private final Map<String, Permit> running = new ConcurrentHashMap<>();

  /**
   * @param artifactService nullable: without one, agents cannot save or load artifacts
   */
  public Runner(
      BaseAgent agent,
      String appName,
      @Nullable BaseArtifactService artifactService,
      BaseSessionService sessionService) {
    this.agent = Objects.requireNonNull(agent, "agent");
    this.appName = Objects.requireNonNull(appName, "appName");
    this.artifactService = artifactService;
    this.sessionService = Objects.requireNonNull(sessionService, "sessionService");
    if (appName.isEmpty()) {
      throw new IllegalArgumentException("appName must not be empty");
    }
  }

  public BaseAgent agent() {
    return agent;
  }

  public String appName() {
    return appName;
  }

  public BaseSessionService sessionService() {
    return sessionService;
  }

  public @Nullable BaseArtifactService artifactService() {
    return artifactService;
  }

  /** Runs one invocation with the default {@link RunConfig}. */
  public Flowable<Event> runAsync(String userId, String sessionId, @Nullable Content newMessage) {
    return runAsync(userId, sessionId, newMessage, RunConfig.builder().build());
  }

  /** Runs one invocation; see the class comment. */
  public Flowable<Event> runAsync(
      String userId, String sessionId, @Nullable Content newMessage, RunConfig runConfig) {
    return runAsync(userId, sessionId, newMessage, runConfig, null);
  }

  /**
   * Runs one invocation whose user message event also carries {@code stateDelta} (applied by scope
   * like any event's delta).
   *
   * @throws SessionNotFoundException (through the Flowable) if the session does not exist and
   *     {@link RunConfig#autoCreateSession()} is off
   */
  public Flowable<Event> runAsync(
      String userId,
      String sessionId,
      @Nullable Content newMessage,
      RunConfig runConfig,
      @Nullable Map<String, Object> stateDelta) {
    Objects.requireNonNull(userId, "userId");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(runConfig, "runConfig");
    String key = appName + '\u0000' + userId + '\u0000' + sessionId;
    return Flowable.using(
        () -> acquire(key),
        permit -> invocation(userId, sessionId, newMessage, runConfig, stateDelta),
        permit -> release(key, permit),
        false);
  }

  private Flowable<Event> invocation(
      String userId,
      String sessionId,
      @Nullable Content newMessage,
      RunConfig runConfig,
      @Nullable Map<String, Object> stateDelta) {
    Session session = loadSession(userId, sessionId, runConfig);
    InvocationContext ctx =
        InvocationContext.builder()
            .sessionService(sessionService)
            .artifactService(artifactService)
            .agent(agent)
            .session(session)
            .userContent(newMessage)
            .runConfig(runConfig)
            .build();
    log.debug(
        "Invocation {} of agent '{}' on session '{}' of user '{}' in app '{}'",
        ctx.invocationId(),
        agent.name(),
        sessionId,
        userId,
        appName);
    if (newMessage != null || (stateDelta != null && !stateDelta.isEmpty())) {
      Event userEvent =
          Event.builder()
              .invocationId(ctx.invocationId())
              .author("user")
              .content(newMessage)
              .actions(EventActions.builder().stateDelta(stateDelta).build())
              .build();
      ctx.persist(userEvent);
    }
    return agent
        .runAsync(ctx)
        .map(ctx::persist)
        .doFinally(() -> session.state().keySet().removeIf(k -> Scope.of(k) == Scope.TEMP));
  }

  private Session loadSession(String userId, String sessionId, RunConfig runConfig) {
    Session session = sessionService.getSession(appName, userId, sessionId).blockingGet();
    if (session != null) {
      return session;
    }
    if (!runConfig.autoCreateSession()) {
      throw new SessionNotFoundException(appName, userId, sessionId);
    }
    return sessionService.createSession(appName, userId, null, sessionId).blockingGet();
  }

  /** A per-session permit; counted so the map forgets sessions nobody is running. */
  private static final class Permit {
    final Semaphore semaphore = new Semaphore(1);
    int users;
  }

  private Permit acquire(String key) throws InterruptedException {
    Permit permit =
        running.compute(
            key,
            (k, p) -> {
              Permit q = p == null ? new Permit() : p;
              q.users++;
              return q;
            });
    try {
      permit.semaphore.acquire();
    } catch (InterruptedException e) {
      forget(key);
      throw e;
    }
    return permit;
  }

  private void release(String key, Permit permit) {
    permit.semaphore.release();
    forget(key);
  }

  private void forget(String key) {
    running.computeIfPresent(key, (k, p) -> --p.users == 0 ? null : p);
  }
}
