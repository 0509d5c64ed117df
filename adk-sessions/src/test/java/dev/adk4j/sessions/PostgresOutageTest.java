package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The database goes away under a running service and comes back: calls during the outage fail
 * quickly (within about {@code connectionTimeout}) with a {@link SessionException} naming the
 * session and saying no connection could be had; once the database is back, calls succeed again
 * through the same service, without restarting it, and nothing stored is lost. Two outages: the
 * PostgreSQL server stopped and started again on the same data and port, and a network cut (a
 * {@link TcpProxy} that drops every connection and refuses new ones for a while).
 */
class PostgresOutageTest {

  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  private static final String APP = "outage";
  private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(1);

  private static final DatabaseSessionConfig CONFIG =
      DatabaseSessionConfig.builder()
          .connectionTimeout(CONNECTION_TIMEOUT)
          .socketTimeout(Duration.ofSeconds(2))
          .statementTimeout(Duration.ofSeconds(1))
          .minimumIdle(1)
          .build();

  @TempDir Path dir;

  private static Event event(String id, int value) {
    return Event.builder()
        .id(id)
        .author("test")
        .actions(
            EventActions.builder().stateDelta(Map.of("k", value)).incrementState("n", 1).build())
        .build();
  }

  private static EmbeddedPostgres start(Path data, int port) throws Exception {
    EmbeddedPostgresExtension.seed(data); // on the first start; a restart finds its data
    EmbeddedPostgres.Builder b =
        EmbeddedPostgres.builder()
            .setDataDirectory(data)
            .setCleanDataDirectory(false)
            .setServerConfig("fsync", "off");
    if (port > 0) {
      b.setPort(port);
    }
    return b.start();
  }

  /** Appends during the outage: each must fail fast, naming the session; returns the slowest. */
  private static long assertFailsFast(DatabaseSessionService service, Session s, Runnable undo) {
    long slowest = 0;
    for (int i = 0; i < 2; i++) {
      int n = i;
      Outcome down =
          Outcome.of(
              Duration.ofSeconds(15),
              () -> service.appendEvent(s, event("down" + n, -1)).blockingGet(),
              undo);
      assertThat(down.hung()).as("append during the outage: %s", down).isFalse();
      assertThat(down.failure())
          .isInstanceOf(SessionException.class)
          .hasMessageContaining("'s1'")
          .hasMessageContaining("'alice'")
          .hasMessageContaining("'" + APP + "'")
          .hasMessageContaining("no connection to the database within connectionTimeout (1 s)");
      slowest = Math.max(slowest, down.millis());
    }
    Outcome read =
        Outcome.of(
            Duration.ofSeconds(15),
            () -> service.getSession(APP, "alice", "s1").blockingGet(),
            undo);
    assertThat(read.failure())
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("'s1'")
        .hasMessageContaining("connectionTimeout");
    slowest = Math.max(slowest, read.millis());
    // Fast: within a few connection timeouts, not after many (the bound is loose for loaded
    // machines; the messages above say which timeout fired).
    assertThat(slowest).isLessThan(CONNECTION_TIMEOUT.toMillis() * 5);
    return slowest;
  }

  /** Appends until one succeeds; returns how long that took. */
  private static long recovery(DatabaseSessionService service, Session s, String id) {
    long start = System.nanoTime();
    long deadline = start + Duration.ofSeconds(20).toNanos();
    for (int attempt = 1; ; attempt++) {
      try {
        service.appendEvent(s, event(id, 2)).blockingGet();
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println(
            "[figures] recovered at attempt " + attempt + " after " + millis + " ms");
        return millis;
      } catch (SessionException e) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("the service did not recover within 20 s", e);
        }
      }
    }
  }

  private static void assertStored(String url, String... ids) {
    try (DatabaseSessionService fresh = new DatabaseSessionService(url, CONFIG)) {
      Session stored = fresh.getSession(APP, "alice", "s1").blockingGet();
      assertThat(stored.events()).extracting(Event::id).containsExactly(ids);
      assertThat(stored.state()).containsEntry("n", ids.length).containsEntry("k", 2);
    }
  }

  @Test
  void serverStoppedAndStarted_callsFailFastMeanwhile_andSucceedAfterwards() throws Exception {
    Path data = dir.resolve("pgdata");
    long creating = System.nanoTime();
    EmbeddedPostgres server = start(data, 0);
    System.out.println(
        "[figures] new server took " + (System.nanoTime() - creating) / 1_000_000 + " ms");
    int port = server.getPort();
    String url = server.getJdbcUrl("postgres", "postgres");
    try (DatabaseSessionService service = new DatabaseSessionService(url, CONFIG)) {
      Session s = service.createSession(APP, "alice", Map.of("n", 0), "s1").blockingGet();
      service.appendEvent(s, event("before", 1)).blockingGet();

      long stopping = System.nanoTime();
      server.close(); // a fast shutdown: backends are terminated, the port closes
      System.out.println(
          "[figures] server stop took " + (System.nanoTime() - stopping) / 1_000_000 + " ms");
      long slowest = assertFailsFast(service, s, () -> {});
      System.out.println("[figures] server down: calls failed within " + slowest + " ms");

      long starting = System.nanoTime();
      server = start(data, port);
      System.out.println(
          "[figures] server start took " + (System.nanoTime() - starting) / 1_000_000 + " ms");
      long recovered = recovery(service, s, "after");
      System.out.println(
          "[figures] server back: first append succeeded after " + recovered + " ms");
      assertThat(recovered).isLessThan(10_000L);
      assertThat(s.revision()).isEqualTo(2);
      assertStored(url, "before", "after");
    } finally {
      server.close();
    }
  }

  @Test
  void networkCut_callsFailFastMeanwhile_andSucceedOnceItHeals() throws Exception {
    String direct = POSTGRES.newMigratedDatabase();
    try (TcpProxy proxy = new TcpProxy("localhost", POSTGRES.port());
        DatabaseSessionService service =
            new DatabaseSessionService(POSTGRES.withPort(direct, proxy.port()), CONFIG)) {
      Session s = service.createSession(APP, "alice", Map.of("n", 0), "s1").blockingGet();
      service.appendEvent(s, event("before", 1)).blockingGet();

      proxy.refuse();
      proxy.dropAll();
      long slowest = assertFailsFast(service, s, proxy::accept);
      System.out.println("[figures] network cut: calls failed within " + slowest + " ms");

      proxy.accept();
      long recovered = recovery(service, s, "after");
      System.out.println(
          "[figures] network back: first append succeeded after " + recovered + " ms");
      assertThat(recovered).isLessThan(10_000L);
      assertThat(s.revision()).isEqualTo(2);
      assertStored(direct, "before", "after");
    } finally {
      POSTGRES.dropDatabases();
    }
  }
}
