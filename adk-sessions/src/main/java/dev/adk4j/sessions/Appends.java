package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import dev.adk4j.state.Json;
import dev.adk4j.state.Scope;
import io.reactivex.rxjava3.core.Single;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The storage-independent part of the session contract, shared by every service: argument checks,
 * value normalization, the stored form of an event and the split of its delta by scope.
 */
final class Appends {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Appends.class);

  private Appends() {}

  /** An append prepared for storage. */
  record Prepared(
      Event stored, Map<String, @Nullable Object> fullDelta, Scope.Split split, long timestamp) {}

  /** Stores a prepared append for a service; returns the session's new revision. */
  @FunctionalInterface
  interface Storage {
    /**
     * @throws SessionNotFoundException if the session does not exist
     * @throws StaleSessionException if {@code session.revision()} is not the stored revision
     */
    long store(Session session, Prepared prepared);
  }

  /**
   * The {@code appendEvent} of every service: partial events are returned untouched; otherwise the
   * event is prepared, stored by {@code storage}, and the passed session copy brought up to date.
   * The copy's monitor orders appends made through one copy (parallel branches of one invocation),
   * so each sends the revision the previous one produced.
   */
  static Single<Event> append(Session session, Event event, Storage storage) {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(event, "event");
    return Single.fromCallable(
        () -> {
          if (event.partial().orElse(false)) {
            return event;
          }
          Prepared prepared = prepare(session, event);
          synchronized (session) {
            long revision = storage.store(session, prepared);
            session.applyAppended(prepared.stored(), prepared.fullDelta(), revision);
          }
          if (log.isDebugEnabled()) {
            log.debug(
                "Appended event {} by {} to {} (revision {}, delta keys {})",
                prepared.stored().id(),
                prepared.stored().author(),
                session.describe(),
                session.revision(),
                prepared.fullDelta().keySet());
          }
          return prepared.stored();
        });
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
      Creation creation) {
    return Single.fromCallable(
        () -> {
          checkIds(appName, userId);
          String id = sessionIdOrNew(sessionId);
          return creation.create(appName, userId, id, initialState(appName, userId, id, state));
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
   * builds the stored form, without {@code temp:} keys.
   */
  static Prepared prepare(Session session, Event event) {
    Map<String, @Nullable Object> delta = event.actions().stateDelta();
    Map<String, @Nullable Object> full =
        delta.isEmpty()
            ? Map.of()
            : normalize(session.appName(), session.userId(), session.id(), delta);
    Map<String, @Nullable Object> kept = Scope.withoutTemp(full);
    Event stored =
        event.toBuilder().actions(event.actions().toBuilder().stateDelta(kept).build()).build();
    return new Prepared(stored, full, Scope.split(kept), event.timestamp());
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

  private static String requireText(@Nullable String value, String name) {
    Objects.requireNonNull(value, name + " must not be null");
    if (value.isEmpty()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
    return value;
  }
}
