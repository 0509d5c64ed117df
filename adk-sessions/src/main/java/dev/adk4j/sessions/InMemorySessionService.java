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

  private InMemorySessionService(Builder b) {
    this.service =
        StoreBackedSessionService.builder(new InMemoryStore(b.clock))
            .limits(b.limits)
            .defaultTimeToLive(b.defaultTimeToLive)
            .build();
  }

  /** A builder, for expiry settings (a default time to live, a clock for tests). */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Creates a session that expires {@code timeToLive} after its last activity (by this service's
   * clock); see {@link BaseSessionService#createSession(String, String, Map, String, Duration)}.
   */
  @Override
  public Single<Session> createSession(
      String appName,
      String userId,
      @Nullable Map<String, ? extends @Nullable Object> state,
      @Nullable String sessionId,
      Duration timeToLive) {
    return service.createSession(appName, userId, state, sessionId, timeToLive);
  }

  /** Deletes expired sessions, in batches under the store's write lock, each short. */
  @Override
  public Single<SessionCleanup.Result> purgeExpired(SessionCleanup cleanup) {
    return service.purgeExpired(cleanup);
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

  /** {@inheritDoc} */
  @Override
  public Single<SessionLease> acquireLease(
      String appName,
      String userId,
      String sessionId,
      Duration maxWait,
      java.util.function.Consumer<SessionWait> onWait) {
    return service.acquireLease(appName, userId, sessionId, maxWait, onWait);
  }

  /** Builds an {@link InMemorySessionService}. Not thread-safe. */
  public static final class Builder {
    private SessionLimits limits = SessionLimits.defaults();
    private @Nullable Duration defaultTimeToLive;
    private java.time.Clock clock = java.time.Clock.systemUTC();

    private Builder() {}

    /**
     * The limits values and events are checked against. Default {@link SessionLimits#defaults()}.
     */
    public Builder limits(SessionLimits limits) {
      this.limits = java.util.Objects.requireNonNull(limits, "limits");
      return this;
    }

    /**
     * The time to live of sessions created without one; {@code null} (the default): they never
     * expire.
     *
     * @throws IllegalArgumentException if it is not positive
     */
    public Builder defaultTimeToLive(@Nullable Duration ttl) {
      this.defaultTimeToLive =
          ttl == null ? null : StoreBackedSessionService.checkTimeToLive(ttl, "defaultTimeToLive");
      return this;
    }

    /** The clock of creation times and expiry (a fixed or moving clock in tests). Default UTC. */
    public Builder clock(java.time.Clock clock) {
      this.clock = java.util.Objects.requireNonNull(clock, "clock");
      return this;
    }

    public InMemorySessionService build() {
      return new InMemorySessionService(this);
    }
  }
}
