package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/** Checks of what a session service holds, read fresh from storage. */
final class StoredHistory {
  private StoredHistory() {}

  /** A fresh read of a session, or null if it does not exist. */
  static @Nullable Session read(BaseSessionService sessions, String app, String user, String id) {
    return sessions.getSession(app, user, id).blockingGet();
  }

  /** The session's state as canonical JSON (keys sorted), prefixes included. */
  static String stateJson(Session s) {
    return Json.toJson(new TreeMap<>(s.state()));
  }

  /** Each event as JSON, in order. */
  static List<String> eventsJson(Session s) {
    List<String> out = new ArrayList<>();
    for (Event e : s.events()) {
      out.add(Json.toJson(e));
    }
    return out;
  }

  /** Everything a read returns: state, events, revision and update time. */
  static String describe(@Nullable Session s) {
    if (s == null) {
      return "absent";
    }
    return stateJson(s)
        + " events="
        + eventsJson(s)
        + " revision="
        + s.revision()
        + " updated="
        + s.lastUpdateTime();
  }

  /** Function call ids in {@code events} without a response among them. */
  static Set<String> unansweredCalls(List<Event> events) {
    Set<String> calls = new LinkedHashSet<>();
    for (Event e : events) {
      for (Part p : e.content().flatMap(Content::parts).orElse(List.of())) {
        p.functionCall().flatMap(c -> c.id()).ifPresent(calls::add);
      }
    }
    for (Event e : events) {
      for (Part p : e.content().flatMap(Content::parts).orElse(List.of())) {
        p.functionResponse().flatMap(r -> r.id()).ifPresent(calls::remove);
      }
    }
    return calls;
  }

  /**
   * Asserts that {@code after} is {@code before} plus events that changed no state: the state is
   * the same, the events before are kept as they were, every later one has an empty state and
   * artifact delta, the revision counts the new events, and every function call is answered.
   *
   * @return the new events
   */
  static List<Event> assertOnlyStatelessEventsAdded(Session before, Session after) {
    assertThat(stateJson(after)).as("state after the turn").isEqualTo(stateJson(before));
    List<String> was = eventsJson(before);
    List<String> now = eventsJson(after);
    assertThat(now.size()).isGreaterThanOrEqualTo(was.size());
    assertThat(now.subList(0, was.size())).as("events stored before").isEqualTo(was);
    List<Event> added = after.events().subList(was.size(), now.size());
    for (Event e : added) {
      assertThat(e.actions().stateDelta()).as("state delta of new event %s", e.id()).isEmpty();
      assertThat(e.actions().artifactDelta())
          .as("artifact delta of new event %s", e.id())
          .isEmpty();
    }
    assertThat(after.revision()).isEqualTo(before.revision() + added.size());
    assertThat(unansweredCalls(after.events())).as("unanswered function calls").isEmpty();
    return added;
  }
}
