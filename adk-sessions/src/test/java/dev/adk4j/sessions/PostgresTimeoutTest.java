package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.internal.jdbc.DelegatingDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The PostgreSQL timeouts of {@link DatabaseSessionConfig}: a server that stops answering (frozen
 * behind a {@link TcpProxy} that holds every byte) fails an operation after {@code socketTimeout}
 * instead of blocking it, and the service works again as soon as the server answers; a statement
 * that waits on a row lock longer than {@code statementTimeout} is canceled by the server.
 */
class PostgresTimeoutTest {

  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  private static final String APP = "timeouts";

  /** One second is the least socketTimeout pgjdbc can count. */
  private static final DatabaseSessionConfig SHORT =
      DatabaseSessionConfig.builder()
          .socketTimeout(Duration.ofSeconds(1))
          .statementTimeout(Duration.ofMillis(500))
          .connectionTimeout(Duration.ofSeconds(1))
          .minimumIdle(0)
          .build();

  private String url;
  private TcpProxy proxy;

  @BeforeEach
  void setUp() throws Exception {
    url = POSTGRES.newMigratedDatabase();
    proxy = new TcpProxy("localhost", POSTGRES.port());
  }

  @AfterEach
  void tearDown() throws Exception {
    proxy.close();
    POSTGRES.dropDatabases();
  }

  static Event event(String id, Map<String, Object> delta) {
    return Event.builder()
        .id(id)
        .author("test")
        .actions(EventActions.builder().stateDelta(delta).build())
        .build();
  }

  private List<String> storedEventIds(String user, String id) {
    try (DatabaseSessionService fresh = new DatabaseSessionService(url, SHORT)) {
      return fresh.getSession(APP, user, id).blockingGet().events().stream()
          .map(Event::id)
          .toList();
    }
  }

  @Test
  void frozenServer_failsAnAppendAfterTheSocketTimeout_andTheNextCallSucceedsOnceItAnswers() {
    try (DatabaseSessionService service =
        new DatabaseSessionService(POSTGRES.withPort(url, proxy.port()), SHORT)) {
      Session s = service.createSession(APP, "alice", Map.of("k", 0), "s1").blockingGet();
      service.appendEvent(s, event("e1", Map.of("k", 1))).blockingGet();

      proxy.freeze();
      Outcome frozen =
          Outcome.of(
              Duration.ofSeconds(10),
              () -> service.appendEvent(s, event("e2", Map.of("k", 2))).blockingGet(),
              proxy::resume);
      System.out.println("[figures] frozen server: the append " + frozen);

      assertThat(frozen.hung()).as("append on a frozen server: %s", frozen).isFalse();
      assertThat(frozen.failure())
          .isInstanceOf(SessionException.class)
          .hasMessageContaining("'s1'")
          .hasMessageContaining("'alice'")
          .hasMessageContaining("'" + APP + "'")
          .hasMessageContaining("socketTimeout");
      assertThat(frozen.millis()).isBetween(900L, 5_000L);
      // A read fails alike.
      Outcome read =
          Outcome.of(
              Duration.ofSeconds(10),
              () -> service.getSession(APP, "alice", "s1").blockingGet(),
              proxy::resume);
      assertThat(read.failure()).isInstanceOf(SessionException.class);
      assertThat(read.hung()).as("read on a frozen server: %s", read).isFalse();

      proxy.resume();
      // The frozen append never committed: the copy is still current and the next one succeeds.
      assertThat(s.revision()).isEqualTo(1);
      service.appendEvent(s, event("e3", Map.of("k", 3))).blockingGet();
      assertThat(service.getSession(APP, "alice", "s1").blockingGet().state())
          .containsEntry("k", 3);
    }
    assertThat(storedEventIds("alice", "s1")).containsExactly("e1", "e3");
  }

  @Test
  void serverFreezingOnAConnectionFromADataSource_failsTheAppendAfterTheSocketTimeoutToo() {
    PGSimpleDataSource plain = new PGSimpleDataSource();
    plain.setUrl(POSTGRES.withPort(url, proxy.port()));
    AtomicBoolean freezeNext = new AtomicBoolean();
    // The server stops answering once the connection is open, before the first statement: the
    // service must bound the wait on a connection it did not configure.
    DataSource freezing =
        new DelegatingDataSource(plain) {
          @Override
          public Connection getConnection() throws SQLException {
            Connection c = plain.getConnection();
            if (freezeNext.getAndSet(false)) {
              proxy.freeze();
            }
            return c;
          }
        };
    try (DatabaseSessionService service = new DatabaseSessionService(freezing, SHORT)) {
      Session s = service.createSession(APP, "bob", Map.of(), "s1").blockingGet();
      freezeNext.set(true);
      Outcome frozen =
          Outcome.of(
              Duration.ofSeconds(10),
              () -> service.appendEvent(s, event("e1", Map.of("k", 1))).blockingGet(),
              proxy::resume);
      System.out.println("[figures] frozen server behind a DataSource: the append " + frozen);
      assertThat(frozen.hung()).as("append on a frozen server: %s", frozen).isFalse();
      assertThat(frozen.failure())
          .isInstanceOf(SessionException.class)
          .hasMessageContaining("'s1'")
          .hasMessageContaining("socketTimeout");
      assertThat(frozen.millis()).isBetween(900L, 5_000L);
      proxy.resume();
      service.appendEvent(s, event("e2", Map.of("k", 2))).blockingGet();
    }
    assertThat(storedEventIds("bob", "s1")).containsExactly("e2");
  }

  @Test
  void rowLockedLongerThanTheStatementTimeout_failsTheAppend_andNothingIsStored() throws Exception {
    try (DatabaseSessionService service = new DatabaseSessionService(url, SHORT);
        Connection holder = DriverManager.getConnection(url)) {
      Session s = service.createSession(APP, "alice", Map.of("k", 0), "s1").blockingGet();
      holder.setAutoCommit(false);
      try (PreparedStatement ps =
          holder.prepareStatement(
              "SELECT pk FROM adk_sessions WHERE session_id = 's1' FOR UPDATE")) {
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isTrue();
        }
      }
      Outcome blocked =
          Outcome.of(
              Duration.ofSeconds(10),
              () -> service.appendEvent(s, event("e1", Map.of("k", 1))).blockingGet(),
              () -> {
                try {
                  holder.rollback();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      System.out.println("[figures] row lock held: the append " + blocked);
      assertThat(blocked.hung()).as("append behind a row lock: %s", blocked).isFalse();
      assertThat(blocked.failure())
          .isInstanceOf(SessionException.class)
          .hasMessageContaining("'s1'")
          .hasMessageContaining("statementTimeout");
      assertThat(blocked.millis()).isBetween(400L, 5_000L);
      holder.rollback();

      assertThat(s.revision()).isZero();
      service.appendEvent(s, event("e2", Map.of("k", 2))).blockingGet();
    }
    assertThat(storedEventIds("alice", "s1")).containsExactly("e2");
  }
}
