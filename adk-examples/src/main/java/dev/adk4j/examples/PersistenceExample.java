package dev.adk4j.examples;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import java.nio.file.Path;

/**
 * State that survives restarts: each run of this program opens the SQLite file, starts a new
 * session for {@code alice}, counts the visit in {@code user:visits}, and closes the file. The
 * count goes on from where the previous run left it.
 */
public final class PersistenceExample {
  private PersistenceExample() {}

  public static void main(String[] args) {
    Path file = Path.of(args.length > 0 ? args[0] : "data/persistence.db");
    runOnce(file, new Transcript(System.out));
  }

  /** One run of the program: open, count the visit, close. Returns the new count. */
  public static int runOnce(Path databaseFile, Transcript t) {
    // tag::persistence[]
    try (DatabaseSessionService sessions =
        new DatabaseSessionService("jdbc:sqlite:" + databaseFile)) {
      Session session = sessions.createSession("visits_app", "alice", null, null).blockingGet();
      // An increment, not get + 1: the store adds it atomically, so visits counted by other
      // processes at the same time are never lost; the stored event records the new value.
      Event visit =
          Event.builder()
              .author("system")
              .actions(EventActions.builder().incrementState("user:visits", 1).build())
              .build();
      sessions.appendEvent(session, visit).blockingGet();
      int visits = session.state().get("user:visits") instanceof Number n ? n.intValue() : 0;
      // end::persistence[]
      t.say(
          "opened " + databaseFile + ", new session " + session.id() + ": user:visits = " + visits);
      return visits;
    }
  }
}
