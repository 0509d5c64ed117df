package dev.adk4j.runner;

import com.google.genai.types.Blob;
import com.google.genai.types.Part;
import dev.adk4j.agents.IdSource;
import dev.adk4j.artifacts.BaseArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.internal.Json;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.StateChange;
import dev.adk4j.state.Scope;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** The event {@link Runner#rewind} appends: what to restore, computed from the session's events. */
final class Rewinds {
  private Rewinds() {}

  /**
   * The rewind event for {@code session} (all its events) to before {@code invocationId}; saves the
   * restored artifact versions on the way.
   *
   * @throws IllegalArgumentException if no event of the session belongs to that invocation
   */
  static Event rewindEvent(
      Session session,
      String invocationId,
      BaseSessionService sessions,
      @Nullable BaseArtifactService artifacts,
      String appName,
      IdSource ids,
      java.time.Clock clock) {
    List<Event> events = session.events();
    int index = -1;
    for (int i = 0; i < events.size(); i++) {
      if (invocationId.equals(events.get(i).invocationId())) {
        index = i;
        break;
      }
    }
    if (index < 0) {
      throw new IllegalArgumentException(
          "Cannot rewind session '"
              + session.id()
              + "' of user '"
              + session.userId()
              + "' in app '"
              + appName
              + "' to before invocation '"
              + invocationId
              + "': none of its events belongs to that invocation");
    }
    EventActions.Builder actions =
        EventActions.builder()
            .rewindBeforeInvocationId(invocationId)
            .stateDelta(stateDelta(session, events, index));
    sharedKeys(session, events, index, sessions, appName, actions);
    return Event.builder()
        .id(ids.newEventId())
        .timestamp(clock.millis())
        .invocationId(ids.newInvocationId())
        .author("user")
        .actions(
            actions
                .artifactDelta(artifactDelta(session, events, index, artifacts, appName))
                .build())
        .build();
  }

  /**
   * Restores the {@code user:} and {@code app:} keys the undone events changed, where no other
   * event changed them since (the last change of their state history that changed the value is one
   * of the undone events; a write of the value a key already held changes nothing): each gets the
   * value of its last change before the first undone one, from any session, or is removed. The
   * rewind event expects each such key to still hold its current value, so that a session changing
   * it meanwhile fails the rewind ({@code StateConflictException}) rather than being overwritten. A
   * key changed elsewhere after the undone events keeps its value (that later write wins), and so
   * does every key of a service without state history for its scope.
   */
  private static void sharedKeys(
      Session session,
      List<Event> events,
      int index,
      BaseSessionService sessions,
      String appName,
      EventActions.Builder actions) {
    Set<String> undone = new HashSet<>();
    Set<String> keys = new java.util.TreeSet<>();
    for (int i = index; i < events.size(); i++) {
      Event e = events.get(i);
      undone.add(e.id());
      for (String key : e.actions().stateDelta().keySet()) {
        Scope scope = Scope.of(key);
        if (scope == Scope.USER || scope == Scope.APP) {
          keys.add(key);
        }
      }
    }
    for (String key : keys) {
      List<StateChange> history;
      try {
        history = sessions.stateHistory(appName, session.userId(), session.id(), key).blockingGet();
      } catch (UnsupportedOperationException e) {
        continue; // this service keeps no history for the key's scope: left as it is
      }
      StateChange last = lastEffective(history);
      if (last == null || !isUndone(last, session, undone)) {
        continue; // changed elsewhere since: the later write stands
      }
      Object before = null;
      for (StateChange change : history) {
        if (isUndone(change, session, undone)) {
          break;
        }
        before = change.value();
      }
      Object now = session.state().get(key);
      if (!Json.sameValue(before, now)) {
        actions.putState(key, before).expectState(key, now);
      }
    }
  }

  /**
   * The last change of {@code history} that changed the key's value. A write of the value the key
   * already held changes nothing: it is not a change for the rewind's rule (and no conditional
   * write could tell it from no write at all, so the rewind's expectation could not protect it).
   */
  private static @Nullable StateChange lastEffective(List<StateChange> history) {
    StateChange last = null;
    Object value = null;
    for (StateChange change : history) {
      if (!Json.sameValue(value, change.value())) {
        last = change;
      }
      value = change.value();
    }
    return last;
  }

  private static boolean isUndone(StateChange change, Session session, Set<String> undone) {
    return change.sessionId().equals(session.id())
        && change.userId().equals(session.userId())
        && undone.contains(change.eventId());
  }

  /**
   * The session keys changed from event {@code index} on, each with the value it had before that
   * event (its last write before it), or {@code null} (removed) if no earlier event wrote it.
   * ({@code app:}/{@code user:} keys are restored by {@link #sharedKeys}.) Keys no event from
   * {@code index} on changed are left as they are (an initial value stays).
   */
  private static Map<String, @Nullable Object> stateDelta(
      Session session, List<Event> events, int index) {
    Set<String> changed = new HashSet<>();
    for (int i = index; i < events.size(); i++) {
      for (String key : events.get(i).actions().stateDelta().keySet()) {
        if (Scope.of(key) == Scope.SESSION) {
          changed.add(key);
        }
      }
    }
    Map<String, @Nullable Object> before = new HashMap<>();
    for (int i = 0; i < index; i++) {
      events
          .get(i)
          .actions()
          .stateDelta()
          .forEach(
              (key, value) -> {
                if (changed.contains(key)) {
                  before.put(key, value);
                }
              });
    }
    Map<String, @Nullable Object> delta = new LinkedHashMap<>();
    for (String key : changed) {
      Object then = before.get(key);
      Object now = session.state().get(key);
      if (!Json.sameValue(then, now)) {
        delta.put(key, then);
      }
    }
    return delta;
  }

  /**
   * The session's artifacts (not {@code user:} ones) whose version changed from event {@code index}
   * on, each saved again as a new version holding the content it had before (or no data if it did
   * not exist), mapped to that new version.
   */
  private static Map<String, Integer> artifactDelta(
      Session session,
      List<Event> events,
      int index,
      @Nullable BaseArtifactService artifacts,
      String appName) {
    if (artifacts == null) {
      return Map.of();
    }
    Map<String, Integer> then = new HashMap<>();
    Map<String, Integer> now = new LinkedHashMap<>();
    for (int i = 0; i < events.size(); i++) {
      Map<String, Integer> saved = events.get(i).actions().artifactDelta();
      if (i < index) {
        then.putAll(saved);
      }
      now.putAll(saved);
    }
    Map<String, Integer> delta = new LinkedHashMap<>();
    for (Map.Entry<String, Integer> e : now.entrySet()) {
      String file = e.getKey();
      Integer version = then.get(file);
      if (file.startsWith("user:") || e.getValue().equals(version)) {
        continue;
      }
      Part content =
          version == null
              ? Part.builder()
                  .inlineData(
                      Blob.builder().mimeType("application/octet-stream").data(new byte[0]).build())
                  .build()
              : artifacts
                  .loadArtifact(appName, session.userId(), session.id(), file, Optional.of(version))
                  .blockingGet();
      if (content == null) {
        continue; // the old version is gone: nothing to restore it from
      }
      int restored =
          artifacts
              .saveArtifact(appName, session.userId(), session.id(), file, content)
              .blockingGet();
      delta.put(file, restored);
    }
    return delta;
  }
}
