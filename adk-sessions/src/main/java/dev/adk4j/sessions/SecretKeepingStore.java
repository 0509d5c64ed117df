package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.state.Scope;
import dev.adk4j.state.State;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.jspecify.annotations.Nullable;

/**
 * The store a {@link StoreBackedSessionService} talks to: the user's {@link SessionStore}, with the
 * session's {@code secret:} keys kept apart from it. The service never hands a store a secret in
 * clear ({@link Scope#split} drops them; {@link PendingAppend#secrets()} carries them here), and
 * this wrapper keeps them in one of two ways:
 *
 * <ul>
 *   <li><b>in memory</b> (no key): in a map of this object, per session; every read merges them
 *       into the session's state. They are lost when the process ends, and other service instances
 *       on the same database do not see them. A store that holds encrypted secrets (written with a
 *       key) is refused on read, naming the session.
 *   <li><b>encrypted</b> (with a key): as session keys of the store whose values are AES-GCM
 *       ciphertexts ({@link SecretCipher}), written in the append's own atomic step; every read
 *       decrypts them.
 * </ul>
 *
 * Events are never involved: a stored event carries no {@code secret:} key.
 */
final class SecretKeepingStore implements SessionStore {

  private record Key(String appName, String userId, String sessionId) {}

  private final SessionStore store;
  private final @Nullable SecretCipher cipher;

  /** In memory mode: each session's secrets, values frozen. Empty in encrypted mode. */
  private final ConcurrentMap<Key, Map<String, Object>> memory = new ConcurrentHashMap<>();

  SecretKeepingStore(SessionStore store, @Nullable SecretCipher cipher) {
    this.store = store;
    this.cipher = cipher;
  }

  /** The store this one wraps. */
  SessionStore delegate() {
    return store;
  }

  /** Whether secrets are encrypted into the store rather than kept in this process. */
  boolean encrypts() {
    return cipher != null;
  }

  @Override
  public Session create(String appName, String userId, String sessionId, Scope.Split initial) {
    return create(appName, userId, sessionId, initial, Map.of(), null);
  }

  @Override
  public Session create(
      String appName,
      String userId,
      String sessionId,
      Scope.Split initial,
      @Nullable Duration timeToLive) {
    return create(appName, userId, sessionId, initial, Map.of(), timeToLive);
  }

  /**
   * Creates the session with {@code secrets} (frozen values, without {@code null}s) as its first
   * secrets, expiring {@code timeToLive} after its last activity (null: never).
   */
  Session create(
      String appName,
      String userId,
      String sessionId,
      Scope.Split initial,
      Map<String, Object> secrets,
      @Nullable Duration timeToLive) {
    Key key = new Key(appName, userId, sessionId);
    if (cipher == null) {
      Session created = store.create(appName, userId, sessionId, initial, timeToLive);
      // A session of the same id deleted before may have left secrets here (a delete racing an
      // append): the new session starts with its own only.
      if (secrets.isEmpty()) {
        memory.remove(key);
      } else {
        memory.put(key, new HashMap<>(secrets));
      }
      return withSecrets(created);
    }
    Scope.Split sealed =
        secrets.isEmpty()
            ? initial
            : new Scope.Split(
                initial.app(),
                initial.user(),
                withEncrypted(appName, userId, sessionId, initial.session(), secrets));
    return withSecrets(store.create(appName, userId, sessionId, sealed, timeToLive));
  }

  @Override
  public @Nullable Session load(
      String appName, String userId, String sessionId, @Nullable GetSessionConfig config) {
    Session session = store.load(appName, userId, sessionId, config);
    return session == null ? null : withSecrets(session);
  }

  @Override
  public List<Session> list(String appName, String userId) {
    return withSecrets(store.list(appName, userId));
  }

  @Override
  public List<Session> listPage(
      String appName, String userId, @Nullable Position after, int limit) {
    return withSecrets(store.listPage(appName, userId, after, limit));
  }

  @Override
  public void delete(String appName, String userId, String sessionId) {
    store.delete(appName, userId, sessionId);
    memory.remove(new Key(appName, userId, sessionId));
  }

  @Override
  public List<Event> events(String appName, String userId, String sessionId) {
    return store.events(appName, userId, sessionId);
  }

  @Override
  public List<NumberedEvent> eventsPage(
      String appName, String userId, String sessionId, boolean newestFirst, long bound, int limit) {
    return store.eventsPage(appName, userId, sessionId, newestFirst, bound, limit);
  }

  @Override
  public Appended append(PendingAppend append, long expectedRevision, @Nullable String leaseOwner) {
    Map<String, @Nullable Object> secrets = append.secrets();
    if (secrets.isEmpty()) {
      return store.append(append, expectedRevision, leaseOwner);
    }
    String appName = append.appName();
    String userId = append.userId();
    String sessionId = append.sessionId();
    if (cipher != null) {
      Scope.Split delta = append.delta();
      Scope.Split sealed =
          new Scope.Split(
              delta.app(),
              delta.user(),
              withEncrypted(appName, userId, sessionId, delta.session(), secrets));
      return store.append(append.withDelta(sealed), expectedRevision, leaseOwner);
    }
    Appended appended = store.append(append, expectedRevision, leaseOwner);
    memory.compute(
        new Key(appName, userId, sessionId),
        (k, old) -> {
          Map<String, Object> next = old == null ? new HashMap<>() : new HashMap<>(old);
          secrets.forEach(
              (name, value) -> {
                if (value == null) {
                  next.remove(name);
                } else {
                  next.put(name, value);
                }
              });
          return next.isEmpty() ? null : next;
        });
    return appended;
  }

  @Override
  public SessionLease acquireLease(
      String appName, String userId, String sessionId, Duration maxWait)
      throws InterruptedException {
    return store.acquireLease(appName, userId, sessionId, maxWait);
  }

  @Override
  public SessionLease acquireLease(
      String appName,
      String userId,
      String sessionId,
      Duration maxWait,
      java.util.function.Consumer<SessionWait> onWait)
      throws InterruptedException {
    return store.acquireLease(appName, userId, sessionId, maxWait, onWait);
  }

  @Override
  public @Nullable SessionLease leaseOnFirstAppend(
      String appName, String userId, String sessionId) {
    return store.leaseOnFirstAppend(appName, userId, sessionId);
  }

  /** The wrapped store's history (secret: keys have none: the service refuses them first). */
  @Override
  public List<StateChange> stateHistory(
      String appName, String userId, String sessionId, String key) {
    return store.stateHistory(appName, userId, sessionId, key);
  }

  /** Deletes expired sessions, and forgets the in-memory secrets of those it deleted. */
  @Override
  public List<SessionRef> deleteExpired(int limit) {
    List<SessionRef> deleted = store.deleteExpired(limit);
    if (!memory.isEmpty()) {
      for (SessionRef r : deleted) {
        memory.remove(new Key(r.appName(), r.userId(), r.sessionId()));
      }
    }
    return deleted;
  }

  @Override
  public Trimmed trimIdleSessions(Duration idleFor, int keepLast, int limit) {
    return store.trimIdleSessions(idleFor, keepLast, limit);
  }

  private Map<String, @Nullable Object> withEncrypted(
      String appName,
      String userId,
      String sessionId,
      Map<String, @Nullable Object> session,
      Map<String, ? extends @Nullable Object> secrets) {
    SecretCipher c = java.util.Objects.requireNonNull(cipher, "encrypted mode");
    Map<String, @Nullable Object> out = new LinkedHashMap<>(session);
    secrets.forEach(
        (name, value) ->
            out.put(
                name, value == null ? null : c.encrypt(appName, userId, sessionId, name, value)));
    return java.util.Collections.unmodifiableMap(out);
  }

  private List<Session> withSecrets(List<Session> sessions) {
    List<Session> out = new ArrayList<>(sessions.size());
    for (Session s : sessions) {
      out.add(withSecrets(s));
    }
    return out;
  }

  /** {@code session} with its secrets in its state: decrypted, or from this process's memory. */
  private Session withSecrets(Session session) {
    List<String> sealed = List.of();
    if (session.mayHoldSecrets()) { // a shared state that holds none is not scanned
      for (String name : session.currentState().keySet()) {
        if (name.startsWith(State.SECRET_PREFIX)) {
          if (sealed.isEmpty()) {
            sealed = new ArrayList<>();
          }
          sealed.add(name);
        }
      }
    }
    for (String name : sealed) {
      ConcurrentMap<String, Object> state = session.stateMap();
      Object stored = state.get(name);
      if (stored == null) {
        continue;
      }
      if (cipher == null) {
        throw new SessionException(
            "The stored state of "
                + session.describe()
                + " holds secret '"
                + name
                + "' encrypted at rest, and this service has no secretKey to read it;"
                + " configure the key it was written with");
      }
      Object value =
          cipher.decrypt(session.appName(), session.userId(), session.id(), name, stored);
      if (value == null) {
        state.remove(name);
      } else {
        state.put(name, value);
      }
    }
    if (cipher == null && !memory.isEmpty()) {
      Map<String, Object> kept =
          memory.get(new Key(session.appName(), session.userId(), session.id()));
      if (kept != null) {
        ConcurrentMap<String, Object> state = session.stateMap();
        kept.forEach(
            (name, value) ->
                state.put(name, java.util.Objects.requireNonNull(Json.copy(value), name)));
      }
    }
    return session;
  }

  @Override
  public String toString() {
    return store + (cipher == null ? " (secrets in memory)" : " (secrets encrypted)");
  }
}
