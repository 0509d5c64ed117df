package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A {@link BaseSessionService} that keeps everything in memory: fast, and lost when the process
 * ends. Use {@code DatabaseSessionService} to keep sessions across restarts. It is the {@link
 * StoreBackedSessionService} over a store of maps in this process.
 *
 * <p>Cost: a user's sessions are also kept in the order of {@code listSessions} pages (most
 * recently updated first), so that a page is found in logarithmic time and costs what it returns; a
 * session remembers where its latest compaction event is. {@code getSession} with {@code
 * afterRevision}, {@code fromLatestCompaction} or {@code numRecentEvents} and {@code listEvents}
 * pages look only at the events they return (plus, with {@code afterTimestamp}, those they skip).
 * Reading all of a session's events costs O(1): every read shares the stored, immutable events.
 *
 * <p>Concurrency: one read-write lock guards all data. Appends and creations take the write lock,
 * so each is atomic and they are linearizable; reads share the read lock and never see half an
 * append. Stored values are private, immutable copies, and every read returns fresh copies. Leases
 * ({@link #acquireLease}) are held in this process and waited for without polling.
 */
public final class InMemorySessionService implements BaseSessionService {

  private final StoreBackedSessionService service;

  /** A service with the default {@link SessionLimits}, those of a database. */
  public InMemorySessionService() {
    this(SessionLimits.defaults());
  }

  /** A service refusing values and events over {@code limits}, as a database would. */
  public InMemorySessionService(SessionLimits limits) {
    this.service = new StoreBackedSessionService(new InMemoryStore(), limits);
  }

  @Override
  public Single<Session> createSession(
      String appName,
      String userId,
      @Nullable Map<String, ? extends @Nullable Object> state,
      @Nullable String sessionId) {
    return service.createSession(appName, userId, state, sessionId);
  }

  @Override
  public Maybe<Session> getSession(
      String appName, String userId, String sessionId, Optional<GetSessionConfig> config) {
    return service.getSession(appName, userId, sessionId, config);
  }

  @Override
  public Single<ListSessionsResponse> listSessions(String appName, String userId) {
    return service.listSessions(appName, userId);
  }

  /** Reads the page only: a seek into the user's sessions kept in page order. */
  @Override
  public Single<ListSessionsResponse> listSessions(
      String appName, String userId, ListSessionsRequest request) {
    return service.listSessions(appName, userId, request);
  }

  @Override
  public Completable deleteSession(String appName, String userId, String sessionId) {
    return service.deleteSession(appName, userId, sessionId);
  }

  @Override
  public Single<ListEventsResponse> listEvents(String appName, String userId, String sessionId) {
    return service.listEvents(appName, userId, sessionId);
  }

  /** Reads the page's events only, by their index in the session's list (sequence - 1). */
  @Override
  public Single<ListEventsResponse> listEvents(
      String appName, String userId, String sessionId, ListEventsRequest request) {
    return service.listEvents(appName, userId, sessionId, request);
  }

  @Override
  public Single<Event> appendEvent(Session session, Event event) {
    return service.appendEvent(session, event);
  }

  /**
   * Reads the stored events under the read lock: the session's for a session key, those of the
   * user's (or the app's) sessions for a {@code user:} (or {@code app:}) key, ordered by the order
   * of the appends. The cost is those sessions' events.
   */
  @Override
  public Single<List<StateChange>> stateHistory(
      String appName, String userId, String sessionId, String key) {
    return service.stateHistory(appName, userId, sessionId, key);
  }

  /**
   * An in-process lease: the session's owner field, waited for on a condition of the store's lock.
   * It never expires (nothing outside this process can hold it), and is released by {@code close}.
   */
  @Override
  public Single<SessionLease> acquireLease(
      String appName, String userId, String sessionId, Duration maxWait) {
    return service.acquireLease(appName, userId, sessionId, maxWait);
  }
}
