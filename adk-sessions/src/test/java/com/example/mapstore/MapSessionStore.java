package com.example.mapstore;

import dev.adk4j.events.Event;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.PendingAppend;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionAlreadyExistsException;
import dev.adk4j.sessions.SessionBusyException;
import dev.adk4j.sessions.SessionLease;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.sessions.SessionStore;
import dev.adk4j.sessions.StaleSessionException;
import dev.adk4j.sessions.StoreValues;
import dev.adk4j.state.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A session backend written the way a third party would, against the public SPI only: plain maps
 * behind one monitor, with leases. It implements the five required methods and {@link
 * #acquireLease}; pages of sessions and events come from the SPI's defaults. Written for {@link
 * MapSessionStoreTest}, which runs the whole session contract on it.
 */
public final class MapSessionStore implements SessionStore {

  /** One session's row. */
  private static final class Row {
    final Map<String, Object> state = new HashMap<>();
    final List<Event> events = new ArrayList<>();
    final Set<String> eventIds = new HashSet<>();
    long revision;
    Instant updated;
    @Nullable String leaseOwner;

    Row(Instant created) {
      this.updated = created;
    }
  }

  private final Map<String, Map<String, Object>> appState = new HashMap<>();
  private final Map<List<String>, Map<String, Object>> userState = new HashMap<>();

  /** (app, user) to that user's sessions by id, in id order. */
  private final Map<List<String>, TreeMap<String, Row>> sessions = new HashMap<>();

  @Override
  public synchronized Session create(
      String appName, String userId, String sessionId, Scope.Split initialState) {
    TreeMap<String, Row> users =
        sessions.computeIfAbsent(List.of(appName, userId), k -> new TreeMap<>());
    if (users.containsKey(sessionId)) {
      throw new SessionAlreadyExistsException(appName, userId, sessionId);
    }
    Row row = new Row(Instant.now());
    write(appScope(appName), initialState.app());
    write(userScope(appName, userId), initialState.user());
    write(row.state, initialState.session());
    users.put(sessionId, row);
    return toSession(appName, userId, sessionId, row, List.of());
  }

  @Override
  public synchronized @Nullable Session load(
      String appName, String userId, String sessionId, @Nullable GetSessionConfig config) {
    Row row = rowOrNull(appName, userId, sessionId);
    if (row == null) {
      return null;
    }
    return toSession(
        appName, userId, sessionId, row, SessionStore.selectEvents(row.events, config));
  }

  @Override
  public synchronized List<Session> list(String appName, String userId) {
    List<Session> out = new ArrayList<>();
    sessions
        .getOrDefault(List.of(appName, userId), new TreeMap<>())
        .forEach((id, row) -> out.add(toSession(appName, userId, id, row, List.of())));
    return out;
  }

  @Override
  public synchronized void delete(String appName, String userId, String sessionId) {
    TreeMap<String, Row> users = sessions.get(List.of(appName, userId));
    if (users != null) {
      users.remove(sessionId);
    }
  }

  @Override
  public synchronized Appended append(
      PendingAppend append, long expectedRevision, @Nullable String leaseOwner) {
    String app = append.appName();
    String user = append.userId();
    String id = append.sessionId();
    Row row = rowOrNull(app, user, id);
    if (row == null) {
      throw new SessionNotFoundException(app, user, id);
    }
    if (row.revision != expectedRevision) {
      throw new StaleSessionException(app, user, id, expectedRevision, row.revision);
    }
    if (row.leaseOwner != null && !row.leaseOwner.equals(leaseOwner)) {
      throw new SessionBusyException(
          app, user, id, row.leaseOwner, null, "the session is leased to another invocation");
    }
    if (row.eventIds.contains(append.event().id())) {
      throw append.duplicateEvent();
    }
    // Everything that can fail is checked before anything is written: the append is atomic.
    for (Map.Entry<String, @Nullable Object> e : append.expected().entrySet()) {
      Object actual = scope(e.getKey(), app, user, row).get(e.getKey());
      if (!StoreValues.same(e.getValue(), actual)) {
        throw append.conflict(e.getKey(), actual);
      }
    }
    Map<String, Object> resolved = new HashMap<>();
    for (String key : append.increments().keySet()) {
      resolved.put(key, append.incremented(key, scope(key, app, user, row).get(key)));
    }
    write(appScope(app), append.delta().app());
    write(userScope(app, user), append.delta().user());
    write(row.state, append.delta().session());
    resolved.forEach((key, value) -> scope(key, app, user, row).put(key, value));
    row.events.add(resolved.isEmpty() ? append.event() : append.eventWith(resolved));
    row.eventIds.add(append.event().id());
    row.updated = Instant.ofEpochMilli(append.timestamp());
    row.revision++;
    return new Appended(row.revision, resolved);
  }

  @Override
  public synchronized SessionLease acquireLease(
      String appName, String userId, String sessionId, Duration maxWait)
      throws InterruptedException {
    long deadline = System.nanoTime() + maxWait.toNanos();
    while (true) {
      Row row = rowOrNull(appName, userId, sessionId);
      if (row == null) {
        throw new SessionNotFoundException(appName, userId, sessionId);
      }
      if (row.leaseOwner == null) {
        String owner = "map-" + UUID.randomUUID();
        row.leaseOwner = owner;
        return new MapLease(row, owner);
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new SessionBusyException(
            appName, userId, sessionId, row.leaseOwner, null, "no lease within " + maxWait);
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  private final class MapLease implements SessionLease {
    private final Row row;
    private final String owner;
    private volatile boolean held = true;

    MapLease(Row row, String owner) {
      this.row = row;
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
      synchronized (MapSessionStore.this) {
        if (held && owner.equals(row.leaseOwner)) {
          row.leaseOwner = null;
        }
        held = false;
        MapSessionStore.this.notifyAll();
      }
    }
  }

  private @Nullable Row rowOrNull(String appName, String userId, String sessionId) {
    TreeMap<String, Row> users = sessions.get(List.of(appName, userId));
    return users == null ? null : users.get(sessionId);
  }

  private Map<String, Object> appScope(String appName) {
    return appState.computeIfAbsent(appName, k -> new HashMap<>());
  }

  private Map<String, Object> userScope(String appName, String userId) {
    return userState.computeIfAbsent(List.of(appName, userId), k -> new HashMap<>());
  }

  private Map<String, Object> scope(String key, String appName, String userId, Row row) {
    switch (Scope.of(key)) {
      case APP:
        return appScope(appName);
      case USER:
        return userScope(appName, userId);
      default:
        return row.state;
    }
  }

  /** Values come frozen (immutable): kept as they are; null removes. */
  private static void write(Map<String, Object> target, Map<String, @Nullable Object> delta) {
    delta.forEach(
        (key, value) -> {
          if (value == null) {
            target.remove(key);
          } else {
            target.put(key, value);
          }
        });
  }

  /** A session the caller owns: merged state of mutable copies, events shared (immutable). */
  private Session toSession(String appName, String userId, String id, Row row, List<Event> events) {
    Map<String, Object> merged = new HashMap<>();
    appScope(appName).forEach((k, v) -> merged.put(k, StoreValues.copy(v)));
    userScope(appName, userId).forEach((k, v) -> merged.put(k, StoreValues.copy(v)));
    row.state.forEach((k, v) -> merged.put(k, StoreValues.copy(v)));
    return Session.builder(id)
        .appName(appName)
        .userId(userId)
        .state(merged)
        .events(events)
        .lastUpdateTime(row.updated)
        .revision(row.revision)
        .build();
  }
}
