package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import java.util.HashMap;
import java.util.Map;

/**
 * The child JVM of the durability test: appends events to one session in a loop through a {@link
 * DatabaseSessionService} and prints {@code ACK i} after append {@code i} is acknowledged, until it
 * is killed. Event {@code i} has id {@code e<i>} and sets {@code counter} and {@code user:last} to
 * {@code i} and adds key {@code k<i>}.
 *
 * <p>Arguments: JDBC URL, app, user, session id.
 */
public final class DurabilityWriter {
  private DurabilityWriter() {}

  public static void main(String[] args) {
    String url = args[0];
    String app = args[1];
    String user = args[2];
    String sessionId = args[3];
    try (DatabaseSessionService service = new DatabaseSessionService(url)) {
      Session session = service.getSession(app, user, sessionId).blockingGet();
      for (int i = 0; i < 1_000_000; i++) {
        Map<String, Object> delta = new HashMap<>();
        delta.put("counter", i);
        delta.put("k" + i, i);
        delta.put("user:last", i);
        delta.put("temp:scratch", i);
        Event event =
            Event.builder()
                .id("e" + i)
                .author("writer")
                .actions(EventActions.builder().stateDelta(delta).build())
                .build();
        service.appendEvent(session, event).blockingGet();
        System.out.println("ACK " + i);
        System.out.flush();
      }
    }
  }
}
