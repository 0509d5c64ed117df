package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A child JVM of the lease-order test: one of several processes taking turns on one session. Prints
 * {@code @@ READY} once its service is open; then, for each line {@code TURN <label>} read from
 * standard input, a thread takes the session's lease (printing {@code @@ QUEUED <label>} when it
 * has to wait, {@code @@ LEASED <label>} if it did not), appends one event whose state delta is
 * {@code turn = <label>}, releases the lease and prints {@code @@ DONE <label>}. {@code EXIT}: ends
 * once every turn is done. Protocol lines start with {@code @@ }; anything else is a log line.
 *
 * <p>Arguments: JDBC URL, app, user, session id.
 */
public final class QueuedTurns {
  private QueuedTurns() {}

  public static void main(String[] args) throws Exception {
    String app = args[1];
    String user = args[2];
    String id = args[3];
    try (DatabaseSessionService service =
        new DatabaseSessionService(
            args[0], DatabaseSessionConfig.builder().minimumIdle(0).build())) {
      // A first turn loads and compiles most of the code a turn runs: done on a session of its
      // own while all the children start, not on the shared session one after the other.
      String scratch = "warm-" + ProcessHandle.current().pid();
      service.createSession(app, user, null, scratch).blockingGet();
      turn(service, app, user, scratch, "warm-up", false);
      service.deleteSession(app, user, scratch).blockingAwait();
      say("READY");
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      List<Thread> turns = new ArrayList<>();
      String line;
      while ((line = in.readLine()) != null && !line.equals("EXIT")) {
        String label = line.substring("TURN ".length());
        Thread t = new Thread(() -> turn(service, app, user, id, label, true), "turn-" + label);
        t.start();
        turns.add(t);
      }
      for (Thread t : turns) {
        t.join();
      }
    }
  }

  private static void turn(
      DatabaseSessionService service,
      String app,
      String user,
      String id,
      String label,
      boolean report) {
    boolean[] waited = {false};
    try (SessionLease lease =
        service
            .acquireLease(
                app,
                user,
                id,
                Duration.ofSeconds(60),
                w -> {
                  waited[0] = true;
                  say("QUEUED " + label);
                })
            .blockingGet()) {
      if (!waited[0] && report) {
        say("LEASED " + label);
      }
      Session session = service.getSession(app, user, id).blockingGet();
      lease.attach(session);
      Event event =
          Event.builder()
              .invocationId("inv-" + label)
              .author("agent")
              .actions(EventActions.builder().stateDelta(Map.of("turn", label)).build())
              .build();
      service.appendEvent(session, event).blockingGet();
    } catch (RuntimeException e) {
      say("FAILED " + label + " " + e);
      return;
    }
    if (report) {
      say("DONE " + label);
    }
  }

  private static void say(String what) {
    synchronized (System.out) {
      System.out.println("@@ " + what);
      System.out.flush();
    }
  }
}
