package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.state.Json;
import dev.adk4j.state.Scope;
import io.reactivex.rxjava3.core.Single;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The storage-independent part of the session contract, shared by every service: argument checks,
 * value normalization, the stored form of an event and the split of its delta by scope.
 */
final class Appends {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Appends.class);

  private Appends() {}

  /**
   * An append prepared for storage: the event as it will be stored (without {@code temp:} keys,
   * conditions or increments), the full delta (temp keys included) for the caller's copy, the
   * stored delta split by scope, and the conditions and increments to apply, without {@code temp:}
   * keys.
   */
  record Prepared(
      Event stored,
      Map<String, @Nullable Object> fullDelta,
      Scope.Split split,
      Map<String, @Nullable Object> expected,
      Map<String, Long> increments,
      long timestamp) {

    /** Whether the store must read keys before writing them. */
    boolean isConditional() {
      return !expected.isEmpty() || !increments.isEmpty();
    }
  }

  /** What a store did: the session's new revision and the values its increments produced. */
  record Stored(long revision, Map<String, Object> resolved) {}

  /** Stores a prepared append for a service. */
  @FunctionalInterface
  interface Storage {
    /**
     * @throws SessionNotFoundException if the session does not exist
     * @throws StaleSessionException if {@code session.revision()} is not the stored revision
     * @throws StateConflictException if an expected key has another value in storage
     * @throws SessionBusyException if another invocation holds the session's lease
     */
    Stored store(Session session, Prepared prepared);
  }

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
   * event is prepared, stored by {@code storage}, and the passed session copy brought up to date.
   * The copy's monitor orders appends made through one copy (parallel branches of one invocation),
   * so each sends the revision the previous one produced.
   */
  static Single<Event> append(Session session, Event event, SessionLimits limits, Storage storage) {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(event, "event");
    return Single.fromCallable(
        () -> {
          if (event.partial().orElse(false)) {
            return event;
          }
          Prepared prepared = prepare(session, event, limits);
          Event stored;
          synchronized (session) {
            Stored result = storage.store(session, prepared);
            stored = withResolved(prepared.stored(), result.resolved());
            Map<String, @Nullable Object> fullDelta = prepared.fullDelta();
            if (!result.resolved().isEmpty()) {
              fullDelta = new LinkedHashMap<>(fullDelta);
              fullDelta.putAll(result.resolved());
            }
            session.applyAppended(stored, fullDelta, result.revision());
          }
          if (log.isDebugEnabled()) {
            log.debug(
                "Appended event {} by {} to {} (revision {}, delta keys {})",
                stored.id(),
                stored.author(),
                session.describe(),
                session.revision(),
                prepared.fullDelta().keySet());
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

  /** Creates a session for a service, given the checked ids and the split initial state. */
  @FunctionalInterface
  interface Creation {
    /**
     * @throws SessionAlreadyExistsException if the id is taken for that app and user
     */
    Session create(String appName, String userId, String sessionId, Scope.Split initialState);
  }

  /**
   * The {@code createSession} of every service: checks the ids, generates a missing session id,
   * normalizes and splits the initial state ({@code temp:} dropped), then lets {@code creation}
   * store it.
   */
  static Single<Session> create(
      String appName,
      String userId,
      @Nullable Map<String, ? extends @Nullable Object> state,
      @Nullable String sessionId,
      SessionLimits limits,
      Creation creation) {
    return Single.fromCallable(
        () -> {
          checkIds(appName, userId);
          String id = sessionIdOrNew(sessionId);
          Scope.Split initial = initialState(appName, userId, id, state);
          Supplier<String> where = () -> SessionException.describe(appName, userId, id);
          limits.checkValues(initial.app(), where);
          limits.checkValues(initial.user(), where);
          limits.checkValues(initial.session(), where);
          return creation.create(appName, userId, id, initial);
        });
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
   * The initial state of a new session, normalized and split by scope ({@code temp:} dropped).
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
    return Scope.split(normalize(appName, userId, sessionId, state));
  }

  /**
   * Prepares {@code event} for appending to {@code session}: checks and normalizes its delta and
   * builds the stored form, without {@code temp:} keys, and checks it against {@code limits}.
   */
  static Prepared prepare(Session session, Event event, SessionLimits limits) {
    EventActions actions = event.actions();
    Map<String, @Nullable Object> delta = actions.stateDelta();
    Map<String, @Nullable Object> full =
        delta.isEmpty()
            ? Map.of()
            : normalize(session.appName(), session.userId(), session.id(), delta);
    // The stored event, and what a service keeps, hold immutable copies of the values, which
    // readers then share; the caller's copy gets the mutable ones.
    Map<String, @Nullable Object> kept = frozenWithoutTemp(full);
    Map<String, @Nullable Object> expected =
        actions.expectedState().isEmpty()
            ? Map.of()
            : Scope.withoutTemp(
                normalize(
                    session.appName(), session.userId(), session.id(), actions.expectedState()));
    Map<String, Long> increments = new LinkedHashMap<>();
    actions
        .stateIncrements()
        .forEach(
            (key, amount) -> {
              checkKey(session, key);
              if (Scope.of(key) != Scope.TEMP) {
                increments.put(key, amount);
              }
            });
    // An event whose delta is already what is stored (no temp: keys, no conditions, values
    // immutable scalars or frozen, so the same instances) is stored as it is.
    Event stored =
        actions.expectedState().isEmpty()
                && actions.stateIncrements().isEmpty()
                && sameEntries(kept, delta)
            ? event
            : event.toBuilder()
                .actions(
                    actions.toBuilder()
                        .stateDelta(kept)
                        .expectedState(Map.of())
                        .stateIncrements(Map.of())
                        .build())
                .build();
    limits.checkValues(kept, session::describe);
    limits.checkEvent(stored, session::describe);
    return new Prepared(stored, full, Scope.split(kept), expected, increments, event.timestamp());
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
   * The non-{@code temp:} entries of {@code delta}, with their values frozen ({@link Json#freeze}).
   */
  private static Map<String, @Nullable Object> frozenWithoutTemp(
      Map<String, @Nullable Object> delta) {
    if (delta.isEmpty()) {
      return Map.of();
    }
    Map<String, @Nullable Object> out = new LinkedHashMap<>(Math.max(4, delta.size() * 2));
    delta.forEach(
        (k, v) -> {
          if (Scope.of(k) != Scope.TEMP) {
            out.put(k, Json.freeze(v));
          }
        });
    return out;
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
  static String requireText(@Nullable String value, String name) {
    Objects.requireNonNull(value, name + " must not be null");
    if (value.isEmpty()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
    if (value.isBlank()) {
      throw new IllegalArgumentException(
          name + " must not be blank, got '" + value + "' (whitespace only)");
    }
    return value;
  }
}
