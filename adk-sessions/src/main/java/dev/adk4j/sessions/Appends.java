package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.internal.Json;
import dev.adk4j.internal.Text;
import dev.adk4j.state.Scope;
import io.reactivex.rxjava3.core.Single;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The storage-independent part of the session contract, for {@link StoreBackedSessionService} (and
 * so for every service): argument checks, value normalization, size limits, the stored form of an
 * event, the split of its delta by scope, and the update of the caller's copy after an append.
 */
final class Appends {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Appends.class);

  private Appends() {}

  /** {@code event} with the values of {@code resolved} in its state delta. */
  static Event withResolved(Event event, Map<String, Object> resolved) {
    if (resolved.isEmpty()) {
      return event;
    }
    Map<String, @Nullable Object> delta = new LinkedHashMap<>(event.actions().stateDelta());
    delta.putAll(resolved);
    return event.toBuilder().actions(event.actions().toBuilder().stateDelta(delta).build()).build();
  }

  /**
   * The {@code appendEvent} of every service: partial events are returned untouched; otherwise the
   * event is prepared, stored by {@code store}, and the passed session copy brought up to date. The
   * copy's monitor orders appends made through one copy (parallel branches of one invocation), so
   * each sends the revision the previous one produced.
   */
  static Single<Event> append(
      Session session, Event event, SessionLimits limits, SessionStore store) {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(event, "event");
    return Single.fromCallable(
        () -> {
          if (event.partial().orElse(false)) {
            return event;
          }
          PendingAppend pending = prepare(session, event, limits);
          Event stored;
          synchronized (session) {
            SessionStore.Appended result =
                store.append(pending, session.revision(), session.leaseOwner());
            Map<String, Object> resolved = result.resolved();
            stored = resolved.isEmpty() ? pending.event() : pending.eventWith(resolved);
            session.applyAppended(stored, pending.fullDeltaWith(resolved), result.revision());
          }
          if (log.isDebugEnabled()) {
            log.debug(
                "Appended event {} by {} to {} (revision {}, delta keys {})",
                stored.id(),
                stored.author(),
                session.describe(),
                session.revision(),
                pending.fullDelta().keySet());
          }
          return stored;
        });
  }

  /**
   * The error of an append whose event id is already stored in the session (the same event appended
   * twice, or another with a reused id): refused by every service, nothing stored.
   *
   * @param where the session, as {@link Session#describe()}
   */
  static IllegalArgumentException duplicateEvent(String eventId, String where) {
    return new IllegalArgumentException(
        "Event '"
            + eventId
            + "' is already stored in "
            + where
            + "; an event id is appended once per session (give a new event a new id);"
            + " nothing was stored");
  }

  /**
   * The {@code createSession} of every service: checks the ids, generates a missing session id,
   * normalizes and splits the initial state ({@code temp:} dropped), checks it against {@code
   * limits}, then lets {@code store} create the session.
   */
  static Single<Session> create(
      String appName,
      String userId,
      @Nullable Map<String, ? extends @Nullable Object> state,
      @Nullable String sessionId,
      java.time.@Nullable Duration timeToLive,
      SessionLimits limits,
      SecretKeepingStore store) {
    return Single.fromCallable(
        () -> {
          checkIds(appName, userId);
          String id = sessionIdOrNew(sessionId);
          checkLength(appName, "appName");
          checkLength(userId, "userId");
          checkLength(id, "sessionId");
          Scope.Split initial = initialState(appName, userId, id, state);
          Map<String, Object> secrets = initialSecrets(appName, userId, id, state);
          Supplier<String> where = () -> SessionException.describe(appName, userId, id);
          limits.checkValues(initial.app(), where);
          limits.checkValues(initial.user(), where);
          limits.checkValues(initial.session(), where);
          limits.checkValues(secrets, where);
          return store.create(appName, userId, id, initial, secrets, timeToLive);
        });
  }

  /** The {@code secret:} keys of an initial state, normalized and frozen, without removals. */
  private static Map<String, Object> initialSecrets(
      String appName,
      String userId,
      String sessionId,
      @Nullable Map<String, ? extends @Nullable Object> state) {
    if (state == null || state.isEmpty()) {
      return Map.of();
    }
    Map<String, Object> secrets = new LinkedHashMap<>();
    state.forEach(
        (k, v) -> {
          if (k != null && Scope.of(k) == Scope.SECRET) {
            Object value =
                normalize(appName, userId, sessionId, Collections.singletonMap(k, v)).get(k);
            if (value != null) {
              secrets.put(k, Objects.requireNonNull(Json.freeze(value), k));
            }
          }
        });
    return secrets;
  }

  static void checkIds(String appName, String userId) {
    requireText(appName, "appName");
    requireText(userId, "userId");
  }

  static void checkIds(String appName, String userId, String sessionId) {
    checkIds(appName, userId);
    requireText(sessionId, "sessionId");
  }

  static String sessionIdOrNew(@Nullable String sessionId) {
    if (sessionId == null) {
      return UUID.randomUUID().toString();
    }
    return requireText(sessionId, "sessionId");
  }

  /**
   * The initial state of a new session, normalized, frozen and split by scope ({@code temp:}
   * dropped).
   *
   * @throws IllegalArgumentException naming the key and session for an invalid key or value
   */
  static Scope.Split initialState(
      String appName,
      String userId,
      String sessionId,
      @Nullable Map<String, ? extends @Nullable Object> state) {
    if (state == null || state.isEmpty()) {
      return Scope.split(Map.of());
    }
    return Scope.split(frozen(appName, userId, sessionId, state)); // a store may keep them
  }

  /**
   * Prepares {@code event} for appending to {@code session}: checks and normalizes its delta and
   * builds the stored form, without {@code temp:} keys, and checks it against {@code limits}.
   */
  static PendingAppend prepare(Session session, Event event, SessionLimits limits) {
    EventActions actions = event.actions();
    Map<String, @Nullable Object> delta = actions.stateDelta();
    // The stored event, what a store keeps and the caller's copy hold frozen values, which readers
    // then share. A value written through a State was checked, normalized and frozen there: a
    // delta of valid keys, none temp: or secret:, whose values are all frozen (Json.isFrozen, a
    // walk that copies nothing) is already in that form (the common case): it is used as it is,
    // and its event stored as it is. Anything else (an EventActions built by hand, an imported
    // event) is normalized and frozen here.
    Map<String, @Nullable Object> full;
    Map<String, @Nullable Object> kept;
    Map<String, @Nullable Object> secrets;
    Supplier<String> where = session::describe;
    long keptAtMost = storedFormAtMost(session, delta, limits, where);
    if (keptAtMost >= 0) {
      full = delta;
      kept = delta;
      secrets = Map.of();
    } else {
      full = frozen(session.appName(), session.userId(), session.id(), delta);
      kept = withoutTempOrSecrets(full);
      // secret: keys were left out of kept: they go to the service's secret keeping, never to a
      // store in clear nor into the stored event.
      secrets = kept.size() == full.size() ? Map.of() : secretsOf(full);
    }
    Map<String, @Nullable Object> expected =
        actions.expectedState().isEmpty()
            ? Map.of()
            : Collections.unmodifiableMap(
                storedKeysOf(
                    normalize(
                        session.appName(),
                        session.userId(),
                        session.id(),
                        actions.expectedState())));
    Map<String, Long> increments = Map.of();
    if (!actions.stateIncrements().isEmpty()) {
      Map<String, Long> nonTemp = new LinkedHashMap<>();
      actions
          .stateIncrements()
          .forEach(
              (key, amount) -> {
                checkKey(session, key);
                Scope scope = Scope.of(key);
                if (scope.isStored()) {
                  nonTemp.put(key, amount);
                } else if (scope == Scope.SECRET && !delta.containsKey(key)) {
                  throw new IllegalArgumentException(
                      "Secret key '"
                          + key
                          + "' cannot be incremented by the store ("
                          + session.describe()
                          + "): secrets are kept apart from stored state; put its new value");
                }
              });
      increments = Collections.unmodifiableMap(nonTemp);
    }
    // An event whose delta is already what is stored (no temp: keys, no conditions, values
    // immutable scalars or frozen, so the same instances) is stored as it is.
    Event stored =
        actions.expectedState().isEmpty()
                && actions.stateIncrements().isEmpty()
                && (kept == delta || sameEntries(kept, delta))
            ? event
            : event.toBuilder()
                .actions(
                    actions.toBuilder()
                        .stateDelta(kept)
                        .expectedState(Map.of())
                        .stateIncrements(Map.of())
                        .build())
                .build();
    if (kept == delta) { // its values were measured by storedFormAtMost
      limits.checkEvent(stored, keptAtMost, where);
    } else {
      limits.checkAppend(kept, stored, where); // stored's delta is kept
    }
    if (!secrets.isEmpty()) {
      limits.checkValues(secrets, where);
    }
    return new PendingAppend(session, stored, full, kept, expected, increments, secrets);
  }

  /**
   * Whether {@code delta} is already what is stored (valid keys, none {@code temp:}, every value
   * {@linkplain Json#isFrozen frozen}), and if so its size bound as {@link
   * SessionLimits#checkValues} returns it, its values checked against {@code limits}; -1 if not.
   * One pass, up to the first key that is not so: this runs on every append.
   *
   * @throws IllegalArgumentException naming the key and the session for an invalid key or a value
   *     over the limit
   */
  private static long storedFormAtMost(
      Session session,
      Map<String, @Nullable Object> delta,
      SessionLimits limits,
      Supplier<String> where) {
    long atMost = 2;
    for (Map.Entry<String, @Nullable Object> e : delta.entrySet()) {
      String key = e.getKey();
      Object value = e.getValue();
      checkKey(session, key);
      if (!Scope.of(key).isStored() || !Json.isFrozen(value)) {
        return -1;
      }
      atMost += limits.checkValue(key, value, where);
    }
    return atMost;
  }

  /** The {@code secret:} entries of {@code delta}, values frozen. */
  private static Map<String, @Nullable Object> secretsOf(Map<String, @Nullable Object> delta) {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    delta.forEach(
        (k, v) -> {
          if (Scope.of(k) == Scope.SECRET) {
            out.put(k, v);
          }
        });
    return out.isEmpty() ? Map.of() : Collections.unmodifiableMap(out);
  }

  /** {@code map} without its {@code temp:} and {@code secret:} keys. */
  private static Map<String, @Nullable Object> storedKeysOf(Map<String, @Nullable Object> map) {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    map.forEach(
        (k, v) -> {
          if (Scope.of(k).isStored()) {
            out.put(k, v);
          }
        });
    return out;
  }

  /** Whether the two maps hold the same keys with the very same value instances. */
  private static boolean sameEntries(
      Map<String, @Nullable Object> a, Map<String, @Nullable Object> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (Map.Entry<String, @Nullable Object> e : b.entrySet()) {
      if (a.get(e.getKey()) != e.getValue() || !a.containsKey(e.getKey())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The entries of {@code delta} that are stored (neither {@code temp:} nor {@code secret:}):
   * {@code delta} itself when it has no other.
   */
  private static Map<String, @Nullable Object> withoutTempOrSecrets(
      Map<String, @Nullable Object> delta) {
    boolean all = true;
    for (String k : delta.keySet()) {
      if (!Scope.of(k).isStored()) {
        all = false;
        break;
      }
    }
    if (all) {
      return delta;
    }
    Map<String, @Nullable Object> out = new LinkedHashMap<>(Math.max(4, delta.size() * 2));
    delta.forEach(
        (k, v) -> {
          if (Scope.of(k).isStored()) {
            out.put(k, v);
          }
        });
    return out;
  }

  /**
   * {@code in} with its keys checked and its values normalized and frozen ({@link Json#frozen}: a
   * value already frozen is kept as it is), for an append's delta.
   *
   * @throws IllegalArgumentException naming the key and the session
   */
  private static Map<String, @Nullable Object> frozen(
      String appName, String userId, String sessionId, Map<String, ? extends @Nullable Object> in) {
    Map<String, @Nullable Object> out = new LinkedHashMap<>(Math.max(4, in.size() * 2));
    for (Map.Entry<String, ? extends @Nullable Object> e : in.entrySet()) {
      String key = e.getKey();
      try {
        Scope.checkKey(key);
        out.put(key, Json.frozen(key, e.getValue()));
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException(
            ex.getMessage() + " (" + SessionException.describe(appName, userId, sessionId) + ")",
            ex);
      }
    }
    return Collections.unmodifiableMap(out);
  }

  private static void checkKey(Session session, String key) {
    try {
      Scope.checkKey(key);
    } catch (IllegalArgumentException ex) {
      throw new IllegalArgumentException(ex.getMessage() + " (" + session.describe() + ")", ex);
    }
  }

  private static Map<String, @Nullable Object> normalize(
      String appName, String userId, String sessionId, Map<String, ? extends @Nullable Object> in) {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, ? extends @Nullable Object> e : in.entrySet()) {
      String key = e.getKey();
      try {
        Scope.checkKey(key);
        out.put(key, Json.normalize(key, e.getValue()));
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException(
            ex.getMessage() + " (" + SessionException.describe(appName, userId, sessionId) + ")",
            ex);
      }
    }
    return out;
  }

  /**
   * Checks an id: null is a {@link NullPointerException}, an empty id or one of whitespace only an
   * {@link IllegalArgumentException}, each naming the id. Such an id could not be told apart in
   * logs and messages, and no service stores it. Other ids are kept exactly as given (surrounding
   * whitespace included).
   */
  /**
   * Refuses an id of a new session over {@link SessionLimits#MAX_ID_BYTES}. Only creation checks
   * it, so that sessions a store already holds stay reachable whatever their ids.
   */
  private static void checkLength(String value, String name) {
    if (Text.longerThan(value, SessionLimits.MAX_ID_BYTES)) {
      throw new IllegalArgumentException(
          name
              + " "
              + Text.quote(value)
              + " is "
              + Text.utf8Length(value)
              + " bytes of UTF-8, over the limit of "
              + SessionLimits.MAX_ID_BYTES
              + " for a new session (SessionLimits.MAX_ID_BYTES); nothing was stored");
    }
  }

  static String requireText(@Nullable String value, String name) {
    if (value == null) { // the message is built only on failure: this runs on every call
      throw new NullPointerException(name + " must not be null");
    }
    if (value.isEmpty()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
    if (value.isBlank()) {
      throw new IllegalArgumentException(
          name + " must not be blank, got " + Text.quote(value) + " (whitespace only)");
    }
    return value;
  }
}
