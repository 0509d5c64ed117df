package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The {@link BaseSessionService} over a {@link SessionStore}: everything of the session contract
 * that does not depend on where data lives, once for every backend. {@link InMemorySessionService}
 * and {@code DatabaseSessionService} are this service over their stores; a new backend is this
 * service over its own {@link SessionStore}.
 *
 * <p>What it does before a store is called: checks ids (null, empty or blank ids are refused naming
 * which), generates missing session ids, normalizes state values to their JSON round trip, refuses
 * values and events over its {@link SessionLimits}, drops {@code temp:} keys, splits deltas by
 * scope and builds the event as stored (with its delta values frozen, so that the store and every
 * reader may share them). After an append it brings the caller's {@link Session} copy up to date
 * ({@code temp:} values included), under the copy's monitor, so that appends through one copy from
 * several threads each send the revision the previous one produced. Partial events are returned
 * untouched, never stored.
 *
 * <p>Every operation is lazy: the store is called when the returned source is subscribed to, on the
 * subscribing thread (a database store blocks it; subscribe on an I/O scheduler if that matters).
 * Errors, the store's included, are delivered through the source. Thread-safe if the store is.
 */
public final class StoreBackedSessionService implements BaseSessionService {

  private final SecretKeepingStore store;
  private final SessionLimits limits;
  private final @Nullable Duration defaultTimeToLive;

  /** A service over {@code store} with the default {@link SessionLimits}. */
  public StoreBackedSessionService(SessionStore store) {
    this(store, SessionLimits.defaults());
  }

  /** A service over {@code store} refusing values and events over {@code limits}. */
  public StoreBackedSessionService(SessionStore store, SessionLimits limits) {
    this(store, limits, null);
  }

  /**
   * A service over {@code store} refusing values and events over {@code limits}, keeping {@code
   * secret:} keys encrypted in the store with {@code secretKey} (AES-GCM), or in this service's
   * memory only when it is {@code null} (see {@link dev.adk4j.state.Scope#SECRET}).
   *
   * @param secretKey an AES key of 128, 192 or 256 bits, or {@code null}
   * @throws IllegalArgumentException if {@code secretKey} is not such a key
   */
  public StoreBackedSessionService(
      SessionStore store, SessionLimits limits, javax.crypto.@Nullable SecretKey secretKey) {
    this(builder(store).limits(limits).secretKey(secretKey));
  }

  private StoreBackedSessionService(Builder b) {
    this.store =
        new SecretKeepingStore(b.store, b.secretKey == null ? null : new SecretCipher(b.secretKey));
    this.limits = b.limits;
    this.defaultTimeToLive = b.defaultTimeToLive;
  }

  /** A builder of a service over {@code store}, with every setting at its default. */
  public static Builder builder(SessionStore store) {
    return new Builder(store);
  }

  @Override
  public Single<Session> createSession(
      String appName,
      String userId,
      @Nullable Map<String, ? extends @Nullable Object> state,
      @Nullable String sessionId) {
    return Appends.create(appName, userId, state, sessionId, defaultTimeToLive, limits, store);
  }

  /**
   * Creates a session that expires {@code timeToLive} after its last activity, through {@link
   * SessionStore#create(String, String, String, dev.adk4j.state.Scope.Split, Duration)}.
   */
  @Override
  public Single<Session> createSession(
      String appName,
      String userId,
      @Nullable Map<String, ? extends @Nullable Object> state,
      @Nullable String sessionId,
      Duration timeToLive) {
    return Single.defer(
        () ->
            Appends.create(
                appName,
                userId,
                state,
                sessionId,
                checkTimeToLive(timeToLive, "timeToLive"),
                limits,
                store));
  }

  /**
   * Runs {@code cleanup}: {@link SessionStore#deleteExpired} batch after batch until a batch comes
   * back short (or {@link SessionCleanup#maxBatches()}), then, with retention, {@link
   * SessionStore#trimIdleSessions} the same way. Each batch is one atomic step of the store.
   */
  @Override
  public Single<SessionCleanup.Result> purgeExpired(SessionCleanup cleanup) {
    Objects.requireNonNull(cleanup, "cleanup");
    return Single.fromCallable(
        () -> {
          int n = cleanup.batchSize();
          int expired = 0;
          int batches = 0;
          for (int i = 0; i < cleanup.maxBatches(); i++) {
            int deleted = store.deleteExpired(n).size();
            batches++;
            expired += deleted;
            if (deleted < n) {
              break;
            }
          }
          int trimmedSessions = 0;
          long trimmedEvents = 0;
          Duration idleFor = cleanup.retentionIdleFor();
          if (idleFor != null) {
            for (int i = 0; i < cleanup.maxBatches(); i++) {
              SessionStore.Trimmed t =
                  store.trimIdleSessions(idleFor, cleanup.retainLastEvents(), n);
              batches++;
              trimmedSessions += t.sessions();
              trimmedEvents += t.events();
              if (t.sessions() < n) {
                break;
              }
            }
          }
          return new SessionCleanup.Result(expired, trimmedSessions, trimmedEvents, batches);
        });
  }

  static Duration checkTimeToLive(@Nullable Duration ttl, String name) {
    Objects.requireNonNull(ttl, name);
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + ttl);
    }
    return ttl;
  }

  @Override
  public Maybe<Session> getSession(
      String appName, String userId, String sessionId, Optional<GetSessionConfig> config) {
    Objects.requireNonNull(config, "config");
    return Maybe.fromCallable(
        () -> {
          Appends.checkIds(appName, userId, sessionId);
          return store.load(appName, userId, sessionId, config.orElse(null));
        });
  }

  @Override
  public Single<ListSessionsResponse> listSessions(String appName, String userId) {
    return Single.fromCallable(
        () -> {
          Appends.checkIds(appName, userId);
          return new ListSessionsResponse(store.list(appName, userId));
        });
  }

  /** Reads one page through {@link SessionStore#listPage}: one session more than the page. */
  @Override
  public Single<ListSessionsResponse> listSessions(
      String appName, String userId, ListSessionsRequest request) {
    Objects.requireNonNull(request, "request");
    return Single.fromCallable(
        () -> {
          Appends.checkIds(appName, userId);
          SessionStore.Position after = Paging.sessionCursor(request);
          int pageSize = request.pageSize();
          return Paging.sessionsPage(
              store.listPage(appName, userId, after, pageSize + 1), pageSize);
        });
  }

  @Override
  public Completable deleteSession(String appName, String userId, String sessionId) {
    return Completable.fromAction(
        () -> {
          Appends.checkIds(appName, userId, sessionId);
          store.delete(appName, userId, sessionId);
        });
  }

  @Override
  public Single<ListEventsResponse> listEvents(String appName, String userId, String sessionId) {
    return Single.fromCallable(
        () -> {
          Appends.checkIds(appName, userId, sessionId);
          return new ListEventsResponse(store.events(appName, userId, sessionId));
        });
  }

  /** Reads one page through {@link SessionStore#eventsPage}: one event more than the page. */
  @Override
  public Single<ListEventsResponse> listEvents(
      String appName, String userId, String sessionId, ListEventsRequest request) {
    Objects.requireNonNull(request, "request");
    return Single.fromCallable(
        () -> {
          Appends.checkIds(appName, userId, sessionId);
          long bound = Paging.eventBound(request); // a malformed token fails before any read
          int n = request.pageSize();
          boolean newestFirst = request.newestFirst();
          return Paging.eventsPage(
              store.eventsPage(appName, userId, sessionId, newestFirst, bound, n + 1),
              n,
              newestFirst);
        });
  }

  @Override
  public Single<Event> appendEvent(Session session, Event event) {
    return Appends.append(session, event, limits, store);
  }

  /** Reads the history through {@link SessionStore#stateHistory}. */
  @Override
  public Single<List<StateChange>> stateHistory(
      String appName, String userId, String sessionId, String key) {
    return Single.fromCallable(
        () -> {
          Appends.checkIds(appName, userId, sessionId);
          StateHistories.checkKey(key, appName, userId, sessionId);
          return store.stateHistory(appName, userId, sessionId, key);
        });
  }

  /** Takes the lease through {@link SessionStore#acquireLease}. */
  @Override
  public Single<SessionLease> acquireLease(
      String appName, String userId, String sessionId, Duration maxWait) {
    return acquireLease(appName, userId, sessionId, maxWait, wait -> {});
  }

  /**
   * Takes the lease through {@link SessionStore#acquireLease}, reporting a wait to {@code onWait}.
   */
  @Override
  public Single<SessionLease> acquireLease(
      String appName,
      String userId,
      String sessionId,
      Duration maxWait,
      java.util.function.Consumer<SessionWait> onWait) {
    Objects.requireNonNull(maxWait, "maxWait");
    Objects.requireNonNull(onWait, "onWait");
    return Single.fromCallable(
        () -> {
          Appends.checkIds(appName, userId, sessionId);
          return store.acquireLease(appName, userId, sessionId, maxWait, onWait);
        });
  }

  /** The store's {@link SessionStore#leaseOnFirstAppend}, after checking the ids. */
  @Override
  public @Nullable SessionLease leaseOnFirstAppend(
      String appName, String userId, String sessionId) {
    Appends.checkIds(appName, userId, sessionId);
    return store.leaseOnFirstAppend(appName, userId, sessionId);
  }

  @Override
  public String toString() {
    return "StoreBackedSessionService{" + store + "}";
  }

  /** Builds a {@link StoreBackedSessionService}. Not thread-safe. */
  public static final class Builder {
    private final SessionStore store;
    private SessionLimits limits = SessionLimits.defaults();
    private javax.crypto.@Nullable SecretKey secretKey;
    private @Nullable Duration defaultTimeToLive;

    private Builder(SessionStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * The limits values and events are checked against. Default {@link SessionLimits#defaults()}.
     */
    public Builder limits(SessionLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /**
     * The AES key to store {@code secret:} keys encrypted with; {@code null} (the default) keeps
     * them in this service's memory only.
     *
     * @throws IllegalArgumentException if it is not an AES key of 128, 192 or 256 bits
     */
    public Builder secretKey(javax.crypto.@Nullable SecretKey secretKey) {
      this.secretKey = secretKey == null ? null : SecretCipher.checkKey(secretKey);
      return this;
    }

    /**
     * The time to live of sessions created without one: each expires that long after its last
     * activity (the store must support expiry). {@code null} (the default): they never expire.
     *
     * @throws IllegalArgumentException if it is not positive
     */
    public Builder defaultTimeToLive(@Nullable Duration ttl) {
      this.defaultTimeToLive = ttl == null ? null : checkTimeToLive(ttl, "defaultTimeToLive");
      return this;
    }

    public StoreBackedSessionService build() {
      return new StoreBackedSessionService(this);
    }
  }
}
