package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * A JDBC failure in the middle of a write: for every statement an append, a createSession and a
 * deleteSession execute (the commit included), a run in which exactly that one fails. A failure
 * that is not transient leaves storage exactly as it was (every row of every table, and what a
 * service that saw no failure reads) and the same call succeeds next; a transient one is retried
 * and takes effect exactly once. The failures are thrown by a {@link FailingDataSource} around the
 * store's real one, in place of the statement, as the database would.
 */
abstract class MidTransactionFailureContract {

  static final String APP = "faults";
  static final String USER = "u";
  private static final List<String> TABLES =
      List.of("adk_sessions", "adk_events", "adk_app_state", "adk_user_state", "adk_session_state");

  /** A DataSource on a fresh store, with no schema or with the schema and no rows. */
  protected abstract DataSource newStore() throws Exception;

  /** Drops or forgets the stores made by {@link #newStore()}. */
  protected abstract void dropStores() throws Exception;

  /** A failure this database's driver reports for a transaction worth retrying. */
  protected abstract SQLException transientFailure(int k);

  /** A lost connection, where the database has connections to lose. */
  protected Optional<Supplier<SQLException>> connectionLoss() {
    return Optional.empty();
  }

  private DataSource raw;
  private FailingDataSource failing;
  private DatabaseSessionService service;
  private DatabaseSessionService reader;

  @BeforeEach
  void open() throws Exception {
    raw = newStore();
    failing = new FailingDataSource(raw);
    DatabaseSessionConfig config = DatabaseSessionConfig.builder().minimumIdle(0).build();
    service = new DatabaseSessionService(failing, config);
    reader = new DatabaseSessionService(raw, config);
  }

  @AfterEach
  void close() throws Exception {
    service.close();
    reader.close();
    dropStores();
  }

  /** One kind of write: how to make what it needs, what it is, and what it did when it worked. */
  private interface Scenario {
    /** Stores what the write needs for session {@code id}, and returns the write. */
    Call prepare(String id);

    /** Asserts the write took effect exactly once. */
    void assertDone(String id);
  }

  @FunctionalInterface
  private interface Call {
    void run();
  }

  private static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private final Scenario append =
      new Scenario() {
        @Override
        public Call prepare(String id) {
          Session s =
              service
                  .createSession(APP, USER, map("s", 0, "gone", 1, "n", 5, "user:u", "-"), id)
                  .blockingGet();
          service
              .appendEvent(
                  s,
                  Event.builder()
                      .id("first-" + id)
                      .author("test")
                      .actions(EventActions.builder().stateDelta(map("app:a", "-")).build())
                      .build())
              .blockingGet();
          Map<String, @Nullable Object> delta = new HashMap<>();
          delta.put("app:a", id); // app scope: an upsert
          delta.put("user:u", id); // user scope: an upsert
          delta.put("s", 1); // session scope: an upsert
          delta.put("gone", null); // and a delete
          delta.put("temp:t", 1); // never stored
          Event event =
              Event.builder()
                  .id("under-test-" + id)
                  .author("test")
                  .actions(
                      EventActions.builder()
                          .stateDelta(delta)
                          .incrementState("n", 2) // a read, then an update
                          .build())
                  .timestamp(1_000_000L)
                  .build();
          return () -> service.appendEvent(s, event).blockingGet();
        }

        @Override
        public void assertDone(String id) {
          Session s = reader.getSession(APP, USER, id).blockingGet();
          assertThat(s.events())
              .extracting(Event::id)
              .containsExactly("first-" + id, "under-test-" + id);
          assertThat(s.revision()).isEqualTo(2);
          assertThat(s.state())
              .containsEntry("s", 1)
              .containsEntry("n", 7)
              .containsEntry("user:u", id)
              .containsEntry("app:a", id)
              .doesNotContainKey("gone")
              .doesNotContainKey("temp:t");
          assertThat(s.lastUpdateTime().toEpochMilli()).isEqualTo(1_000_000L);
        }
      };

  private final Scenario create =
      new Scenario() {
        @Override
        public Call prepare(String id) {
          return () ->
              service
                  .createSession(APP, USER, map("app:c", id, "user:c", id, "own", id), id)
                  .blockingGet();
        }

        @Override
        public void assertDone(String id) {
          Session s = reader.getSession(APP, USER, id).blockingGet();
          assertThat(s.state())
              .containsEntry("own", id)
              .containsEntry("user:c", id)
              .containsEntry("app:c", id);
          assertThat(s.revision()).isZero();
        }
      };

  private final Scenario delete =
      new Scenario() {
        @Override
        public Call prepare(String id) {
          Session s = service.createSession(APP, USER, map("own", id), id).blockingGet();
          service
              .appendEvent(
                  s,
                  Event.builder()
                      .id("e-" + id)
                      .author("test")
                      .actions(EventActions.builder().stateDelta(map("more", 1)).build())
                      .build())
              .blockingGet();
          return () -> service.deleteSession(APP, USER, id).blockingAwait();
        }

        @Override
        public void assertDone(String id) {
          assertThat(reader.getSession(APP, USER, id).blockingGet()).isNull();
          assertThat(reader.listSessions(APP, USER).blockingGet().sessions())
              .extracting(Session::id)
              .doesNotContain(id);
        }
      };

  @TestFactory
  Stream<DynamicTest> append_failingAtEachStatement() {
    return runs("append", append);
  }

  @TestFactory
  Stream<DynamicTest> createSession_failingAtEachStatement() {
    return runs("create", create);
  }

  @TestFactory
  Stream<DynamicTest> deleteSession_failingAtEachStatement() {
    return runs("delete", delete);
  }

  /**
   * Counts the statements of one clean run of {@code scenario}, then yields, for each k and each
   * kind of failure, a test that fails the k-th statement.
   */
  private Stream<DynamicTest> runs(String name, Scenario scenario) {
    Call probe = scenario.prepare(name + "-probe");
    failing.count();
    probe.run();
    List<String> statements = failing.executed();
    scenario.assertDone(name + "-probe");
    assertThat(statements).as("statements of a clean %s", name).hasSizeGreaterThan(3);
    System.out.println(
        "[figures] " + name + ": " + statements.size() + " statements " + statements);

    List<DynamicTest> tests = new ArrayList<>();
    for (int i = 1; i <= statements.size(); i++) {
      int k = i;
      String label = "k=" + k + " of " + statements.size() + " (" + statements.get(k - 1) + ")";
      tests.add(
          DynamicTest.dynamicTest(
              "fatal failure at " + label, () -> fatal(name, scenario, k, statements)));
      tests.add(
          DynamicTest.dynamicTest(
              "transient failure at " + label, () -> retried(name, scenario, k, "transient")));
      connectionLoss()
          .ifPresent(
              loss ->
                  tests.add(
                      DynamicTest.dynamicTest(
                          "connection lost at " + label,
                          () -> connectionLost(name, scenario, k, statements, loss))));
    }
    return tests.stream();
  }

  private void fatal(String name, Scenario scenario, int k, List<String> statements)
      throws Exception {
    String id = name + "-fatal-" + k;
    Call call = scenario.prepare(id);
    Snapshot before = snapshot(id);
    failing.failAt(k, () -> new SQLException("injected failure at statement " + k, "XX000"));
    Throwable thrown = failure(call);
    assertThat(failing.failed()).as("statement %d was reached", k).isEqualTo(statements.get(k - 1));
    assertThat(thrown)
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("injected failure at statement " + k)
        .hasMessageContaining("'" + id + "'")
        .hasMessageContaining("'" + USER + "'")
        .hasMessageContaining("'" + APP + "'");
    failing.count();
    assertThat(snapshot(id)).as("storage after a failure at statement %d", k).isEqualTo(before);
    call.run();
    scenario.assertDone(id);
  }

  private void retried(String name, Scenario scenario, int k, String kind) throws Exception {
    String id = name + "-" + kind + "-" + k;
    Call call = scenario.prepare(id);
    failing.failAt(k, () -> transientFailure(k));
    call.run();
    assertThat(failing.failed()).as("statement %d was reached", k).isNotNull();
    scenario.assertDone(id);
  }

  private void connectionLost(
      String name, Scenario scenario, int k, List<String> statements, Supplier<SQLException> loss)
      throws Exception {
    String id = name + "-lost-" + k;
    Call call = scenario.prepare(id);
    Snapshot before = snapshot(id);
    failing.failAt(k, loss);
    Throwable thrown = failure(call);
    assertThat(failing.failed()).as("statement %d was reached", k).isNotNull();
    if (statements.get(k - 1).startsWith("COMMIT")) {
      // Lost while committing: whether the commit took effect cannot be known, so it is not
      // retried, and the message says so. (Here it did not: the commit never reached the server.)
      assertThat(thrown)
          .isInstanceOf(SessionException.class)
          .hasMessageContaining("'" + id + "'")
          .hasMessageContaining("whether it took effect is unknown");
      failing.count();
      assertThat(snapshot(id)).isEqualTo(before);
      call.run();
    } else {
      // Lost before the commit: nothing was committed, so it was done again on a new connection.
      assertThat(thrown).as("a connection lost at statement %d", k).isNull();
    }
    scenario.assertDone(id);
  }

  private static @Nullable Throwable failure(Call call) {
    try {
      call.run();
      return null;
    } catch (Throwable t) {
      return t;
    }
  }

  /** Every row of every table, and what a service that saw no failure reads of the session. */
  private record Snapshot(List<String> rows, String session, List<String> sessionIds) {}

  private Snapshot snapshot(String id) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = raw.getConnection();
        Statement s = c.createStatement()) {
      for (String table : TABLES) {
        try (ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
          ResultSetMetaData meta = rs.getMetaData();
          while (rs.next()) {
            StringBuilder row = new StringBuilder(table).append(':');
            for (int i = 1; i <= meta.getColumnCount(); i++) {
              row.append(' ').append(meta.getColumnName(i)).append('=').append(rs.getString(i));
            }
            rows.add(row.toString());
          }
        }
      }
    }
    rows.sort(null);
    Session session = reader.getSession(APP, USER, id).blockingGet();
    String seen =
        session == null
            ? "absent"
            : new TreeMap<>(session.state())
                + " events="
                + session.events().stream().map(Event::id).toList()
                + " revision="
                + session.revision()
                + " updated="
                + session.lastUpdateTime();
    List<String> ids =
        reader.listSessions(APP, USER).blockingGet().sessions().stream().map(Session::id).toList();
    return new Snapshot(rows, seen, ids);
  }
}
