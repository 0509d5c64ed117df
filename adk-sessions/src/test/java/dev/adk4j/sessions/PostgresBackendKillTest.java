package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PostgreSQL backends of a running service killed with {@code pg_terminate_backend} from another
 * connection, in the middle of an append (while it waits on a row lock the test holds) and while
 * idle in the pool. A backend killed before the commit is replaced and the work done again, once;
 * killed again, the call fails with a {@link SessionException} and storage is as before. Either way
 * the next call succeeds and every append is stored exactly once.
 */
class PostgresBackendKillTest {

  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  private static final String APP = "kills";

  private String url;
  private DatabaseSessionService service;
  private Connection admin;
  private Connection holder;

  @BeforeEach
  void setUp() throws Exception {
    url = POSTGRES.newMigratedDatabase();
    service =
        new DatabaseSessionService(
            url,
            DatabaseSessionConfig.builder()
                .connectionTimeout(Duration.ofSeconds(2))
                .minimumIdle(2)
                .build());
    admin = DriverManager.getConnection(url);
    holder = DriverManager.getConnection(url);
  }

  @AfterEach
  void tearDown() throws Exception {
    holder.close();
    admin.close();
    service.close();
    POSTGRES.dropDatabases();
  }

  private static Event event(String id, Map<String, Object> delta, long increment) {
    return Event.builder()
        .id(id)
        .author("test")
        .actions(EventActions.builder().stateDelta(delta).incrementState("n", increment).build())
        .build();
  }

  /** Locks the session's row from the holder connection until {@link #release()}. */
  private void lockSessionRow(String sessionId) throws SQLException {
    holder.setAutoCommit(false);
    try (PreparedStatement ps =
        holder.prepareStatement("SELECT pk FROM adk_sessions WHERE session_id = ? FOR UPDATE")) {
      ps.setString(1, sessionId);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
      }
    }
  }

  private void release() throws SQLException {
    holder.rollback();
    holder.setAutoCommit(true);
  }

  /** The backend that waits on a lock to bump a session's revision, other than {@code not}. */
  private int waitingAppend(int not) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      try (Statement s = admin.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                      + " AND wait_event_type = 'Lock'"
                      + " AND query LIKE 'UPDATE adk_sessions SET revision%'")) {
        while (rs.next()) {
          if (rs.getInt(1) != not) {
            return rs.getInt(1);
          }
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no append waiting on the session's row lock within 10 s");
  }

  private void terminate(int pid) throws SQLException {
    try (PreparedStatement ps = admin.prepareStatement("SELECT pg_terminate_backend(?)")) {
      ps.setInt(1, pid);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getBoolean(1)).as("backend %d terminated", pid).isTrue();
      }
    }
  }

  /** Every backend on the test's database but the admin's and the holder's. */
  private List<Integer> serviceBackends() throws SQLException {
    List<Integer> pids = new ArrayList<>();
    try (Statement s = admin.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
                    + " AND pid <> "
                    + ((org.postgresql.PGConnection) holder).getBackendPID())) {
      while (rs.next()) {
        pids.add(rs.getInt(1));
      }
    }
    return pids;
  }

  private Session stored(String id) {
    try (DatabaseSessionService fresh = new DatabaseSessionService(url)) {
      return fresh.getSession(APP, "alice", id).blockingGet();
    }
  }

  private CompletableFuture<Event> appendAsync(Session s, Event e) {
    return CompletableFuture.supplyAsync(() -> service.appendEvent(s, e).blockingGet());
  }

  @Test
  void backendKilledDuringAnAppend_isReplaced_andTheAppendIsStoredOnce() throws Exception {
    Session s = service.createSession(APP, "alice", Map.of("n", 0), "s1").blockingGet();
    service.appendEvent(s, event("e1", Map.of("k", 1), 1)).blockingGet();
    lockSessionRow("s1");
    CompletableFuture<Event> append = appendAsync(s, event("e2", Map.of("k", 2), 1));

    int first = waitingAppend(0);
    terminate(first);
    // Nothing was committed: the append is done again on a new connection, and waits again.
    int second = waitingAppend(first);
    assertThat(second).isNotEqualTo(first);
    assertThat(append).isNotDone();
    release();

    assertThat(append.get(10, TimeUnit.SECONDS).id()).isEqualTo("e2");
    assertThat(s.revision()).isEqualTo(2);
    Session stored = stored("s1");
    assertThat(stored.events()).extracting(Event::id).containsExactly("e1", "e2");
    assertThat(stored.state()).containsEntry("n", 2).containsEntry("k", 2);
    service.appendEvent(s, event("e3", Map.of("k", 3), 1)).blockingGet();
    assertThat(stored("s1").state()).containsEntry("n", 3);
  }

  @Test
  void backendKilledAgainAfterTheReplacement_failsTheAppendCleanly_andTheNextOneSucceeds()
      throws Exception {
    Session s = service.createSession(APP, "alice", Map.of("n", 0), "s1").blockingGet();
    service.appendEvent(s, event("e1", Map.of("k", 1), 1)).blockingGet();
    lockSessionRow("s1");
    CompletableFuture<Event> append = appendAsync(s, event("e2", Map.of("k", 2), 1));

    int first = waitingAppend(0);
    terminate(first);
    terminate(waitingAppend(first));
    Throwable failure =
        org.assertj.core.api.Assertions.catchThrowable(() -> append.get(10, TimeUnit.SECONDS));
    assertThat(failure.getCause())
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("'s1'")
        .hasMessageContaining("'alice'")
        .hasMessageContaining("'" + APP + "'")
        .hasMessageContaining("connection to the server was lost again")
        .hasMessageContaining("nothing was committed");
    release();

    assertThat(s.revision()).isEqualTo(1);
    Session stored = stored("s1");
    assertThat(stored.events()).extracting(Event::id).containsExactly("e1");
    assertThat(stored.state()).containsEntry("n", 1).containsEntry("k", 1);
    service.appendEvent(s, event("e3", Map.of("k", 3), 1)).blockingGet();
    stored = stored("s1");
    assertThat(stored.events()).extracting(Event::id).containsExactly("e1", "e3");
    assertThat(stored.state()).containsEntry("n", 2).containsEntry("k", 3);
  }

  @Test
  void pooledConnectionsKilledWhileIdle_theNextReadsAndWritesSucceed() throws Exception {
    Session s = service.createSession(APP, "alice", Map.of("n", 0), "s1").blockingGet();
    for (int round = 1; round <= 3; round++) {
      // Use the pool, then kill every backend it holds at once: the connections handed out next
      // are dead (used within Hikari's 500 ms, they are not checked first).
      service.getSession(APP, "alice", "s1").blockingGet();
      List<Integer> backends = serviceBackends();
      assertThat(backends).isNotEmpty();
      for (int pid : backends) {
        terminate(pid);
      }
      assertThat(service.getSession(APP, "alice", "s1").blockingGet().revision())
          .isEqualTo(round - 1);
      service.appendEvent(s, event("e" + round, Map.of(), 1)).blockingGet();
    }
    Session stored = stored("s1");
    assertThat(stored.events()).extracting(Event::id).containsExactly("e1", "e2", "e3");
    assertThat(stored.state()).containsEntry("n", 3);
  }
}
