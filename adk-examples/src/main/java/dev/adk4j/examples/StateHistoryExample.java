package dev.adk4j.examples;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.StateChange;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who changed a key and when: {@code stateHistory} lists each change of a key from the stored
 * events, for a session key in its session and for a {@code user:} key across the user's sessions,
 * removals included.
 */
public final class StateHistoryExample {
  private StateHistoryExample() {}

  static final String APP = "history_app";
  static final String USER = "user9";

  /** Runs the example; returns the history of {@code user:theme} it printed. */
  public static List<StateChange> run(BaseSessionService sessions, Transcript t) {
    ExampleSupport.freshSession(sessions, APP, USER, "laptop", null);
    ExampleSupport.freshSession(sessions, APP, USER, "phone", null);

    t.step("Two sessions of one user change user:theme; one also drafts, then discards");
    change(sessions, "laptop", "settings-page", Map.of("user:theme", "dark", "draft", "Dear Bo"));
    change(sessions, "phone", "theme-tool", Map.of("user:theme", "light"));
    Map<String, Object> discard = new HashMap<>();
    discard.put("draft", null); // null removes the key
    discard.put("user:theme", "sepia");
    change(sessions, "laptop", "settings-page", discard);

    t.step("The history of each key, oldest first");
    // tag::history[]
    List<StateChange> theme =
        sessions.stateHistory(APP, USER, "laptop", "user:theme").blockingGet();
    for (StateChange c : theme) { // also: c.eventId(), c.invocationId(), c.timestamp()
      String value = c.removed() ? "(removed)" : String.valueOf(c.value());
      t.say(c.key() + " = " + value + " by " + c.author() + " in session " + c.sessionId());
    }
    // end::history[]
    print(sessions.stateHistory(APP, USER, "laptop", "draft").blockingGet(), t);
    Session laptop = ExampleSupport.load(sessions, APP, USER, "laptop");
    t.state("State of the laptop session now", laptop);
    return theme;
  }

  private static void change(
      BaseSessionService sessions, String session, String author, Map<String, Object> delta) {
    Session s = ExampleSupport.load(sessions, APP, USER, session);
    Event e =
        Event.builder()
            .author(author)
            .actions(EventActions.builder().stateDelta(delta).build())
            .build();
    sessions.appendEvent(s, e).blockingGet();
  }

  private static void print(List<StateChange> changes, Transcript t) {
    for (StateChange c : changes) {
      String value = c.removed() ? "(removed)" : String.valueOf(c.value());
      t.say(c.key() + " = " + value + " by " + c.author() + " in session " + c.sessionId());
    }
  }
}
