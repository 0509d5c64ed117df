package dev.adk4j.examples;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionCleanup;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * Sessions that expire: a time to live per session (or a service default), pushed back by every
 * append; an expired session is invisible, and a cleanup deletes it for good in batches, keeping
 * the user's state. Retention keeps only the last events of idle sessions. A clock the example
 * moves stands in for the passing hours.
 */
public final class ExpiryExample {
  private ExpiryExample() {}

  /** A clock that moves only when told to. */
  static final class ExampleClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T09:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  /** What the example saw: visible after activity, gone after the time to live, counts. */
  public record Outcome(
      boolean visibleAfterActivity,
      boolean visibleAfterExpiry,
      SessionCleanup.Result purge,
      SessionCleanup.Result retention,
      int eventsLeft) {}

  public static Outcome run(Transcript t) {
    ExampleClock clock = new ExampleClock();
    // tag::expiry[]
    InMemorySessionService sessions =
        InMemorySessionService.builder()
            .defaultTimeToLive(Duration.ofHours(24)) // sessions created without one
            .clock(clock) // the system clock by default; a movable one here
            .build();
    Session chat =
        sessions
            .createSession(
                "support_app", "gus", Map.of("user:plan", "pro"), "chat", Duration.ofMinutes(30))
            .blockingGet();
    // end::expiry[]
    sessions.createSession("support_app", "gus", null, "quick").blockingGet(); // 24 h default
    t.step("A session with a 30-minute time to live; an append at minute 20 pushes it back");
    clock.advance(Duration.ofMinutes(20));
    append(sessions, chat, clock, Map.of("topic", "billing"));
    clock.advance(Duration.ofMinutes(20));
    boolean afterActivity = sessions.getSession("support_app", "gus", "chat").blockingGet() != null;
    t.say("minute 40 (20 after the append): visible = " + afterActivity);
    clock.advance(Duration.ofMinutes(11));
    boolean afterExpiry = sessions.getSession("support_app", "gus", "chat").blockingGet() != null;
    t.say("minute 51 (31 after the append): visible = " + afterExpiry);

    t.step("The cleanup deletes expired sessions for good, in batches; user state stays");
    // tag::cleanup[]
    SessionCleanup cleanup =
        SessionCleanup.builder()
            .batchSize(500) // each batch is one short transaction
            .retainLastEvents(2, Duration.ofDays(7)) // idle a week: keep the last 2 events
            .build();
    SessionCleanup.Result purged = sessions.purgeExpired(cleanup).blockingGet();
    // Or every 10 minutes: cleanup.schedule(executor, sessions, Duration.ofMinutes(10));
    // end::cleanup[]
    t.say(
        "deleted "
            + purged.expiredSessions()
            + " expired session(s) in "
            + purged.batches()
            + " batch(es)");
    Session next =
        sessions
            .createSession("support_app", "gus", null, "next", Duration.ofDays(30))
            .blockingGet();
    t.say("a new session of the user still reads user:plan = " + next.state().get("user:plan"));

    t.step("Retention: a session idle for more than a week keeps its last 2 events and its state");
    for (int i = 1; i <= 5; i++) {
      append(sessions, next, clock, Map.of("step", i));
    }
    clock.advance(Duration.ofDays(8));
    SessionCleanup.Result trimmed = sessions.purgeExpired(cleanup).blockingGet();
    Session reread = sessions.getSession("support_app", "gus", "next").blockingGet();
    t.say(
        "trimmed "
            + trimmed.trimmedEvents()
            + " event(s) of "
            + trimmed.trimmedSessions()
            + " session(s); 'next' keeps "
            + reread.events().size()
            + " events and step = "
            + reread.state().get("step"));
    t.say(
        "the same run deleted "
            + trimmed.expiredSessions()
            + " expired session(s): 'quick', created with the 24 h default");
    return new Outcome(afterActivity, afterExpiry, purged, trimmed, reread.events().size());
  }

  private static void append(
      BaseSessionService sessions, Session s, ExampleClock clock, Map<String, Object> delta) {
    sessions
        .appendEvent(
            s,
            Event.builder()
                .author("system")
                .timestamp(clock.millis())
                .actions(EventActions.builder().stateDelta(delta).build())
                .build())
        .blockingGet();
  }
}
