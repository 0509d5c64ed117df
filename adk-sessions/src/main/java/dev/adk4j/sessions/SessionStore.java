package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import dev.adk4j.state.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The storage of sessions, events and state behind a {@link StoreBackedSessionService}: the small,
 * synchronous interface a session backend implements. {@link InMemorySessionService} and {@code
 * DatabaseSessionService} are that service over the stores of this module; a new backend (a key
 * value store, a document database) implements this interface and is wrapped the same way:
 *
 * <pre>{@code
 * BaseSessionService sessions = new StoreBackedSessionService(new MyStore(...), SessionLimits.defaults());
 * }</pre>
 *
 * <p><b>Division of work.</b> The service does everything that does not depend on where data lives:
 * RxJava (a call runs on the thread that subscribes), id checks, session id generation, the
 * normalization of values to their JSON round trip ({@code Json}), the size limits ({@link
 * SessionLimits}), dropping {@code temp:} keys, splitting a delta by scope, building the event as
 * stored, and updating the caller's {@link Session} copy after an append. A store gets ids that are
 * non-blank, state values that are normalized and immutable (it may keep them as they are), and
 * deltas already split into their {@code app:}, {@code user:} and session parts. It only stores and
 * reads, and keeps the rules below.
 *
 * <ul>
 *   <li><b>Scopes.</b> {@code app:} keys are shared by every user and session of the app, {@code
 *       user:} keys by one user's sessions in the app, other keys belong to one session. A
 *       session's state, as every read returns it, is the union of the three (keys keep their
 *       prefixes). Deleting a session keeps its app and user state.
 *   <li><b>Atomicity.</b> Each method is one atomic step. A creation or an append happens entirely
 *       (the session row or the event, the revision, the last update time and every key of every
 *       scope) or not at all; a read sees each append entirely or not at all.
 *   <li><b>Revisions.</b> A session is created at revision 0; each append adds 1 and the event it
 *       stores gets the new revision as its sequence number, so a session's i-th event has sequence
 *       number i. An append names the revision its caller read ({@code expectedRevision}): any
 *       other stored revision refuses it, which is how stale copies are detected (optimistic
 *       concurrency; the store never merges).
 *   <li><b>Copies.</b> Sessions a store returns belong to the caller: their state values must not
 *       be instances the store keeps (hand out {@link StoreValues#copy} of frozen values, or values
 *       parsed afresh). Events are immutable and may be shared between the store and every reader.
 *   <li><b>Threads.</b> Implementations are thread-safe; calls block the calling thread.
 *   <li><b>Errors.</b> Only the exceptions each method names, {@link IllegalArgumentException} for
 *       what the store cannot hold, and for a failure of the storage itself a {@link
 *       SessionException} saying what was being done and to which session.
 * </ul>
 *
 * <p>Only {@link #create}, {@link #load}, {@link #list}, {@link #delete} and {@link #append} are
 * required. The other methods have defaults built on them that cost what those do (a page of events
 * reads all of them); a store with an index overrides them so that a page costs what it returns,
 * and a store that several processes share overrides {@link #acquireLease}.
 *
 * <p>A backend is done when a test that extends {@code SessionServiceContract} (in the adk-sessions
 * test-jar) with {@code new StoreBackedSessionService(store, limits)} passes unchanged; see {@code
 * CONTRIBUTING.md}.
 */
public interface SessionStore {

  /**
   * Creates a session at revision 0, last updated now, and applies {@code initialState} to its
   * scopes ({@code app:} and {@code user:} keys overwrite what the app or user already had; {@code
   * null} values remove).
   *
   * @param initialState the normalized, frozen initial state, split by scope, without {@code temp:}
   *     keys
   * @return the new session with its merged state (the app's and user's keys included) and no
   *     events
   * @throws SessionAlreadyExistsException if the user already has a session with that id in the
   *     app; nothing is changed
   */
  Session create(String appName, String userId, String sessionId, Scope.Split initialState);

  /**
   * Creates a session as {@link #create(String, String, String, Scope.Split)} does, that expires
   * {@code timeToLive} after its last activity (adk4j): its creation, then each append, which
   * pushes the expiry back by {@code timeToLive}, measured by the store's clock. An expired session
   * is as if deleted for every method ({@link #load} returns null, {@link #list} and {@link
   * #listPage} leave it out, the others throw {@link SessionNotFoundException}), and creating its
   * id again makes a new session; {@link #deleteExpired} removes it. Its app and user state stay.
   *
   * <p>The default, for a store without expiry, creates a session that never expires when {@code
   * timeToLive} is null, and refuses one otherwise.
   *
   * @param timeToLive positive, or {@code null}: the session never expires
   * @throws UnsupportedOperationException if the store has no expiry and {@code timeToLive} is set
   */
  default Session create(
      String appName,
      String userId,
      String sessionId,
      Scope.Split initialState,
      @Nullable Duration timeToLive) {
    if (timeToLive != null) {
      throw new UnsupportedOperationException(
          getClass().getName()
              + " does not support session expiry: cannot create "
              + SessionException.describe(appName, userId, sessionId)
              + " with a time to live");
    }
    return create(appName, userId, sessionId, initialState);
  }

  /**
   * Deletes up to {@code limit} expired sessions (see {@link #create(String, String, String,
   * Scope.Split, Duration)}), with their events and session state, in one short atomic step, and
   * returns them; app and user state stay. A store runs this in one transaction that holds no
   * session other appends need (an expired session takes no appends). The default, for a store
   * without expiry, deletes nothing.
   *
   * @param limit at least 1
   */
  default List<SessionRef> deleteExpired(int limit) {
    return List.of();
  }

  /**
   * Retention (adk4j): in up to {@code limit} sessions whose last update is older than {@code
   * idleFor} (by the store's clock), deletes every event but the last {@code keepLast}, in one
   * short atomic step. State is untouched: it is stored apart from events, so reads of state are
   * unchanged; the remaining events keep their sequence numbers. Sessions already trimmed to {@code
   * keepLast} are not counted. The default, for a store without retention, trims nothing.
   *
   * @param keepLast at least 0
   * @param limit at least 1
   * @return the sessions trimmed and the events deleted
   */
  default Trimmed trimIdleSessions(Duration idleFor, int keepLast, int limit) {
    return new Trimmed(0, 0);
  }

  /**
   * Loads a session with its merged state and the events {@code config} selects (see {@link
   * GetSessionConfig}; {@link #selectEvents} applies it to a list of all events), in one snapshot.
   *
   * @param config which events to return; {@code null} for all of them
   * @return the session, or {@code null} if there is none
   */
  @Nullable Session load(
      String appName, String userId, String sessionId, @Nullable GetSessionConfig config);

  /**
   * All the user's sessions in the app, in ascending {@link String} order of id, each with its
   * merged state and no events; empty if there are none.
   */
  List<Session> list(String appName, String userId);

  /**
   * One page of the user's sessions in the app, with merged state and no events: up to {@code
   * limit} sessions in the order of {@link #PAGE_ORDER} (most recently updated first, ties by id in
   * code point order) that come after {@code after} in that order.
   *
   * <p>The default sorts {@link #list} and so costs what it does; a store with an index on (app,
   * user, update time, id) overrides it.
   *
   * @param after the position of the last session of the previous page; {@code null} for the first
   *     page
   * @param limit at least 1 (the service asks for one more than the page size, to learn whether
   *     there is a next page)
   */
  default List<Session> listPage(
      String appName, String userId, @Nullable Position after, int limit) {
    return Paging.followers(list(appName, userId), after, limit);
  }

  /**
   * Deletes a session, its events and its own state; its app and user state stay. Deleting a
   * session that does not exist does nothing.
   */
  void delete(String appName, String userId, String sessionId);

  /**
   * All the events of a session, oldest first. The default is {@link #load}'s events.
   *
   * @throws SessionNotFoundException if there is no such session
   */
  default List<Event> events(String appName, String userId, String sessionId) {
    Session session = load(appName, userId, sessionId, null);
    if (session == null) {
      throw new SessionNotFoundException(appName, userId, sessionId);
    }
    return session.events();
  }

  /**
   * One page of a session's events with their sequence numbers: up to {@code limit} events with a
   * sequence number above {@code bound}, oldest first, or with {@code newestFirst} below it, newest
   * first.
   *
   * <p>The default cuts the page from {@link #events}, which it reads whole; a store that can read
   * a range of sequence numbers overrides it.
   *
   * @param bound exclusive; 0 (oldest first) or {@link Long#MAX_VALUE} (newest first) for the first
   *     page
   * @param limit at least 1 (the service asks for one more than the page size)
   * @throws SessionNotFoundException if there is no such session
   */
  default List<NumberedEvent> eventsPage(
      String appName, String userId, String sessionId, boolean newestFirst, long bound, int limit) {
    return EventSelection.page(events(appName, userId, sessionId), newestFirst, bound, limit);
  }

  /**
   * Appends an event and applies its delta, in one atomic step, if the session is still at {@code
   * expectedRevision}. In order:
   *
   * <ol>
   *   <li>the session must exist ({@link SessionNotFoundException}), be at {@code expectedRevision}
   *       ({@link StaleSessionException}) and, if the store supports leases, be leased to nobody,
   *       to {@code leaseOwner}, or under an expired lease ({@link SessionBusyException});
   *   <li>it must not hold an event with the same id ({@link PendingAppend#duplicateEvent()});
   *   <li>every key of {@link PendingAppend#expected()} must hold that value in its scope, compared
   *       with {@link StoreValues#same} ({@link PendingAppend#conflict}); each key of {@link
   *       PendingAppend#increments()} gets the amount added to its stored value ({@link
   *       PendingAppend#incremented});
   *   <li>each key of {@link PendingAppend#delta()} is written to its scope ({@code null} removes),
   *       except that an incremented key gets its incremented value;
   *   <li>the event is stored ({@link PendingAppend#event()}, or {@link
   *       PendingAppend#eventWith(Map)} when increments produced values) with the new revision as
   *       its sequence number, and the session's last update time becomes {@link
   *       PendingAppend#timestamp()}.
   * </ol>
   *
   * Any exception leaves everything as it was.
   *
   * @param expectedRevision the revision of the caller's copy
   * @param leaseOwner the owner of the lease the caller's copy is attached to, if any
   * @return the new revision and the values the increments produced (empty without increments)
   * @throws SessionNotFoundException if there is no such session
   * @throws StaleSessionException if the session is at another revision
   * @throws SessionBusyException if another owner holds the session's lease
   * @throws StateConflictException if an expected key holds another value
   * @throws IllegalArgumentException if the event id is already stored in the session, or an
   *     incremented key holds something other than an integer
   */
  Appended append(PendingAppend append, long expectedRevision, @Nullable String leaseOwner);

  /**
   * Takes the session's lease, waiting up to {@code maxWait} while another holder has it (see
   * {@link SessionLease}); while it is held, {@link #append} refuses appends with another {@code
   * leaseOwner}.
   *
   * <p>The default, for a store without leases, checks that the session exists and returns {@link
   * SessionLease#none()}: invocations of one session are then not serialized, and the later of two
   * concurrent ones fails with a {@link StaleSessionException}. A store that several threads or
   * processes use at once should implement leases.
   *
   * @throws SessionNotFoundException if there is no such session
   * @throws SessionBusyException if another holder still has the lease after {@code maxWait}
   * @throws InterruptedException if interrupted while waiting
   */
  default SessionLease acquireLease(
      String appName, String userId, String sessionId, Duration maxWait)
      throws InterruptedException {
    if (load(appName, userId, sessionId, GetSessionConfig.builder().numRecentEvents(0).build())
        == null) {
      throw new SessionNotFoundException(appName, userId, sessionId);
    }
    return SessionLease.none();
  }

  /**
   * A lease taken by the first {@link #append} whose {@code leaseOwner} is its owner, in that
   * append's own atomic step, if the session's lease is free and nobody waits for it then; else
   * that append throws {@link SessionBusyException} and stores nothing (see {@link
   * BaseSessionService#leaseOnFirstAppend}). Reads and writes nothing itself. The default, for a
   * store whose leases cost no database work or that has none, is null.
   */
  default @Nullable SessionLease leaseOnFirstAppend(
      String appName, String userId, String sessionId) {
    return null;
  }

  /**
   * {@link #acquireLease(String, String, String, Duration)}, telling {@code onWait} once, on the
   * waiting thread, when the session is busy and the call has to wait (see {@link SessionWait}).
   * The default ignores {@code onWait}; a store with leases overrides this one.
   */
  default SessionLease acquireLease(
      String appName,
      String userId,
      String sessionId,
      Duration maxWait,
      java.util.function.Consumer<SessionWait> onWait)
      throws InterruptedException {
    return acquireLease(appName, userId, sessionId, maxWait);
  }

  /**
   * The history of a state key (adk4j): each change the stored events made to it, oldest first,
   * removals ({@code null} values) included. For a session key, the session's own events in their
   * order; for a {@code user:} key, the events of all the user's sessions in the app; for an {@code
   * app:} key, those of all the app's sessions. The service has checked the ids and the key (never
   * a {@code temp:} key).
   *
   * <p>The default reads the events: the session's, or for a {@code user:} key those of every
   * session of the user (ordered by event time, then session id, then sequence number, which is the
   * order of the appends as long as event times are), and throws {@link
   * UnsupportedOperationException} for an {@code app:} key, since the SPI cannot list an app's
   * users. A store with an index overrides it (as the in-memory and database stores do) so that it
   * returns the changes in the order they were applied, at the cost of the key's changes.
   *
   * @throws SessionNotFoundException if there is no such session
   */
  default List<StateChange> stateHistory(
      String appName, String userId, String sessionId, String key) {
    return StateHistories.fromEvents(this, appName, userId, sessionId, key);
  }

  // ---- helpers for implementations ----

  /**
   * The order of {@link #listPage}: most recently updated first ({@link Session#lastUpdateTime()}
   * descending), sessions updated at the same instant by id in Unicode code point order (the order
   * of their UTF-8 bytes, whatever the locale).
   */
  java.util.Comparator<Session> PAGE_ORDER = Paging.SESSION_ORDER;

  /**
   * The events of {@code config} among {@code events}, a session's whole history, oldest first (the
   * event at index i has sequence number i + 1): a view or a new list, never {@code events}
   * changed.
   *
   * @param config {@code null} for all of them
   */
  static List<Event> selectEvents(List<Event> events, @Nullable GetSessionConfig config) {
    long latestCompaction = 0;
    if (config != null && config.fromLatestCompaction()) {
      for (int i = events.size() - 1; i >= 0; i--) {
        if (events.get(i).actions().compaction().isPresent()) {
          latestCompaction = i + 1L;
          break;
        }
      }
    }
    return EventSelection.select(events, latestCompaction, config);
  }

  /**
   * Where a page of sessions ends in the order of {@link #PAGE_ORDER}: the last update time and id
   * of its last session.
   */
  record Position(Instant lastUpdateTime, String sessionId) {
    public Position {
      Objects.requireNonNull(lastUpdateTime, "lastUpdateTime");
      Objects.requireNonNull(sessionId, "sessionId");
    }
  }

  /** A session, by its app, user and id: what {@link #deleteExpired} removed. */
  record SessionRef(String appName, String userId, String sessionId) {
    public SessionRef {
      Objects.requireNonNull(appName, "appName");
      Objects.requireNonNull(userId, "userId");
      Objects.requireNonNull(sessionId, "sessionId");
    }
  }

  /** What one {@link #trimIdleSessions} step did: sessions trimmed, events deleted. */
  record Trimmed(int sessions, long events) {}

  /** A stored event and its sequence number (the revision its append produced). */
  record NumberedEvent(long seq, Event event) {
    public NumberedEvent {
      Objects.requireNonNull(event, "event");
    }
  }

  /**
   * What an append did: the session's new revision, and the value each increment produced (keyed by
   * state key; empty without increments).
   */
  record Appended(long revision, Map<String, Object> resolved) {
    public Appended {
      Objects.requireNonNull(resolved, "resolved");
    }
  }
}
