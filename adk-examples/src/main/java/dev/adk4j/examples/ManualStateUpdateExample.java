package dev.adk4j.examples;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import java.util.HashMap;
import java.util.Map;

/**
 * A manual update through {@code EventActions.stateDelta}: several keys in several scopes in one
 * event, appended with {@code appendEvent}. The {@code temp:} key is applied to the passed session
 * object only and never stored.
 */
public final class ManualStateUpdateExample {
  private ManualStateUpdateExample() {}

  /** Runs the example; returns the session read back after the update. */
  public static Session run(BaseSessionService sessions, Transcript t) {
    Session session =
        ExampleSupport.freshSession(
            sessions,
            "state_app_manual",
            "user2",
            "session2",
            Map.of("user:login_count", 0, "task_status", "idle"));
    t.step("Create a session with user:login_count = 0 and task_status = idle");
    t.state("Initial state", session);

    // tag::manual-update[]
    long now = System.currentTimeMillis();
    int loginCount = ((Number) session.state().getOrDefault("user:login_count", 0)).intValue();
    Map<String, Object> stateChanges = new HashMap<>();
    stateChanges.put("task_status", "active"); // session scope
    stateChanges.put("user:login_count", loginCount + 1); // user scope
    stateChanges.put("user:last_login_ts", now); // user scope, new key
    stateChanges.put("temp:validation_needed", true); // this invocation only: never stored

    Event systemEvent =
        Event.builder()
            .invocationId("inv_login_update")
            .author("system")
            .actions(EventActions.builder().stateDelta(stateChanges).build())
            .timestamp(now)
            .build();
    Event stored = sessions.appendEvent(session, systemEvent).blockingGet(); // without temp: keys
    // end::manual-update[]

    t.step("Append a system event whose stateDelta changes four keys");
    t.event(stored);
    t.say(
        "temp:validation_needed on the passed session object: "
            + session.state().get("temp:validation_needed")
            + " (a session copy holds stored state only)");
    Session updated = ExampleSupport.load(sessions, "state_app_manual", "user2", "session2");
    t.state("State read back from storage (no temp: key)", updated);
    return updated;
  }
}
