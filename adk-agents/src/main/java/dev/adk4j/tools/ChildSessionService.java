package dev.adk4j.tools;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.ListEventsResponse;
import dev.adk4j.sessions.ListSessionsResponse;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionLimits;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The private, in-memory session store of one {@link AgentTool} call: the wrapped agent's child
 * invocation stores its events here, never in the caller's session, and this service remembers the
 * actions of every event appended (as the child built them, before storage drops {@code temp:} keys
 * and turns increments and expectations into plain values), merged in order, so that the tool can
 * hand them to the caller's {@link ToolContext} once, when the child has finished. Thrown away with
 * the call.
 */
final class ChildSessionService implements BaseSessionService {

  /**
   * The child session holds a copy of the caller's state, which the caller's store already accepted
   * under its own limits; this copy applies none of its own.
   */
  private static final SessionLimits NO_LIMITS =
      SessionLimits.of(Integer.MAX_VALUE, Integer.MAX_VALUE);

  private final InMemorySessionService delegate = new InMemorySessionService(NO_LIMITS);
  private EventActions appended = EventActions.empty();

  /** The actions of every event appended so far, merged in order of their appends. */
  synchronized EventActions appendedActions() {
    return appended;
  }

  @Override
  public Single<Event> appendEvent(Session session, Event event) {
    return delegate
        .appendEvent(session, event)
        .doOnSuccess(
            stored -> {
              if (!event.partial().orElse(false)) {
                synchronized (this) {
                  appended = appended.merge(event.actions());
                }
              }
            });
  }

  @Override
  public Single<Session> createSession(
      String appName,
      String userId,
      @Nullable Map<String, ? extends @Nullable Object> state,
      @Nullable String sessionId) {
    return delegate.createSession(appName, userId, state, sessionId);
  }

  @Override
  public Maybe<Session> getSession(
      String appName, String userId, String sessionId, Optional<GetSessionConfig> config) {
    return delegate.getSession(appName, userId, sessionId, config);
  }

  @Override
  public Single<ListSessionsResponse> listSessions(String appName, String userId) {
    return delegate.listSessions(appName, userId);
  }

  @Override
  public Completable deleteSession(String appName, String userId, String sessionId) {
    return delegate.deleteSession(appName, userId, sessionId);
  }

  @Override
  public Single<ListEventsResponse> listEvents(String appName, String userId, String sessionId) {
    return delegate.listEvents(appName, userId, sessionId);
  }

  @Override
  public String toString() {
    return "ChildSessionService{" + delegate + "}";
  }
}
