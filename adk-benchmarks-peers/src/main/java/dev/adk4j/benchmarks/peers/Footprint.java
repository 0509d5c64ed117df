package dev.adk4j.benchmarks.peers;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Heap per in-memory session (issue 32, item 5), adk4j's {@code InMemorySessionService} against ADK
 * for Java's: {@value #IDLE_SESSIONS} idle sessions of 10 state keys and 20 text events each, and
 * {@value #LONG_SESSIONS} sessions of 10,000 events; the heap retained after full collections,
 * minus the empty service's, divided by the sessions. How many idle sessions fit in 1 GiB follows
 * from it (heap only, nothing else in it).
 *
 * <p>Run: {@code java -Xmx3g -cp adk-benchmarks-peers/target/peers.jar
 * dev.adk4j.benchmarks.peers.Footprint} (peers.sh --footprint runs it).
 */
public final class Footprint {
  private Footprint() {}

  static final int IDLE_SESSIONS = 5_000;
  static final int LONG_SESSIONS = 5;
  static final int LONG_EVENTS = 10_000;

  /** What is measured on each side: creating sessions and appending text events. */
  interface Sessions {
    Object create(String id, Map<String, Object> state);

    void append(Object session, int i);

    int events(String id);
  }

  static Map<String, Object> state() {
    Map<String, Object> state = new LinkedHashMap<>();
    for (int k = 0; k < 10; k++) {
      state.put("key" + k, "value " + k);
    }
    return state;
  }

  static Content content(int i) {
    return Content.builder()
        .role(i % 2 == 1 ? "user" : "model")
        .parts(Part.fromText(PeerWorkload.priorMessage(i)))
        .build();
  }

  static Sessions adk4j() {
    dev.adk4j.sessions.InMemorySessionService service =
        new dev.adk4j.sessions.InMemorySessionService();
    return new Sessions() {
      @Override
      public Object create(String id, Map<String, Object> state) {
        return service
            .createSession(PeerWorkload.APP, PeerWorkload.USER, new ConcurrentHashMap<>(state), id)
            .blockingGet();
      }

      @Override
      public void append(Object session, int i) {
        service
            .appendEvent(
                (dev.adk4j.sessions.Session) session,
                dev.adk4j.events.Event.builder()
                    .invocationId("inv-" + (i + 1) / 2)
                    .author(i % 2 == 1 ? "user" : PeerWorkload.AGENT)
                    .content(content(i))
                    .build())
            .blockingGet();
      }

      @Override
      public int events(String id) {
        return service
            .getSession(PeerWorkload.APP, PeerWorkload.USER, id)
            .blockingGet()
            .events()
            .size();
      }
    };
  }

  static Sessions adkJava() {
    com.google.adk.sessions.InMemorySessionService service =
        new com.google.adk.sessions.InMemorySessionService();
    return new Sessions() {
      @Override
      public Object create(String id, Map<String, Object> state) {
        return service
            .createSession(PeerWorkload.APP, PeerWorkload.USER, new ConcurrentHashMap<>(state), id)
            .blockingGet();
      }

      @Override
      public void append(Object session, int i) {
        service
            .appendEvent(
                (com.google.adk.sessions.Session) session,
                com.google.adk.events.Event.builder()
                    .id(com.google.adk.events.Event.generateEventId())
                    .invocationId("inv-" + (i + 1) / 2)
                    .author(i % 2 == 1 ? "user" : PeerWorkload.AGENT)
                    .content(content(i))
                    .build())
            .blockingGet();
      }

      @Override
      public int events(String id) {
        return service
            .getSession(PeerWorkload.APP, PeerWorkload.USER, id, Optional.empty())
            .blockingGet()
            .events()
            .size();
      }
    };
  }

  static long usedAfterGc() {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }

  /** Bytes retained per session of {@code events} events, over {@code count} sessions. */
  static double perSession(String impl, int count, int events) {
    List<Object> keep = new ArrayList<>();
    long before = usedAfterGc();
    Sessions sessions = PeerWorkload.ADK4J.equals(impl) ? adk4j() : adkJava();
    Map<String, Object> state = state();
    for (int s = 0; s < count; s++) {
      String id = "s-" + s;
      Object session = sessions.create(id, state);
      for (int i = 1; i <= events; i++) {
        sessions.append(session, i);
      }
    }
    if (sessions.events("s-0") != events || sessions.events("s-" + (count - 1)) != events) {
      throw new IllegalStateException(impl + ": a session does not hold its " + events + " events");
    }
    keep.add(sessions);
    long after = usedAfterGc();
    double per = (after - before) / (double) count;
    keep.clear();
    return per;
  }

  public static void main(String[] args) {
    System.out.println(
        "| side | bytes per idle session (10 keys, 20 events) | idle sessions in 1 GiB"
            + " | bytes per 10,000-event session |");
    System.out.println("| --- | ---: | ---: | ---: |");
    for (String impl : new String[] {PeerWorkload.ADK4J, PeerWorkload.ADK_JAVA}) {
      // One untimed round first, so that class loading and caches are not counted.
      perSession(impl, 100, 20);
      double idle = perSession(impl, IDLE_SESSIONS, 20);
      double long_ = perSession(impl, LONG_SESSIONS, LONG_EVENTS);
      System.out.println(
          String.format(
              Locale.ROOT, "| %s | %,.0f | %,.0f | %,.0f |", impl, idle, (1L << 30) / idle, long_));
    }
  }
}
