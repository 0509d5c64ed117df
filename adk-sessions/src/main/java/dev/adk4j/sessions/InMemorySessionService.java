package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import dev.adk4j.state.Json;
import dev.adk4j.state.Scope;
import dev.adk4j.state.State;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jspecify.annotations.Nullable;

/**
 * A {@link BaseSessionService} that keeps everything in memory: fast, and lost when the process
 * ends. Use {@code DatabaseSessionService} to keep sessions across restarts.
 *
 * <p>Cost: a user's sessions are also kept in the order of {@code listSessions} pages (most
 * recently updated first), so that a page is found in logarithmic time and costs what it returns; a
 * session remembers where its latest compaction event is. {@code getSession} with {@code
 * afterRevision}, {@code fromLatestCompaction} or {@code numRecentEvents} and {@code listEvents}
 * pages look only at the events they return (plus, with {@code afterTimestamp}, those they skip).
 *
 * <p>Concurrency: one read-write lock guards all data. Appends and creations take the write lock,
 * so each is atomic and they are linearizable; reads share the read lock and never see half an
 * append. Stored values are private copies, and every read returns fresh copies.
 */
public final class InMemorySessionService implements BaseSessionService {

  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private final Map<String, AppData> apps = new HashMap<>();
  private final SessionLimits limits;

  /** A service with the default {@link SessionLimits}, those of a database. */
  public InMemorySessionService() {
    this(SessionLimits.defaults());
  }

  /** A service refusing values and events over {@code limits}, as a database would. */
  public InMemorySessionService(SessionLimits limits) {
    this.limits = java.util.Objects.requireNonNull(limits, "limits");
  }

  private static final class AppData {
    final Map<String, Object> state = new HashMap<>();
    final Map<String, UserData> users = new HashMap<>();
  }

  private static final class UserData {
    final Map<String, Object> state = new HashMap<>();
    final Map<String, StoredSession> sessions = new TreeMap<>();

    /** The same sessions in the order of {@code listSessions} pages. */
    final NavigableSet<Paging.SessionCursor> byUpdate = new TreeSet<>(Paging.CURSOR_ORDER);
  }

  private static final class StoredSession {
    final Map<String, Object> state = new HashMap<>();

    /** Immutable events (their delta values frozen), shared with every copy read. */
    final EventLog events = EventLog.empty();

    /** The ids of {@link #events}: an id is stored once per session. */
    final java.util.Set<String> eventIds = new java.util.HashSet<>();

    Instant lastUpdateTime;
    long revision;

    /** The revision (= 1 + list index) of the latest compaction event; 0 if there is none. */
    long lastCompactionSeq;

    @Nullable String leaseOwner;

    StoredSession(Instant created) {
      this.lastUpdateTime = created;
    }
  }

  @Override
  public Single<Session> createSession(
      String appName,
      String userId,
      @Nullable Map<String, ? extends @Nullable Object> state,
      @Nullable String sessionId) {
    return Appends.create(appName, userId, state, sessionId, limits, this::create);
  }

  private Session create(String appName, String userId, String id, Scope.Split initial) {
    lock.writeLock().lock();
    try {
      AppData app = apps.computeIfAbsent(appName, k -> new AppData());
      UserData user = app.users.computeIfAbsent(userId, k -> new UserData());
      if (user.sessions.containsKey(id)) {
        throw new SessionAlreadyExistsException(appName, userId, id);
      }
      StoredSession stored = new StoredSession(Instant.now());
      apply(app.state, initial.app());
      apply(user.state, initial.user());
      apply(stored.state, initial.session());
      user.sessions.put(id, stored);
      user.byUpdate.add(new Paging.SessionCursor(stored.lastUpdateTime, id));
      return toSession(appName, userId, id, app, user, stored, List.of());
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public Maybe<Session> getSession(
      String appName, String userId, String sessionId, Optional<GetSessionConfig> config) {
    Objects.requireNonNull(config, "config");
    return Maybe.fromCallable(
        () -> {
          Appends.checkIds(appName, userId, sessionId);
          lock.readLock().lock();
          try {
            AppData app = apps.get(appName);
            UserData user = app == null ? null : app.users.get(userId);
            StoredSession stored = user == null ? null : user.sessions.get(sessionId);
            if (stored == null) {
              return null;
            }
            return toSession(
                appName,
                userId,
                sessionId,
                app,
                user,
                stored,
                select(stored.events.snapshot(), stored.lastCompactionSeq, config));
          } finally {
            lock.readLock().unlock();
          }
        });
  }

  @Override
  public Single<ListSessionsResponse> listSessions(String appName, String userId) {
    return Single.fromCallable(
        () -> {
          Appends.checkIds(appName, userId);
          lock.readLock().lock();
          try {
            AppData app = apps.get(appName);
            UserData user = app == null ? null : app.users.get(userId);
            List<Session> sessions = new ArrayList<>();
            if (user != null) {
              user.sessions.forEach(
                  (id, stored) ->
                      sessions.add(toSession(appName, userId, id, app, user, stored, List.of())));
            }
            return new ListSessionsResponse(sessions);
          } finally {
            lock.readLock().unlock();
          }
        });
  }

  /** Reads the page only: a seek into the user's sessions kept in page order. */
  @Override
  public Single<ListSessionsResponse> listSessions(
      String appName, String userId, ListSessionsRequest request) {
    Objects.requireNonNull(request, "request");
    return Single.fromCallable(
        () -> {
          Appends.checkIds(appName, userId);
          Paging.SessionCursor after = Paging.sessionCursor(request);
          int pageSize = request.pageSize();
          lock.readLock().lock();
          try {
            AppData app = apps.get(appName);
            UserData user = app == null ? null : app.users.get(userId);
            if (user == null) {
              return new ListSessionsResponse(List.of());
            }
            List<Session> followers = new ArrayList<>(pageSize + 1);
            for (Paging.SessionCursor at :
                after == null ? user.byUpdate : user.byUpdate.tailSet(after, false)) {
              StoredSession stored = user.sessions.get(at.id());
              followers.add(toSession(appName, userId, at.id(), app, user, stored, List.of()));
              if (followers.size() > pageSize) {
                break;
              }
            }
            return Paging.sessionsPage(followers, pageSize);
          } finally {
            lock.readLock().unlock();
          }
        });
  }

  @Override
  public Completable deleteSession(String appName, String userId, String sessionId) {
    return Completable.fromAction(
        () -> {
          Appends.checkIds(appName, userId, sessionId);
          lock.writeLock().lock();
          try {
            AppData app = apps.get(appName);
            UserData user = app == null ? null : app.users.get(userId);
            StoredSession removed = user == null ? null : user.sessions.remove(sessionId);
            if (removed != null) {
              user.byUpdate.remove(new Paging.SessionCursor(removed.lastUpdateTime, sessionId));
            }
          } finally {
            lock.writeLock().unlock();
          }
        });
  }

  @Override
  public Single<ListEventsResponse> listEvents(String appName, String userId, String sessionId) {
    return Single.fromCallable(
        () -> {
          Appends.checkIds(appName, userId, sessionId);
          lock.readLock().lock();
          try {
            StoredSession stored = find(appName, userId, sessionId);
            return new ListEventsResponse(stored.events.snapshot());
          } finally {
            lock.readLock().unlock();
          }
        });
  }

  /** Reads the page's events only, by their index in the session's list (sequence - 1). */
  @Override
  public Single<ListEventsResponse> listEvents(
      String appName, String userId, String sessionId, ListEventsRequest request) {
    Objects.requireNonNull(request, "request");
    return Single.fromCallable(
        () -> {
          Appends.checkIds(appName, userId, sessionId);
          Paging.eventBound(request); // a malformed token fails before anything is read
          lock.readLock().lock();
          try {
            StoredSession stored = find(appName, userId, sessionId);
            return Paging.eventsPageOf(stored.events.snapshot(), request);
          } finally {
            lock.readLock().unlock();
          }
        });
  }

  @Override
  public Single<Event> appendEvent(Session session, Event event) {
    return Appends.append(session, event, limits, this::store);
  }

  private Appends.Stored store(Session session, Appends.Prepared prepared) {
    lock.writeLock().lock();
    try {
      StoredSession stored = find(session.appName(), session.userId(), session.id());
      if (stored.revision != session.revision()) {
        throw new StaleSessionException(
            session.appName(), session.userId(), session.id(), session.revision(), stored.revision);
      }
      if (stored.leaseOwner != null && !stored.leaseOwner.equals(session.leaseOwner())) {
        throw new SessionBusyException(
            session.appName(),
            session.userId(),
            session.id(),
            stored.leaseOwner,
            null,
            "an append from outside the invocation that holds the session's lease was refused");
      }
      String eventId = prepared.stored().id();
      if (stored.eventIds.contains(eventId)) {
        throw Appends.duplicateEvent(eventId, session.describe());
      }
      AppData app = apps.get(session.appName());
      UserData user = app.users.get(session.userId());
      Map<String, Object> resolved = Map.of();
      if (prepared.isConditional()) {
        prepared
            .expected()
            .forEach(
                (key, value) -> {
                  Object actual = scopeOf(key, app, user, stored).get(key);
                  if (!Json.sameValue(value, actual)) {
                    throw new StateConflictException(
                        session.appName(),
                        session.userId(),
                        session.id(),
                        key,
                        value,
                        Json.copy(actual),
                        prepared.stored().id());
                  }
                });
        resolved = new HashMap<>();
        for (Map.Entry<String, Long> e : prepared.increments().entrySet()) {
          String key = e.getKey();
          Object current = scopeOf(key, app, user, stored).get(key);
          try {
            resolved.put(key, State.incremented(key, current, e.getValue()));
          } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException(
                ex.getMessage() + " (" + session.describe() + "); nothing was stored", ex);
          }
        }
      }
      apply(app.state, prepared.split().app(), resolved);
      apply(user.state, prepared.split().user(), resolved);
      apply(stored.state, prepared.split().session(), resolved);
      resolved.forEach((key, value) -> scopeOf(key, app, user, stored).put(key, value));
      stored.events.add(Appends.withResolved(prepared.stored(), resolved));
      stored.eventIds.add(eventId);
      user.byUpdate.remove(new Paging.SessionCursor(stored.lastUpdateTime, session.id()));
      stored.lastUpdateTime = Instant.ofEpochMilli(prepared.timestamp());
      user.byUpdate.add(new Paging.SessionCursor(stored.lastUpdateTime, session.id()));
      long revision = ++stored.revision;
      if (prepared.stored().actions().compaction().isPresent()) {
        stored.lastCompactionSeq = revision;
      }
      return new Appends.Stored(revision, resolved);
    } finally {
      lock.writeLock().unlock();
    }
  }

  private static Map<String, Object> scopeOf(
      String key, AppData app, UserData user, StoredSession stored) {
    switch (Scope.of(key)) {
      case APP:
        return app.state;
      case USER:
        return user.state;
      default:
        return stored.state;
    }
  }

  /**
   * An in-process lease: the session's owner field, waited for on a condition of the write lock. It
   * never expires (nothing outside this process can hold it), and is released by {@code close}.
   */
  @Override
  public Single<SessionLease> acquireLease(
      String appName, String userId, String sessionId, java.time.Duration maxWait) {
    Objects.requireNonNull(maxWait, "maxWait");
    return Single.fromCallable(
        () -> {
          Appends.checkIds(appName, userId, sessionId);
          String owner = "memory-" + java.util.UUID.randomUUID();
          long deadline = System.nanoTime() + maxWait.toNanos();
          lock.writeLock().lock();
          try {
            while (true) {
              StoredSession stored = find(appName, userId, sessionId);
              if (stored.leaseOwner == null) {
                stored.leaseOwner = owner;
                return new MemoryLease(appName, userId, sessionId, owner);
              }
              long left = deadline - System.nanoTime();
              if (left <= 0) {
                throw new SessionBusyException(
                    appName,
                    userId,
                    sessionId,
                    stored.leaseOwner,
                    null,
                    "no lease within " + maxWait.toMillis() + " ms");
              }
              leaseReleased.awaitNanos(left);
            }
          } finally {
            lock.writeLock().unlock();
          }
        });
  }

  private final java.util.concurrent.locks.Condition leaseReleased =
      lock.writeLock().newCondition();

  private final class MemoryLease implements SessionLease {
    private final String appName;
    private final String userId;
    private final String sessionId;
    private final String owner;
    private volatile boolean held = true;

    MemoryLease(String appName, String userId, String sessionId, String owner) {
      this.appName = appName;
      this.userId = userId;
      this.sessionId = sessionId;
      this.owner = owner;
    }

    @Override
    public String owner() {
      return owner;
    }

    @Override
    public boolean isHeld() {
      return held;
    }

    @Override
    public void close() {
      if (!held) {
        return;
      }
      held = false;
      lock.writeLock().lock();
      try {
        AppData app = apps.get(appName);
        UserData user = app == null ? null : app.users.get(userId);
        StoredSession stored = user == null ? null : user.sessions.get(sessionId);
        if (stored != null && owner.equals(stored.leaseOwner)) {
          stored.leaseOwner = null;
        }
        leaseReleased.signalAll();
      } finally {
        lock.writeLock().unlock();
      }
    }
  }

  private StoredSession find(String appName, String userId, String sessionId) {
    AppData app = apps.get(appName);
    UserData user = app == null ? null : app.users.get(userId);
    StoredSession stored = user == null ? null : user.sessions.get(sessionId);
    if (stored == null) {
      throw new SessionNotFoundException(appName, userId, sessionId);
    }
    return stored;
  }

  private static void apply(Map<String, Object> target, Map<String, @Nullable Object> delta) {
    apply(target, delta, Map.of());
  }

  /** Applies {@code delta} to {@code target}, except keys that {@code resolved} sets. */
  private static void apply(
      Map<String, Object> target, Map<String, @Nullable Object> delta, Map<String, Object> skip) {
    delta.forEach(
        (k, v) -> {
          if (skip.containsKey(k)) {
            return;
          }
          if (v == null) {
            target.remove(k);
          } else {
            target.put(k, Json.freeze(v)); // shared, immutable; reads hand out copies
          }
        });
  }

  private static Session toSession(
      String appName,
      String userId,
      String id,
      AppData app,
      UserData user,
      StoredSession stored,
      List<Event> events) {
    Map<String, Object> merged = new HashMap<>();
    app.state.forEach((k, v) -> merged.put(k, Json.copy(v)));
    user.state.forEach((k, v) -> merged.put(k, Json.copy(v)));
    stored.state.forEach((k, v) -> merged.put(k, Json.copy(v)));
    return Session.builder(id)
        .appName(appName)
        .userId(userId)
        .state(merged)
        .events(events)
        .lastUpdateTime(stored.lastUpdateTime)
        .revision(stored.revision)
        .build();
  }

  /**
   * The events {@code config} keeps: the window after {@code afterRevision} and from the latest
   * compaction on is a sub-list view (no event looked at); {@code numRecentEvents} walks back from
   * the end only until it has N events (that pass {@code afterTimestamp}).
   */
  static List<Event> select(
      List<Event> events, long lastCompactionSeq, Optional<GetSessionConfig> config) {
    if (config.isEmpty()) {
      return events;
    }
    GetSessionConfig c = config.get();
    int size = events.size();
    long from = c.afterRevision().orElse(0L); // the event at index i has revision i + 1
    if (c.fromLatestCompaction() && lastCompactionSeq > 0) {
      from = Math.max(from, lastCompactionSeq - 1);
    }
    List<Event> window = events.subList((int) Math.min(size, from), size);
    @Nullable Long after = c.afterTimestamp().map(Instant::toEpochMilli).orElse(null);
    @Nullable Integer last = c.numRecentEvents().orElse(null);
    if (last != null) {
      List<Event> kept = new ArrayList<>(Math.min(last, window.size()));
      for (int i = window.size() - 1; i >= 0 && kept.size() < last; i--) {
        Event e = window.get(i);
        if (after == null || e.timestamp() >= after) {
          kept.add(e);
        }
      }
      Collections.reverse(kept);
      return kept;
    }
    if (after != null) {
      List<Event> kept = new ArrayList<>();
      for (Event e : window) {
        if (e.timestamp() >= after) {
          kept.add(e);
        }
      }
      return kept;
    }
    return window;
  }
}
