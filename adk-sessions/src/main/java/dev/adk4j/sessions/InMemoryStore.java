package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.state.Scope;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jspecify.annotations.Nullable;

/**
 * The {@link SessionStore} of {@link InMemorySessionService}: maps in this process.
 *
 * <p>Cost: a user's sessions are also kept in the order of {@code listSessions} pages (most
 * recently updated first), so that a page is found in logarithmic time and costs what it returns; a
 * session remembers where its latest compaction event is. Loads with {@code afterRevision}, {@code
 * fromLatestCompaction} or {@code numRecentEvents} and event pages look only at the events they
 * return (plus, with {@code afterTimestamp}, those they skip). A session's events are kept in an
 * array that appends fill from the front and replace by one twice as large when it is full; a read
 * shares them as an immutable view of the part filled so far ({@link Session#prefix}), which later
 * appends (past its end) do not change: loading all events costs O(1). State is read the same way:
 * each scope's state (the app's, the user's, the session's) keeps a frozen copy of itself ({@link
 * StateSnapshot.Layer}), made by the first read after the scope changed and shared by every read
 * until it changes again, and a read hands the merged snapshot to the copy, which makes a map of
 * its own only when it needs one ({@link Session#stateMap()}): reading an unchanged session does no
 * work per state key. An append only drops the layers of the scopes its delta changes (work per key
 * of the delta).
 *
 * <p>Concurrency: one read-write lock guards all data. Appends and creations take the write lock,
 * so each is atomic and they are linearizable; reads share the read lock and never see half an
 * append. Stored values are frozen (immutable); every read hands out a copy that takes its own
 * mutable copies of them when it first needs them.
 */
final class InMemoryStore implements SessionStore {

  private final Clock clock;
  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private final Condition leaseReleased = lock.writeLock().newCondition();
  private final Map<String, AppData> apps = new HashMap<>();

  /** The number of appends so far: each stored event's place in the order of all appends. */
  private long appends;

  /** The sessions that expire, soonest first (expiry, then app, user, id). */
  private final NavigableSet<Expiring> expiring =
      new TreeSet<>(
          java.util.Comparator.comparing(Expiring::at)
              .thenComparing(Expiring::appName)
              .thenComparing(Expiring::userId)
              .thenComparing(Expiring::sessionId));

  private record Expiring(Instant at, String appName, String userId, String sessionId) {}

  InMemoryStore() {
    this(Clock.systemUTC());
  }

  /** A store whose creation times and expiry follow {@code clock}. */
  InMemoryStore(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  private static final class AppData {
    final Map<String, Object> state = new HashMap<>();

    /** {@link #state} frozen as of its last change, made by the first read after it; or null. */
    StateSnapshot.@Nullable Layer stateLayer;

    final Map<String, UserData> users = new HashMap<>();
  }

  private static final class UserData {
    final Map<String, Object> state = new HashMap<>();

    /** {@link #state} frozen as of its last change, made by the first read after it; or null. */
    StateSnapshot.@Nullable Layer stateLayer;

    /** By id; a hash map, since every append finds its session here ({@code list} sorts). */
    final Map<String, StoredSession> sessions = new HashMap<>();

    /** The same sessions in the order of {@code listSessions} pages. */
    final NavigableSet<Position> byUpdate = new TreeSet<>(Paging.POSITION_ORDER);
  }

  private static final class StoredSession {
    final Map<String, Object> state = new HashMap<>();

    /** {@link #state} frozen as of its last change, made by the first read after it; or null. */
    StateSnapshot.@Nullable Layer stateLayer;

    /**
     * The merged state the last read handed out: still valid while its three layers are the current
     * ones (no scope of it changed since).
     */
    StateSnapshot snapshot = StateSnapshot.EMPTY;

    /**
     * Immutable events (their delta values frozen): the first {@link #eventCount} of this array,
     * shared with every copy read ({@link #events()}); the event at index i has sequence number
     * {@link #trimmed} + i + 1.
     */
    Event[] events = new Event[0];

    int eventCount;

    /**
     * The last list {@link #events()} made, reused by reads until an append (or a trim) changes the
     * events; volatile, since readers that share the read lock set it.
     */
    volatile @Nullable List<Event> eventsView;

    /** How many of the first events retention deleted (0: none). */
    long trimmed;

    /**
     * The place of each of {@link #events} in the order of all appends (for state history): index
     * aligned with the events, unboxed (one is added per append).
     */
    long[] appendOrder = new long[8];

    /** The ids of {@link #events}: an id is stored once per session. */
    final EventIds eventIds = new EventIds();

    Instant lastUpdateTime;
    long revision;

    /** The revision (= 1 + list index) of the latest compaction event; 0 if there is none. */
    long lastCompactionSeq;

    @Nullable String leaseOwner;

    /** Whether the last lease was given up unfinished ({@link SessionLease#closeUnfinished()}). */
    boolean leaseAbandoned;

    /** The owners waiting for the lease, in the order they arrived. */
    final java.util.ArrayDeque<String> leaseQueue = new java.util.ArrayDeque<>();

    /** The time to live, or null: the session never expires. */
    @Nullable Duration ttl;

    /** When the session expires (its last activity + ttl), or null. */
    @Nullable Instant expireAt;

    /** The store holding this record, and whether the record was removed from it. */
    final InMemoryStore store;

    boolean removed;

    /** The app and user records the session belongs to (never removed once made). */
    final AppData app;

    final UserData user;

    StoredSession(Instant created, InMemoryStore store, AppData app, UserData user) {
      this.lastUpdateTime = created;
      this.store = store;
      this.app = app;
      this.user = user;
    }

    /** The events so far, as an immutable list that later appends do not change. */
    List<Event> events() {
      List<Event> view = eventsView;
      if (view == null || view.size() != eventCount) {
        view = Session.prefix(events, eventCount);
        eventsView = view;
      }
      return view;
    }
  }

  @Override
  public Session create(String appName, String userId, String id, Scope.Split initial) {
    return create(appName, userId, id, initial, null);
  }

  @Override
  public Session create(
      String appName,
      String userId,
      String id,
      Scope.Split initial,
      @Nullable Duration timeToLive) {
    lock.writeLock().lock();
    try {
      AppData app = apps.computeIfAbsent(appName, k -> new AppData());
      UserData user = app.users.computeIfAbsent(userId, k -> new UserData());
      Instant now = clock.instant();
      StoredSession existing = user.sessions.get(id);
      if (existing != null) {
        if (!expired(existing, now)) {
          throw new SessionAlreadyExistsException(appName, userId, id);
        }
        remove(appName, userId, id, user); // expired: as if deleted, the id is free
      }
      StoredSession stored = new StoredSession(now, this, app, user);
      if (timeToLive != null) {
        stored.ttl = timeToLive;
        stored.expireAt = now.plus(timeToLive);
        expiring.add(new Expiring(stored.expireAt, appName, userId, id));
      }
      if (!initial.app().isEmpty()) {
        apply(app.state, initial.app(), Map.of());
        app.stateLayer = null;
      }
      if (!initial.user().isEmpty()) {
        apply(user.state, initial.user(), Map.of());
        user.stateLayer = null;
      }
      apply(stored.state, initial.session(), Map.of());
      user.sessions.put(id, stored);
      user.byUpdate.add(new Position(stored.lastUpdateTime, id));
      return toSession(appName, userId, id, app, user, stored, List.of());
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public @Nullable Session load(
      String appName, String userId, String sessionId, @Nullable GetSessionConfig config) {
    lock.readLock().lock();
    try {
      AppData app = apps.get(appName);
      UserData user = app == null ? null : app.users.get(userId);
      StoredSession stored = user == null ? null : user.sessions.get(sessionId);
      if (app == null || user == null || stored == null || expired(stored)) {
        return null;
      }
      List<Event> events =
          stored.trimmed == 0
              ? EventSelection.select(stored.events(), stored.lastCompactionSeq, config)
              : selectTrimmed(stored, config);
      return toSession(appName, userId, sessionId, app, user, stored, events);
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<Session> list(String appName, String userId) {
    lock.readLock().lock();
    try {
      AppData app = apps.get(appName);
      UserData user = app == null ? null : app.users.get(userId);
      List<Session> sessions = new ArrayList<>();
      if (app != null && user != null) {
        Instant now = clock.instant();
        for (Map.Entry<String, StoredSession> e : new TreeMap<>(user.sessions).entrySet()) {
          if (!expired(e.getValue(), now)) {
            sessions.add(
                toSession(appName, userId, e.getKey(), app, user, e.getValue(), List.of()));
          }
        }
      }
      return sessions;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** A seek into the user's sessions kept in page order. */
  @Override
  public List<Session> listPage(
      String appName, String userId, @Nullable Position after, int limit) {
    lock.readLock().lock();
    try {
      AppData app = apps.get(appName);
      UserData user = app == null ? null : app.users.get(userId);
      if (app == null || user == null) {
        return List.of();
      }
      List<Session> page = new ArrayList<>(limit);
      Instant now = clock.instant();
      for (Position at : after == null ? user.byUpdate : user.byUpdate.tailSet(after, false)) {
        StoredSession stored =
            Objects.requireNonNull(
                user.sessions.get(at.sessionId()), "byUpdate indexes exactly the stored sessions");
        if (expired(stored, now)) {
          continue;
        }
        page.add(toSession(appName, userId, at.sessionId(), app, user, stored, List.of()));
        if (page.size() >= limit) {
          break;
        }
      }
      return page;
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public void delete(String appName, String userId, String sessionId) {
    lock.writeLock().lock();
    try {
      AppData app = apps.get(appName);
      UserData user = app == null ? null : app.users.get(userId);
      if (user != null) {
        remove(appName, userId, sessionId, user);
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public List<Event> events(String appName, String userId, String sessionId) {
    lock.readLock().lock();
    try {
      return find(appName, userId, sessionId).events();
    } finally {
      lock.readLock().unlock();
    }
  }

  /** The page's events only, by their index in the session's log (sequence number - 1). */
  @Override
  public List<NumberedEvent> eventsPage(
      String appName, String userId, String sessionId, boolean newestFirst, long bound, int limit) {
    List<Event> all;
    long trimmed;
    lock.readLock().lock();
    try {
      StoredSession stored = find(appName, userId, sessionId);
      all = stored.events();
      trimmed = stored.trimmed;
    } finally {
      lock.readLock().unlock();
    }
    // A snapshot is immutable: the page is cut from it outside the lock.
    if (trimmed == 0) {
      return EventSelection.page(all, newestFirst, bound, limit);
    }
    List<NumberedEvent> page = new ArrayList<>();
    long shifted = bound == Long.MAX_VALUE ? bound : Math.max(0, bound - trimmed);
    for (NumberedEvent e : EventSelection.page(all, newestFirst, shifted, limit)) {
      page.add(new NumberedEvent(e.seq() + trimmed, e.event()));
    }
    return page;
  }

  /** {@link EventSelection#select} for a session whose first events retention deleted. */
  private static List<Event> selectTrimmed(
      StoredSession stored, @Nullable GetSessionConfig config) {
    if (config == null) {
      return stored.events();
    }
    GetSessionConfig.Builder shifted = config.toBuilder();
    config.afterRevision().ifPresent(r -> shifted.afterRevision(Math.max(0, r - stored.trimmed)));
    // A compaction event that was trimmed away is before every remaining event.
    long compaction = Math.max(0, stored.lastCompactionSeq - stored.trimmed);
    return EventSelection.select(stored.events(), compaction, shifted.build());
  }

  /**
   * Retention: in up to {@code limit} sessions idle for longer than {@code idleFor} (last update
   * before the clock's now minus it) with more than {@code keepLast} events left, drops all but the
   * last {@code keepLast}, under the write lock (a scan of the sessions in memory: appends wait for
   * it, which takes milliseconds for many thousands of sessions).
   */
  @Override
  public Trimmed trimIdleSessions(Duration idleFor, int keepLast, int limit) {
    lock.writeLock().lock();
    try {
      Instant idleBefore = clock.instant().minus(idleFor);
      int sessions = 0;
      long events = 0;
      for (AppData app : apps.values()) {
        for (UserData user : app.users.values()) {
          for (StoredSession stored : user.sessions.values()) {
            if (sessions >= limit) {
              return new Trimmed(sessions, events);
            }
            List<Event> all = stored.events();
            if (!stored.lastUpdateTime.isBefore(idleBefore) || all.size() <= keepLast) {
              continue;
            }
            int drop = all.size() - keepLast;
            List<Event> kept = new ArrayList<>(all.subList(drop, all.size()));
            stored.events = kept.toArray(new Event[Math.max(8, 2 * kept.size())]);
            stored.eventCount = kept.size();
            stored.eventsView = null; // of the old array
            stored.eventIds.retainOnly(() -> kept.stream().map(Event::id).iterator());
            stored.trimmed += drop;
            long[] order = new long[Math.max(8, stored.appendOrder.length - drop)];
            System.arraycopy(stored.appendOrder, drop, order, 0, all.size() - drop);
            stored.appendOrder = order; // still index-aligned with the events
            sessions++;
            events += drop;
          }
        }
      }
      return new Trimmed(sessions, events);
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public Appended append(PendingAppend append, long expectedRevision, @Nullable String leaseOwner) {
    String appName = append.appName();
    String userId = append.userId();
    String sessionId = append.sessionId();
    lock.writeLock().lock();
    try {
      StoredSession stored = recordOf(append);
      if (stored.revision != expectedRevision) {
        throw new StaleSessionException(
            appName, userId, sessionId, expectedRevision, stored.revision);
      }
      if (stored.leaseOwner != null && !stored.leaseOwner.equals(leaseOwner)) {
        throw new SessionBusyException(
            appName,
            userId,
            sessionId,
            stored.leaseOwner,
            null,
            "an append from outside the invocation that holds the session's lease was refused");
      }
      Event event = append.event();
      int idHash = EventIds.hash(event.id());
      if (stored.eventIds.contains(event.id(), idHash)) { // added below, once nothing else fails
        throw append.duplicateEvent();
      }
      AppData app = stored.app;
      UserData user = stored.user;
      Map<String, Object> resolved = Map.of();
      if (append.isConditional()) {
        append
            .expected()
            .forEach(
                (key, value) -> {
                  Object actual = scopeOf(key, app, user, stored).get(key);
                  if (!Json.sameValue(value, actual)) {
                    throw append.conflict(key, actual);
                  }
                });
        resolved = new HashMap<>();
        for (String key : append.increments().keySet()) {
          resolved.put(key, append.incremented(key, scopeOf(key, app, user, stored).get(key)));
        }
      }
      // One pass over the stored delta, each key to its scope's map. The values are frozen
      // (PendingAppend's contract): kept as they are, shared by every read.
      for (Map.Entry<String, @Nullable Object> e : append.storedDelta().entrySet()) {
        String key = e.getKey();
        Object value = e.getValue();
        Map<String, Object> target = changedScopeOf(key, app, user, stored);
        if (resolved.containsKey(key)) {
          continue;
        } else if (value == null) {
          target.remove(key);
        } else {
          target.put(key, value);
        }
      }
      for (Map.Entry<String, Object> e : resolved.entrySet()) {
        changedScopeOf(e.getKey(), app, user, stored).put(e.getKey(), e.getValue());
      }
      int index = stored.eventCount; // of the event added here
      stored.events = Session.withRoom(stored.events, index);
      stored.events[index] = resolved.isEmpty() ? event : append.eventWith(resolved);
      stored.eventCount = index + 1;
      stored.eventIds.add(event.id(), idHash);
      if (index == stored.appendOrder.length) {
        stored.appendOrder = java.util.Arrays.copyOf(stored.appendOrder, index * 2);
      }
      stored.appendOrder[index] = ++appends;
      long millis = append.timestamp();
      Instant last = stored.lastUpdateTime;
      if (millis != last.toEpochMilli() || last.getNano() % 1_000_000 != 0) {
        // The page order moves only when the update time does (appends within one
        // millisecond keep the session where it is).
        user.byUpdate.remove(new Position(stored.lastUpdateTime, sessionId));
        stored.lastUpdateTime = Instant.ofEpochMilli(millis);
        user.byUpdate.add(new Position(stored.lastUpdateTime, sessionId));
      }
      long revision = ++stored.revision;
      if (stored.ttl != null) { // activity pushes the expiry back
        Instant expireAt = Objects.requireNonNull(stored.expireAt, "set with ttl");
        expiring.remove(new Expiring(expireAt, appName, userId, sessionId));
        stored.expireAt = clock.instant().plus(stored.ttl);
        expiring.add(new Expiring(stored.expireAt, appName, userId, sessionId));
      }
      if (append.isCompaction()) {
        stored.lastCompactionSeq = revision;
      }
      return new Appended(revision, resolved);
    } finally {
      lock.writeLock().unlock();
    }
  }

  /**
   * An in-process lease: the session's owner field, waited for in the session's queue (first come,
   * first served) on a condition of the write lock. It never expires (nothing outside this process
   * can hold it), and is released by {@code close}. The wait is measured by the store's clock.
   */
  @Override
  public SessionLease acquireLease(
      String appName, String userId, String sessionId, Duration maxWait)
      throws InterruptedException {
    return acquireLease(appName, userId, sessionId, maxWait, wait -> {});
  }

  @Override
  public SessionLease acquireLease(
      String appName,
      String userId,
      String sessionId,
      Duration maxWait,
      java.util.function.Consumer<SessionWait> onWait)
      throws InterruptedException {
    String owner = "memory-" + UUID.randomUUID();
    long deadline = clock.millis() + maxWait.toMillis();
    lock.writeLock().lock();
    StoredSession queuedIn = null;
    try {
      for (boolean first = true; ; first = false) {
        StoredSession stored = find(appName, userId, sessionId);
        String head = stored.leaseQueue.peek();
        if (stored.leaseOwner == null && (head == null || head.equals(owner))) {
          if (queuedIn != null) {
            stored.leaseQueue.poll();
            queuedIn = null;
          }
          stored.leaseOwner = owner;
          boolean tookOver = stored.leaseAbandoned;
          stored.leaseAbandoned = false;
          return new MemoryLease(appName, userId, sessionId, owner, tookOver);
        }
        if (first) {
          stored.leaseQueue.add(owner);
          queuedIn = stored;
          onWait.accept(
              new SessionWait(
                  appName, userId, sessionId, stored.leaseOwner, Duration.ZERO, maxWait));
        }
        long left = deadline - clock.millis();
        if (left <= 0) {
          throw new SessionBusyException(
              appName,
              userId,
              sessionId,
              stored.leaseOwner,
              null,
              "no lease within " + maxWait.toMillis() + " ms");
        }
        // In slices, so that a clock a test moves is read again.
        leaseReleased.awaitNanos(TimeUnit.MILLISECONDS.toNanos(Math.min(left, 50)));
      }
    } finally {
      if (queuedIn != null) {
        queuedIn.leaseQueue.remove(owner);
        leaseReleased.signalAll(); // the next in line may be free to go
      }
      lock.writeLock().unlock();
    }
  }

  private final class MemoryLease implements SessionLease {
    private final String appName;
    private final String userId;
    private final String sessionId;
    private final String owner;
    private final boolean tookOver;
    private volatile boolean held = true;

    MemoryLease(String appName, String userId, String sessionId, String owner, boolean tookOver) {
      this.appName = appName;
      this.userId = userId;
      this.sessionId = sessionId;
      this.owner = owner;
      this.tookOver = tookOver;
    }

    @Override
    public boolean tookOver() {
      return tookOver;
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
      release(true);
    }

    @Override
    public void closeUnfinished() {
      release(false);
    }

    private void release(boolean finished) {
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
          stored.leaseAbandoned = !finished;
        }
        leaseReleased.signalAll();
      } finally {
        lock.writeLock().unlock();
      }
    }
  }

  /**
   * Reads the stored events under the read lock: the session's for a session key, every session's
   * of the user (or of the app) for a {@code user:} (or {@code app:}) key, in the order of the
   * appends.
   */
  @Override
  public List<StateChange> stateHistory(
      String appName, String userId, String sessionId, String key) {
    lock.readLock().lock();
    try {
      StoredSession own = find(appName, userId, sessionId);
      Scope scope = Scope.of(key);
      if (scope == Scope.SESSION) {
        return StateHistories.changesIn(own.events(), key, userId, sessionId);
      }
      AppData app = Objects.requireNonNull(apps.get(appName), "the session's app");
      List<Map.Entry<Long, StateChange>> changes = new ArrayList<>();
      for (Map.Entry<String, UserData> u : app.users.entrySet()) {
        if (scope == Scope.USER && !u.getKey().equals(userId)) {
          continue;
        }
        for (Map.Entry<String, StoredSession> s : u.getValue().sessions.entrySet()) {
          List<Event> events = s.getValue().events();
          for (int i = 0; i < events.size(); i++) {
            StateChange c = StateHistories.changeOf(events.get(i), key, u.getKey(), s.getKey());
            if (c != null) {
              changes.add(Map.entry(s.getValue().appendOrder[i], c));
            }
          }
        }
      }
      changes.sort(Map.Entry.comparingByKey());
      return changes.stream().map(Map.Entry::getValue).toList();
    } finally {
      lock.readLock().unlock();
    }
  }

  private StoredSession find(String appName, String userId, String sessionId) {
    AppData app = apps.get(appName);
    UserData user = app == null ? null : app.users.get(userId);
    StoredSession stored = user == null ? null : user.sessions.get(sessionId);
    if (stored == null || expired(stored)) {
      throw new SessionNotFoundException(appName, userId, sessionId);
    }
    return stored;
  }

  /**
   * The session an append is made to: the record its copy was read from when that is still this
   * store's and live (no lookup by ids), else {@link #find}. Under the lock.
   */
  private StoredSession recordOf(PendingAppend append) {
    if (append.storedAs() instanceof StoredSession) {
      StoredSession known = (StoredSession) append.storedAs();
      if (known.store == this && !known.removed && !expired(known)) {
        return known;
      }
    }
    return find(append.appName(), append.userId(), append.sessionId());
  }

  /** Whether {@code stored} has expired: only a session with a time to live reads the clock. */
  private boolean expired(StoredSession stored) {
    return stored.expireAt != null && expired(stored, clock.instant());
  }

  private static boolean expired(StoredSession stored, Instant now) {
    Instant at = stored.expireAt;
    return at != null && !at.isAfter(now);
  }

  /** Removes a session and its indexes; under the write lock. */
  private void remove(String appName, String userId, String sessionId, UserData user) {
    StoredSession removed = user.sessions.remove(sessionId);
    if (removed != null) {
      removed.removed = true;
      user.byUpdate.remove(new Position(removed.lastUpdateTime, sessionId));
      if (removed.expireAt != null) {
        expiring.remove(new Expiring(removed.expireAt, appName, userId, sessionId));
      }
    }
  }

  /** The soonest-expiring sessions that have expired, up to {@code limit}, in one write lock. */
  @Override
  public List<SessionRef> deleteExpired(int limit) {
    lock.writeLock().lock();
    try {
      Instant now = clock.instant();
      List<SessionRef> deleted = new ArrayList<>();
      while (deleted.size() < limit && !expiring.isEmpty() && !expiring.first().at().isAfter(now)) {
        Expiring e = expiring.first();
        AppData app = Objects.requireNonNull(apps.get(e.appName()), "an expiring session's app");
        UserData user =
            Objects.requireNonNull(app.users.get(e.userId()), "an expiring session's user");
        remove(e.appName(), e.userId(), e.sessionId(), user);
        deleted.add(new SessionRef(e.appName(), e.userId(), e.sessionId()));
      }
      return deleted;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /**
   * {@link #scopeOf}, for a key about to be changed: the frozen layer of that scope is dropped (the
   * next read makes a new one). Under the write lock.
   */
  private static Map<String, Object> changedScopeOf(
      String key, AppData app, UserData user, StoredSession stored) {
    switch (Scope.of(key)) {
      case APP:
        app.stateLayer = null;
        return app.state;
      case USER:
        user.stateLayer = null;
        return user.state;
      default:
        stored.stateLayer = null;
        return stored.state;
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
   * Applies {@code delta} to {@code target}, except keys that {@code skip} sets. Values come frozen
   * from the service: kept as they are, shared by every read, which hands out copies.
   */
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
            target.put(k, Json.freeze(v));
          }
        });
  }

  /**
   * A copy of the session, its state the merged snapshot: the one the last read made while no scope
   * of it has changed, otherwise one made now from the scopes' frozen layers, each made only if its
   * scope changed since it was last made.
   *
   * <p>Under the read lock (or the write lock): no state changes meanwhile, and the write lock
   * orders every change (which drops the layers) before later reads. Readers that race to make a
   * layer or snapshot make equal ones, and store them in plain fields: both are immutable, with
   * final fields only, so a reader that sees another's is guaranteed to see it whole.
   */
  private static Session toSession(
      String appName,
      String userId,
      String id,
      AppData app,
      UserData user,
      StoredSession stored,
      List<Event> events) {
    StateSnapshot.Layer appLayer = app.stateLayer;
    if (appLayer == null) {
      appLayer = StateSnapshot.Layer.of(app.state);
      app.stateLayer = appLayer;
    }
    StateSnapshot.Layer userLayer = user.stateLayer;
    if (userLayer == null) {
      userLayer = StateSnapshot.Layer.of(user.state);
      user.stateLayer = userLayer;
    }
    StateSnapshot.Layer sessionLayer = stored.stateLayer;
    if (sessionLayer == null) {
      sessionLayer = StateSnapshot.Layer.of(stored.state);
      stored.stateLayer = sessionLayer;
    }
    StateSnapshot snapshot = stored.snapshot;
    if (snapshot.app != appLayer
        || snapshot.user != userLayer
        || snapshot.session != sessionLayer) {
      snapshot = new StateSnapshot(appLayer, userLayer, sessionLayer);
      stored.snapshot = snapshot;
    }
    return new Session(
            id, appName, userId, snapshot, events, stored.lastUpdateTime, stored.revision)
        .storedAs(stored);
  }
}
