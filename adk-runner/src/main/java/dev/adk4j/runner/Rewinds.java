package dev.adk4j.runner;

import com.google.genai.types.Blob;
import com.google.genai.types.Part;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.artifacts.BaseArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.internal.Json;
import dev.adk4j.sessions.Session;
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
      @Nullable BaseArtifactService artifacts,
      String appName) {
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
    return Event.builder()
        .invocationId(InvocationContext.newInvocationContextId())
        .author("user")
        .actions(
            EventActions.builder()
                .rewindBeforeInvocationId(invocationId)
                .stateDelta(stateDelta(session, events, index))
                .artifactDelta(artifactDelta(session, events, index, artifacts, appName))
                .build())
        .build();
  }

  /**
   * The session keys changed from event {@code index} on, each with the value it had before that
   * event (its last write before it), or {@code null} (removed) if no earlier event wrote it.
   * {@code app:}/{@code user:} keys are shared with other sessions and left as they are; keys no
   * event from {@code index} on changed are left as they are too (an initial value stays).
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
