package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.state.Scope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The history of a state key read from stored events: what the defaults of {@link
 * SessionStore#stateHistory} and {@link BaseSessionService#stateHistory} do, and what stores with
 * an index use to turn the events they find into {@link StateChange}s.
 */
final class StateHistories {
  private StateHistories() {}

  /** Changes of {@code user:} keys across sessions, by time, then session id, then sequence. */
  static final Comparator<Ordered> BY_TIME =
      Comparator.comparingLong(Ordered::time)
          .thenComparing(Ordered::sessionId)
          .thenComparingLong(Ordered::seq);

  /** A change with what orders it across sessions. */
  record Ordered(long time, String sessionId, long seq, StateChange change) {}

  /**
   * Checks the key of a history request.
   *
   * @throws IllegalArgumentException naming the key and the session if it is not a valid key, or a
   *     {@code temp:} key (never stored, so without history)
   */
  static String checkKey(String key, String app, String user, String sessionId) {
    try {
      Scope.checkKey(key);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          e.getMessage() + " (" + SessionException.describe(app, user, sessionId) + ")", e);
    }
    if (Scope.of(key) == Scope.TEMP) {
      throw new IllegalArgumentException(
          "State key '"
              + key
              + "' has no history: temp: keys are never stored ("
              + SessionException.describe(app, user, sessionId)
              + ")");
    }
    if (Scope.of(key) == Scope.SECRET) {
      throw new IllegalArgumentException(
          "State key '"
              + key
              + "' has no history: secret: values are never in stored events ("
              + SessionException.describe(app, user, sessionId)
              + ")");
    }
    return key;
  }

  /**
   * The change {@code event} made to {@code key}, or null if its delta does not hold the key.
   *
   * @param userId the user of the event's session
   * @param sessionId the event's session
   */
  static @Nullable StateChange changeOf(Event event, String key, String userId, String sessionId) {
    Map<String, @Nullable Object> delta = event.actions().stateDelta();
    if (!delta.containsKey(key)) {
      return null;
    }
    return new StateChange(
        key,
        Json.copy(delta.get(key)),
        userId,
        sessionId,
        event.id(),
        event.author(),
        event.invocationId(),
        Instant.ofEpochMilli(event.timestamp()));
  }

  /** Every change of {@code key} among a session's events (oldest first), in their order. */
  static List<StateChange> changesIn(List<Event> events, String key, String user, String session) {
    List<StateChange> changes = new ArrayList<>();
    for (Event e : events) {
      StateChange c = changeOf(e, key, user, session);
      if (c != null) {
        changes.add(c);
      }
    }
    return changes;
  }

  /**
   * The history of {@code key} read from a store's events: the session's, or, for a {@code user:}
   * key, those of all the user's sessions (ordered by {@link #BY_TIME}).
   *
   * @throws SessionNotFoundException if the session does not exist
   * @throws UnsupportedOperationException for an {@code app:} key: the store cannot list the app's
   *     users
   */
  static List<StateChange> fromEvents(
      SessionStore store, String app, String user, String sessionId, String key) {
    return read(
        id -> store.events(app, user, id),
        () -> store.list(app, user),
        store.getClass().getName() + " does not override SessionStore.stateHistory",
        user,
        sessionId,
        key);
  }

  /** {@link #fromEvents} through a service's {@code listEvents} and {@code listSessions}. */
  static List<StateChange> fromService(
      BaseSessionService service, String app, String user, String sessionId, String key) {
    return read(
        id -> service.listEvents(app, user, id).blockingGet().events(),
        () -> service.listSessions(app, user).blockingGet().sessions(),
        service.getClass().getName() + " does not override BaseSessionService.stateHistory",
        user,
        sessionId,
        key);
  }

  private static List<StateChange> read(
      Function<String, List<Event>> eventsOf,
      Supplier<List<Session>> sessions,
      String why,
      String user,
      String sessionId,
      String key) {
    List<Event> own = eventsOf.apply(sessionId); // throws if there is no such session
    switch (Scope.of(key)) {
      case SESSION:
        return changesIn(own, key, user, sessionId);
      case USER:
        List<Ordered> all = new ArrayList<>();
        for (Session s : sessions.get()) {
          List<Event> events = s.id().equals(sessionId) ? own : eventsOrNone(eventsOf, s.id());
          for (int i = 0; i < events.size(); i++) {
            StateChange c = changeOf(events.get(i), key, user, s.id());
            if (c != null) {
              all.add(new Ordered(events.get(i).timestamp(), s.id(), i + 1L, c));
            }
          }
        }
        all.sort(BY_TIME);
        return all.stream().map(Ordered::change).toList();
      default:
        throw new UnsupportedOperationException(
            "The history of app: key '" + key + "' needs a store that indexes it (" + why + ")");
    }
  }

  /** The events of a listed session, none if it was deleted meanwhile. */
  private static List<Event> eventsOrNone(Function<String, List<Event>> eventsOf, String id) {
    try {
      return eventsOf.apply(id);
    } catch (SessionNotFoundException e) {
      return List.of();
    }
  }
}
