package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Session expiry, cleanup and retention on one backend, with a clock the test moves (no sleeps): an
 * expired session is unreadable everywhere, activity pushes its expiry back, the cleanup deletes
 * expired sessions in batches and keeps app and user state, and retention keeps the last events of
 * idle sessions without changing their state.
 */
abstract class ExpiryContract {

  static final String APP = "expiry_app";
  static final Duration TTL = Duration.ofMinutes(10);

  /** A clock the test moves; it starts at the real time (events carry real timestamps). */
  static final class TestClock extends Clock {
    private volatile Instant now = Instant.now();

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

  final TestClock clock = new TestClock();
  BaseSessionService service;

  /** A fresh service on a fresh store, following {@code clock}, with that default time to live. */
  protected abstract BaseSessionService open(Clock clock, @Nullable Duration defaultTtl)
      throws Exception;

  /** Rows per table for a database ({@code adk_sessions}, {@code adk_events}, ...), else empty. */
  protected Optional<Map<String, Long>> rowCounts() throws Exception {
    return Optional.empty();
  }

  @BeforeEach
  void openService() throws Exception {
    service = open(clock, null);
  }

  @AfterEach
  void closeService() throws Exception {
    if (service instanceof AutoCloseable c) {
      c.close();
    }
  }

  Session create(String user, String id, Map<String, Object> state, @Nullable Duration ttl) {
    return ttl == null
        ? service.createSession(APP, user, state, id).blockingGet()
        : service.createSession(APP, user, state, id, ttl).blockingGet();
  }

  Event append(Session s, Map<String, Object> delta) {
    return service
        .appendEvent(
            s,
            Event.builder()
                .author("system")
                .timestamp(clock.millis())
                .actions(EventActions.builder().stateDelta(delta).build())
                .build())
        .blockingGet();
  }

  boolean visible(String user, String id) {
    return service.getSession(APP, user, id).blockingGet() != null;
  }

  @Test
  void anExpiredSession_isInvisibleToEveryRead_andRefusesAppends() {
    Session s = create("alice", "s1", Map.of("k", 1), TTL);
    create("alice", "forever", Map.of(), null);
    clock.advance(Duration.ofMinutes(9));
    assertThat(visible("alice", "s1")).isTrue();
    append(s, Map.of("k", 2)); // activity: the expiry moves to 10 minutes from now
    clock.advance(Duration.ofMinutes(9));
    assertThat(visible("alice", "s1")).as("18 min after creation, 9 after activity").isTrue();

    clock.advance(Duration.ofMinutes(1));
    assertThat(service.getSession(APP, "alice", "s1").blockingGet()).isNull();
    assertThat(service.listSessions(APP, "alice").blockingGet().sessions())
        .extracting(Session::id)
        .containsExactly("forever");
    assertThat(
            service
                .listSessions(APP, "alice", ListSessionsRequest.builder().pageSize(1).build())
                .blockingGet()
                .sessions())
        .extracting(Session::id)
        .containsExactly("forever");
    assertThatThrownBy(() -> service.listEvents(APP, "alice", "s1").blockingGet())
        .isInstanceOf(SessionNotFoundException.class)
        .hasMessageContaining("'s1'");
    assertThatThrownBy(
            () ->
                service
                    .listEvents(APP, "alice", "s1", ListEventsRequest.builder().build())
                    .blockingGet())
        .isInstanceOf(SessionNotFoundException.class);
    assertThatThrownBy(() -> append(s, Map.of("k", 3)))
        .isInstanceOf(SessionNotFoundException.class)
        .hasMessageContaining("'s1'");
    // The id is free again: a new session, without the old one's state or events.
    Session again = create("alice", "s1", Map.of(), null);
    assertThat(again.state()).doesNotContainKey("k");
    assertThat(service.getSession(APP, "alice", "s1").blockingGet().events()).isEmpty();
  }

  @Test
  void theServiceDefault_appliesToSessionsCreatedWithoutATimeToLive() throws Exception {
    closeService();
    service = open(clock, Duration.ofHours(1));
    create("bob", "s1", Map.of(), null);
    create("bob", "long", Map.of(), Duration.ofHours(3));
    clock.advance(Duration.ofMinutes(61));
    assertThat(visible("bob", "s1")).isFalse();
    assertThat(visible("bob", "long")).isTrue();
  }

  @Test
  void aTimeToLive_mustBePositive() {
    assertThatThrownBy(() -> create("bob", "s", Map.of(), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeToLive");
  }

  @Test
  void purgeExpired_deletesInBatches_andKeepsAppAndUserState() throws Exception {
    for (int i = 0; i < 7; i++) {
      Session s = create("carol", "old" + i, Map.of("own", i), TTL);
      append(s, Map.of("user:seen", i, "app:total", i, "own", i + 100));
    }
    Session kept = create("carol", "kept", Map.of("mine", true), null);
    Session fresh = create("carol", "fresh", Map.of(), Duration.ofDays(1));
    Optional<Map<String, Long>> before = rowCounts();
    clock.advance(TTL.plusSeconds(1));

    SessionCleanup.Result r =
        service.purgeExpired(SessionCleanup.builder().batchSize(3).build()).blockingGet();

    assertThat(r.expiredSessions()).isEqualTo(7);
    assertThat(r.batches()).isEqualTo(3); // 3 + 3 + 1: the short batch ends the run
    assertThat(service.listSessions(APP, "carol").blockingGet().sessions())
        .extracting(Session::id)
        .containsExactly("fresh", "kept");
    Session read = service.getSession(APP, "carol", "kept").blockingGet();
    assertThat(read.state())
        .containsEntry("user:seen", 6)
        .containsEntry("app:total", 6)
        .containsEntry("mine", true)
        .doesNotContainKey("own");
    assertThat(visible("carol", "fresh")).isTrue();
    append(kept, Map.of("still", "works"));
    append(fresh, Map.of("still", "works"));
    assertThat(service.purgeExpired(SessionCleanup.defaults()).blockingGet().expiredSessions())
        .isZero();
    if (before.isPresent()) {
      Map<String, Long> after = rowCounts().orElseThrow();
      assertThat(after.get("adk_sessions")).isEqualTo(before.get().get("adk_sessions") - 7);
      assertThat(after.get("adk_events")).isEqualTo(before.get().get("adk_events") - 7 + 2);
      assertThat(after.get("adk_session_state"))
          .isEqualTo(before.get().get("adk_session_state") - 7 + 2);
      assertThat(after.get("adk_user_state")).isEqualTo(before.get().get("adk_user_state"));
      assertThat(after.get("adk_app_state")).isEqualTo(before.get().get("adk_app_state"));
    }
  }

  @Test
  void purgeExpired_stopsAfterMaxBatches_andTheNextRunGoesOn() {
    for (int i = 0; i < 5; i++) {
      create("dan", "s" + i, Map.of(), TTL);
    }
    clock.advance(TTL);
    SessionCleanup oneBatchOfTwo = SessionCleanup.builder().batchSize(2).maxBatches(1).build();
    assertThat(service.purgeExpired(oneBatchOfTwo).blockingGet().expiredSessions()).isEqualTo(2);
    assertThat(service.purgeExpired(oneBatchOfTwo).blockingGet().expiredSessions()).isEqualTo(2);
    assertThat(service.purgeExpired(oneBatchOfTwo).blockingGet().expiredSessions()).isEqualTo(1);
    assertThat(service.purgeExpired(oneBatchOfTwo).blockingGet().expiredSessions()).isZero();
  }

  @Test
  void retention_keepsTheLastEventsOfIdleSessions_andTheirStateAndNumbers() {
    Session idle = create("erin", "idle", Map.of("start", true), null);
    for (int i = 1; i <= 10; i++) {
      append(idle, Map.of("k", i, "user:u" + i, i));
    }
    clock.advance(Duration.ofDays(2));
    Session active = create("erin", "active", Map.of(), null);
    for (int i = 1; i <= 10; i++) {
      append(active, Map.of("k", i));
    }
    SessionCleanup retention =
        SessionCleanup.builder().batchSize(1).retainLastEvents(3, Duration.ofDays(1)).build();

    SessionCleanup.Result r = service.purgeExpired(retention).blockingGet();

    assertThat(r.trimmedSessions()).isEqualTo(1);
    assertThat(r.trimmedEvents()).isEqualTo(7);
    Session read = service.getSession(APP, "erin", "idle").blockingGet();
    assertThat(read.state()).containsEntry("k", 10).containsEntry("start", true);
    assertThat(read.state()).containsKeys("user:u1", "user:u10");
    assertThat(read.events()).hasSize(3);
    assertThat(read.events().get(0).actions().stateDelta()).containsEntry("k", 8);
    assertThat(service.listEvents(APP, "erin", "idle").blockingGet().events()).hasSize(3);
    // Sequence numbers stay: reading after revision 9 gives the 10th event.
    assertThat(
            service
                .getSession(
                    APP,
                    "erin",
                    "idle",
                    Optional.of(GetSessionConfig.builder().afterRevision(9).build()))
                .blockingGet()
                .events())
        .singleElement()
        .satisfies(e -> assertThat(e.actions().stateDelta()).containsEntry("k", 10));
    ListEventsResponse first =
        service
            .listEvents(APP, "erin", "idle", ListEventsRequest.builder().pageSize(2).build())
            .blockingGet();
    assertThat(first.events()).hasSize(2);
    ListEventsResponse second =
        service
            .listEvents(
                APP,
                "erin",
                "idle",
                ListEventsRequest.builder()
                    .pageSize(2)
                    .pageToken(first.nextPageToken().orElseThrow())
                    .build())
            .blockingGet();
    assertThat(second.events())
        .singleElement()
        .satisfies(e -> assertThat(e.actions().stateDelta()).containsEntry("k", 10));
    assertThat(service.listEvents(APP, "erin", "active").blockingGet().events()).hasSize(10);
    // Appends go on after the trim; a second run finds nothing more to trim.
    Session reloaded = service.getSession(APP, "erin", "idle").blockingGet();
    append(reloaded, Map.of("k", 11));
    assertThat(reloaded.revision()).isEqualTo(11);
    assertThat(service.purgeExpired(retention).blockingGet().trimmedSessions()).isZero();
  }

  @Test
  void aScheduledCleanup_deletesExpiredSessions() throws Exception {
    create("fay", "s1", Map.of(), TTL);
    clock.advance(TTL);
    ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    try {
      ScheduledFuture<?> task =
          SessionCleanup.defaults().schedule(executor, service, Duration.ofMillis(20));
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (!service.listSessions(APP, "fay").blockingGet().sessions().isEmpty()
          || rowsOfSessions() > 0) {
        assertThat(System.nanoTime()).as("cleaned up within 20 s").isLessThan(deadline);
        Thread.sleep(20);
      }
      task.cancel(false);
    } finally {
      executor.shutdownNow();
    }
    // Deleted for good: the same id is new.
    assertThat(create("fay", "s1", Map.of(), null).revision()).isZero();
  }

  private long rowsOfSessions() throws Exception {
    return rowCounts().map(m -> m.get("adk_sessions")).orElse(0L);
  }

  static List<String> tables() {
    return List.of(
        "adk_sessions", "adk_events", "adk_session_state", "adk_user_state", "adk_app_state");
  }
}
