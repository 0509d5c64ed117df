package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Stores sessions, their events and their state in three scopes: {@code app:} keys shared by every
 * user and session of an app, {@code user:} keys shared by one user's sessions, and unprefixed keys
 * private to one session. {@code temp:} keys are never stored.
 *
 * <p>Contract (every implementation passes {@code SessionServiceContract}):
 *
 * <ul>
 *   <li>{@code createSession} routes initial {@code app:}/{@code user:} keys to their scopes and
 *       drops {@code temp:} keys; a null id gets a generated one; an id is unique per (app, user).
 *   <li>Every read returns the state merged from the three scopes, re-read each time, and returns
 *       copies: mutating them changes nothing stored.
 *   <li>{@code appendEvent} is atomic and linearizable per session: the event (without its {@code
 *       temp:} keys) is stored and each key of its delta applied to its scope, or nothing happens.
 *       Appending through a stale copy throws {@link StaleSessionException}.
 *   <li>Implementations are thread-safe.
 * </ul>
 *
 * <p>Operations are lazy: nothing happens until the returned source is subscribed to. Errors are
 * delivered through it.
 */
public interface BaseSessionService {

  /**
   * Creates a session.
   *
   * @param state initial state, nullable; keys are routed by prefix, {@code temp:} keys dropped
   * @param sessionId nullable; a generated id is used when null
   * @return the new session with its merged state
   * @throws SessionAlreadyExistsException (through the Single) if the id is taken for that user
   * @throws IllegalArgumentException (through the Single) for an invalid key or value
   */
  Single<Session> createSession(
      String appName,
      String userId,
      @Nullable Map<String, ? extends @Nullable Object> state,
      @Nullable String sessionId);

  /**
   * Creates a session that expires {@code timeToLive} after its last activity (adk4j): its creation
   * and then each append push the expiry back. An expired session is as if deleted: {@code
   * getSession} completes empty, {@code listSessions} leaves it out, {@code listEvents} and {@code
   * appendEvent} fail with {@link SessionNotFoundException}, and its id can be used again. {@link
   * #purgeExpired} deletes it for good (events and session state; app and user state stay).
   *
   * <p>The default refuses: a service without expiry fails with {@link
   * UnsupportedOperationException}. {@code InMemorySessionService}, {@code DatabaseSessionService}
   * and {@code StoreBackedSessionService} (over a store with expiry) support it.
   *
   * @param timeToLive positive
   * @throws IllegalArgumentException (through the Single) if {@code timeToLive} is not positive
   */
  default Single<Session> createSession(
      String appName,
      String userId,
      @Nullable Map<String, ? extends @Nullable Object> state,
      @Nullable String sessionId,
      java.time.Duration timeToLive) {
    return Single.error(
        new UnsupportedOperationException(
            getClass().getName() + " does not support session expiry (a time to live)"));
  }

  /**
   * Deletes expired sessions and, if {@code cleanup} asks for it, the old events of idle sessions
   * (adk4j), in bounded batches, each its own short transaction; see {@link SessionCleanup}. The
   * default, for a service without expiry, does nothing.
   */
  default Single<SessionCleanup.Result> purgeExpired(SessionCleanup cleanup) {
    Objects.requireNonNull(cleanup, "cleanup");
    return Single.just(SessionCleanup.Result.NONE);
  }

  /** Creates a session with no initial state and a generated id. */
  default Single<Session> createSession(String appName, String userId) {
    return createSession(appName, userId, null, null);
  }

  /**
   * Loads a session with its merged state and the events selected by {@code config}; completes
   * empty if there is no such session.
   */
  /** ADK for Java's form: creates the session {@code key} names (a null id: a new one). */
  default Single<Session> createSession(SessionKey key) {
    return createSession(key, null);
  }

  /** ADK for Java's form: creates the session {@code key} names with initial {@code state}. */
  default Single<Session> createSession(
      SessionKey key, @Nullable Map<String, ? extends @Nullable Object> state) {
    return createSession(key.appName(), key.userId(), state, key.id());
  }

  /**
   * ADK for Java's form: reads the session {@code key} names (all its events when {@code config} is
   * null).
   */
  default Maybe<Session> getSession(SessionKey key, @Nullable GetSessionConfig config) {
    return getSession(key.appName(), key.userId(), sessionId(key), Optional.ofNullable(config));
  }

  /** ADK for Java's form: lists the sessions of {@code key}'s app and user (its id is ignored). */
  default Single<ListSessionsResponse> listSessions(SessionKey key) {
    return listSessions(key.appName(), key.userId());
  }

  /** ADK for Java's form: deletes the session {@code key} names. */
  default Completable deleteSession(SessionKey key) {
    return deleteSession(key.appName(), key.userId(), sessionId(key));
  }

  /** ADK for Java's form: lists the events of the session {@code key} names. */
  default Single<ListEventsResponse> listEvents(SessionKey key) {
    return listEvents(key.appName(), key.userId(), sessionId(key));
  }

  private static String sessionId(SessionKey key) {
    String id = key.id();
    if (id == null) {
      throw new IllegalArgumentException(
          "SessionKey of app '"
              + key.appName()
              + "' and user '"
              + key.userId()
              + "' has no session id");
    }
    return id;
  }

  Maybe<Session> getSession(
      String appName, String userId, String sessionId, Optional<GetSessionConfig> config);

  /** Loads a session with all its events; completes empty if there is no such session. */
  default Maybe<Session> getSession(String appName, String userId, String sessionId) {
    return getSession(appName, userId, sessionId, Optional.empty());
  }

  /**
   * All the user's sessions in the app, in ascending order of id, with merged state and without
   * events. Its cost grows with the user's sessions; {@link #listSessions(String, String,
   * ListSessionsRequest)} reads one page.
   */
  Single<ListSessionsResponse> listSessions(String appName, String userId);

  /**
   * One page of the user's sessions in the app (adk4j), with merged state and without events: most
   * recently updated first ({@link Session#lastUpdateTime()} descending), sessions updated at the
   * same instant by id in Unicode code point order. {@link ListSessionsResponse#nextPageToken()}
   * continues the listing; it is empty on the last page.
   *
   * <p>Paging is by position (keyset), not by offset: a page costs the same whatever its place in
   * the listing and however many sessions the store holds. The listing is not a snapshot: an append
   * between two pages changes the session's update time and so its place in the order. Moved ahead
   * of the position reached (the usual case, a new event), a session not yet handed out is skipped;
   * moved behind it (an event with an earlier timestamp), one already handed out comes again.
   * Sessions created or deleted during the listing may or may not show. Every session that is not
   * appended to during the whole listing is handed out exactly once.
   *
   * <p>The default implementation pages over {@link #listSessions(String, String)} and costs what
   * it does; {@code InMemorySessionService} and {@code DatabaseSessionService} read only the page.
   *
   * @throws IllegalArgumentException (through the Single) for a malformed page token
   */
  default Single<ListSessionsResponse> listSessions(
      String appName, String userId, ListSessionsRequest request) {
    Objects.requireNonNull(request, "request");
    return Single.defer(
        () -> {
          SessionStore.Position after = Paging.sessionCursor(request);
          return listSessions(appName, userId)
              .map(all -> Paging.sessionsPageOf(all.sessions(), after, request.pageSize()));
        });
  }

  /**
   * Deletes a session and its events; app and user state stay. Deleting a session that does not
   * exist completes normally.
   */
  Completable deleteSession(String appName, String userId, String sessionId);

  /**
   * The stored events of a session, oldest first.
   *
   * @throws SessionNotFoundException (through the Single) if there is no such session
   */
  Single<ListEventsResponse> listEvents(String appName, String userId, String sessionId);

  /**
   * One page of a session's stored events (adk4j), oldest first or, with {@link
   * ListEventsRequest#newestFirst()}, newest first. {@link ListEventsResponse#nextPageToken()}
   * continues the listing; it is empty on the last page. Paging is by the events' sequence numbers
   * (the revision each append produced), so a page costs what it returns, not the session's
   * history, and events appended during an oldest-first listing show on its later pages.
   *
   * <p>The default implementation pages over {@link #listEvents(String, String, String)} and costs
   * what it does; {@code InMemorySessionService} and {@code DatabaseSessionService} read only the
   * page.
   *
   * @throws SessionNotFoundException (through the Single) if there is no such session
   * @throws IllegalArgumentException (through the Single) for a malformed page token, or one from a
   *     listing in the other order
   */
  default Single<ListEventsResponse> listEvents(
      String appName, String userId, String sessionId, ListEventsRequest request) {
    Objects.requireNonNull(request, "request");
    return Single.defer(
        () -> {
          Paging.eventBound(request); // a malformed token fails before the listing
          return listEvents(appName, userId, sessionId)
              .map(all -> Paging.eventsPageOf(all.events(), request));
        });
  }

  /**
   * Appends {@code event} to {@code session} and applies its state delta.
   *
   * <p>A partial event is returned untouched, neither applied nor stored. Otherwise, atomically:
   * the event is stored without its {@code temp:} keys, each key of its delta is applied to its
   * scope ({@code null} removes), and the session's last update time becomes the event's timestamp.
   * The passed {@code session} is then updated to match, {@code temp:} values included.
   *
   * <p>Conditions and increments ({@link dev.adk4j.events.EventActions#expectedState()}, {@link
   * dev.adk4j.events.EventActions#stateIncrements()}) are applied in the same atomic step: every
   * expected key must still hold the value it was read with, and each increment is added to the
   * stored value, the stored delta recording the result.
   *
   * @return the event as stored
   * @throws SessionNotFoundException (through the Single) if the session does not exist
   * @throws StaleSessionException (through the Single) if {@code session} is older than storage
   * @throws StateConflictException (through the Single) if an expected key has changed in storage
   * @throws SessionBusyException (through the Single) if another invocation holds the session's
   *     lease and {@code session} is not attached to it
   * @throws IllegalArgumentException (through the Single) for an invalid key or a value that cannot
   *     be serialized; nothing is stored
   */
  Single<Event> appendEvent(Session session, Event event);

  /**
   * The history of a state key (adk4j): each change stored events made to it, oldest first, as
   * {@link StateChange}s (value, event id, author, invocation id, time, and the user and session
   * whose event it was); a removal is a change whose value is {@code null}. For a session key, the
   * changes of this session; for a {@code user:} key, those of all the user's sessions in the app;
   * for an {@code app:} key, those of all the app's sessions, whatever their user. The history is
   * read from the stored events: changes of a deleted session are gone with its events, and the
   * initial state given to {@link #createSession} (not an event) is not a change.
   *
   * <p>{@code InMemorySessionService} and {@code DatabaseSessionService} return the changes in the
   * order the appends applied them, and the database reads them through an index, so the cost is
   * the key's changes, not the session's history. This default reads the events through {@link
   * #listEvents} (of every session of the user for a {@code user:} key, ordered by event time) and
   * does not support {@code app:} keys.
   *
   * @throws SessionNotFoundException (through the Single) if the session does not exist
   * @throws IllegalArgumentException (through the Single) for an invalid id or key, or a {@code
   *     temp:} key (never stored)
   * @throws UnsupportedOperationException (through the Single) for an {@code app:} key, from this
   *     default
   */
  default Single<List<StateChange>> stateHistory(
      String appName, String userId, String sessionId, String key) {
    return Single.fromCallable(
        () -> {
          Appends.checkIds(appName, userId, sessionId);
          StateHistories.checkKey(key, appName, userId, sessionId);
          return StateHistories.fromService(this, appName, userId, sessionId, key);
        });
  }

  /**
   * Takes the session's lease, waiting up to {@code maxWait} while another invocation holds it (see
   * {@link SessionLease}). The {@code Runner} takes one per invocation, so that invocations of one
   * session run one at a time across threads and processes.
   *
   * <p>The default, for services that keep nothing outside this process, returns {@link
   * SessionLease#none()}.
   *
   * @throws SessionNotFoundException (through the Single) if the session does not exist
   * @throws SessionBusyException (through the Single) if the lease is still held by another after
   *     {@code maxWait}
   */
  default Single<SessionLease> acquireLease(
      String appName, String userId, String sessionId, java.time.Duration maxWait) {
    return Single.just(SessionLease.none());
  }

  /**
   * A lease that costs no transaction of its own when the session is free (adk4j): the first append
   * through a session copy {@linkplain SessionLease#attach attached} to it takes it, in that
   * append's own transaction, if nobody holds the session's lease and nobody waits for it then. If
   * someone does (or another append came after the copy was read), that append stores nothing and
   * fails with {@link SessionBusyException} (or {@link StaleSessionException}); the caller then
   * takes the lease with {@link #acquireLease(String, String, String, java.time.Duration,
   * java.util.function.Consumer) acquireLease}, which waits in the session's queue, and reads the
   * session again. Until its first append, such a lease guards nothing and {@link
   * SessionLease#tookOver()} is false; once taken, it is renewed and fences other writers as any
   * lease; {@link SessionLease#close()} releases it, and costs nothing if no append took it. The
   * {@code Runner} starts each turn that stores a user message this way.
   *
   * <p>Nothing is read or written here. The default, for services whose leases cost no database
   * work (in memory) or that have none, is null: take the lease with {@code acquireLease}.
   *
   * @return the lease, not taken yet, or null if this service has no such leases
   */
  default @Nullable SessionLease leaseOnFirstAppend(
      String appName, String userId, String sessionId) {
    return null;
  }

  /**
   * {@link #acquireLease(String, String, String, java.time.Duration)}, telling {@code onWait} once
   * when the session is busy and this has to wait for it, and why ({@link SessionWait}: who holds
   * it, for how long). The listener runs on the waiting thread and must not block.
   *
   * <p>The default ignores {@code onWait}; the in-memory and database services report their waits.
   */
  default Single<SessionLease> acquireLease(
      String appName,
      String userId,
      String sessionId,
      java.time.Duration maxWait,
      java.util.function.Consumer<SessionWait> onWait) {
    return acquireLease(appName, userId, sessionId, maxWait);
  }
}
