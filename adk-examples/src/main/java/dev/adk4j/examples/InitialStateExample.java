package dev.adk4j.examples;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.state.State;
import java.util.Map;
import java.util.TreeMap;

/**
 * Initial state at creation, routed by prefix, and reading it back: one key, a scoped key, and the
 * whole state.
 */
public final class InitialStateExample {
  private InitialStateExample() {}

  /** Runs the example; returns the session as read back from storage. */
  public static Session run(BaseSessionService sessions, Transcript t) {
    // tag::initial-state[]
    Map<String, Object> initialState =
        Map.of(
            State.APP_PREFIX + "version",
            "1.0.0", // app scope: every user of my_app
            State.USER_PREFIX + "name",
            "Alice", // user scope: all of user_123's sessions
            "topic",
            "Getting started"); // session scope: this session only
    Session session =
        ExampleSupport.freshSession(sessions, "my_app", "user_123", "intro", initialState);

    Object topic = session.state().get("topic"); // "Getting started"
    Object version = session.state().get("app:version"); // "1.0.0"
    Map<String, Object> all = new TreeMap<>(session.state()); // every key, prefixes included
    // end::initial-state[]

    t.step("Create a session with app:version, user:name and topic");
    t.say("topic       = " + topic);
    t.say("app:version = " + version);
    t.say("all state   = " + all);
    Session reread = ExampleSupport.load(sessions, "my_app", "user_123", "intro");
    t.state("State read back from storage", reread);
    return reread;
  }
}
