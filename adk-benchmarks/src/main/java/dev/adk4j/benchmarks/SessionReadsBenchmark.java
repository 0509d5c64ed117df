package dev.adk4j.benchmarks;

import dev.adk4j.internal.jdbc.JdbcSessionStore;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.ListSessionsRequest;
import dev.adk4j.sessions.ListSessionsResponse;
import dev.adk4j.sessions.Session;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Reads of one user's sessions in a store holding 1,000 and 100,000 sessions, spread evenly over
 * 100 users (so the user has 10 resp. 1,000 sessions): {@code getSession} of one session without
 * events ({@code numRecentEvents = 0}: session row and merged state) and the first page of 20 of
 * {@code listSessions(app, user, request)} (most recently updated first), plus a page of 10 as a
 * control (the user of the smaller store has only 10 sessions, so there a page of 20 holds 10).
 * Equal times show that a read costs what it returns, not what the store or the user holds. At the
 * end of each trial the database's plans for the trial's read are printed (on SQLite also the
 * number of session rows the page's index scan visited).
 *
 * <p>The sessions are written by raw JDBC in setup: session rows interleaved over the users (so one
 * user's rows are scattered through the table, as when many users are active), each with two
 * session-state keys, plus one {@code user:} key per user and one {@code app:} key.
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -B -pl adk-benchmarks -am package -DskipTests
 * java -jar adk-benchmarks/target/benchmarks.jar SessionReadsBenchmark -wi 2 -i 5 -f 3 -r 3s -w 3s
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class SessionReadsBenchmark {

  static final String APP = "bench_app";
  static final int USERS = 100;

  /** The user whose sessions are read. */
  static final int READ_USER = 42;

  @Param({BenchDatabase.SQLITE, BenchDatabase.POSTGRESQL})
  public String database;

  @Param({"1000", "100000"})
  public int sessions;

  BenchDatabase db;
  DatabaseSessionService service;
  String user;
  String sessionId;

  final Optional<GetSessionConfig> noEvents =
      Optional.of(GetSessionConfig.builder().numRecentEvents(0).build());
  final ListSessionsRequest page20 = ListSessionsRequest.builder().pageSize(20).build();
  final ListSessionsRequest page10 = ListSessionsRequest.builder().pageSize(10).build();

  @Setup(Level.Trial)
  public void start() throws SQLException {
    db = BenchDatabase.start(database);
    service = new DatabaseSessionService(db.url, DatabaseSessionConfig.defaults());
    long started = System.nanoTime();
    fill(db, sessions);
    System.out.printf(
        "%nWrote %d sessions on %s in %d ms%n",
        sessions, database, (System.nanoTime() - started) / 1_000_000);
    user = userId(READ_USER);
    // The middle one of the user's sessions.
    sessionId = sessionId(READ_USER + USERS * (sessions / USERS / 2));
    check();
  }

  static String userId(int u) {
    return String.format("user-%03d", u);
  }

  static String sessionId(int k) {
    return String.format("s-%06d", k);
  }

  /**
   * Session k belongs to user k % 100 and was last updated k seconds after the first; two session
   * keys each, one {@code user:} key per user, one {@code app:} key. One transaction.
   */
  static void fill(BenchDatabase db, int n) throws SQLException {
    String json = db.isSqlite() ? "?" : "CAST(? AS jsonb)";
    long first = System.currentTimeMillis() / 1000 - n - 3600;
    try (Connection c = DriverManager.getConnection(db.url)) {
      c.setAutoCommit(false);
      try (PreparedStatement insert =
          c.prepareStatement(
              "INSERT INTO adk_sessions (app_name, user_id, session_id, revision,"
                  + " update_seconds, update_nanos) VALUES (?, ?, ?, 0, ?, ?)")) {
        for (int k = 0; k < n; k++) {
          insert.setString(1, APP);
          insert.setString(2, userId(k % USERS));
          insert.setString(3, sessionId(k));
          insert.setLong(4, first + k);
          insert.setInt(5, (k % 1000) * 1_000_000);
          insert.addBatch();
          if (k % 1000 == 999) {
            insert.executeBatch();
          }
        }
        insert.executeBatch();
      }
      try (PreparedStatement state =
          c.prepareStatement(
              "INSERT INTO adk_session_state (session_pk, state_key, state_value)"
                  + " SELECT pk, ?, "
                  + json
                  + " FROM adk_sessions WHERE app_name = ?")) {
        for (String[] kv : new String[][] {{"topic", "\"benchmark\""}, {"turns", "3"}}) {
          state.setString(1, kv[0]);
          state.setString(2, kv[1]);
          state.setString(3, APP);
          state.executeUpdate();
        }
      }
      try (PreparedStatement userState =
          c.prepareStatement(
              "INSERT INTO adk_user_state (app_name, user_id, state_key, state_value)"
                  + " VALUES (?, ?, 'user:name', "
                  + json
                  + ")")) {
        for (int u = 0; u < USERS; u++) {
          userState.setString(1, APP);
          userState.setString(2, userId(u));
          userState.setString(3, "\"User " + u + "\"");
          userState.addBatch();
        }
        userState.executeBatch();
      }
      try (PreparedStatement appState =
          c.prepareStatement(
              "INSERT INTO adk_app_state (app_name, state_key, state_value)"
                  + " VALUES (?, 'app:version', "
                  + json
                  + ")")) {
        appState.setString(1, APP);
        appState.setString(2, "3");
        appState.executeUpdate();
      }
      c.commit();
      if (!db.isSqlite()) {
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
          s.execute("ANALYZE");
        }
      }
    }
  }

  /** Both reads return what the fill wrote. */
  private void check() {
    Session s = getSession_noEvents();
    Map<String, Object> expected =
        Map.of(
            "app:version", 3, "user:name", "User " + READ_USER, "topic", "benchmark", "turns", 3);
    if (s == null || !s.events().isEmpty() || !s.state().equals(expected)) {
      throw new IllegalStateException("getSession read " + s);
    }
    ListSessionsResponse page = listSessions_page20();
    int perUser = sessions / USERS;
    if (page.sessions().size() != Math.min(20, perUser)
        || !page.sessions().get(0).id().equals(sessionId(READ_USER + USERS * (perUser - 1)))
        || !page.sessions().get(0).state().equals(expected)
        || page.nextPageToken().isPresent() != (perUser > 20)) {
      throw new IllegalStateException("listSessions read " + page);
    }
    if (listSessions_page10().sessions().size() != 10) {
      throw new IllegalStateException("a page of 10 did not hold 10 sessions");
    }
  }

  @TearDown(Level.Trial)
  public void stop(BenchmarkParams params) throws Exception {
    try (JdbcSessionStore store =
        JdbcSessionStore.open(db.url, null, null, DatabaseSessionConfig.defaults())) {
      if (params.getBenchmark().endsWith("getSession_noEvents")) {
        print(
            "getSession(numRecentEvents = 0)",
            store.explainGetSession(APP, user, sessionId, noEvents));
      } else {
        int size = params.getBenchmark().endsWith("page10") ? 10 : 20;
        print(
            "listSessions page of " + size, store.explainListSessions(APP, user, size, null, null));
        if (db.isSqlite()) {
          System.out.println(
              "Session rows the SQLite scan visited for a page of "
                  + size
                  + ": "
                  + sqlitePageRowsVisited(size));
        }
      }
    }
    service.close();
    db.close();
  }

  private void print(String what, Map<String, List<String>> plans) {
    System.out.println();
    System.out.println("Plans of " + what + ", " + database + ", " + sessions + " sessions:");
    plans.forEach(
        (query, lines) -> {
          System.out.println("  " + query + ":");
          lines.forEach(line -> System.out.println("    " + line));
        });
  }

  /**
   * SQLite's plan has no row counts, so count them: the store's page query with a condition that
   * calls a counting function, which SQLite evaluates on every row the index scan visits before the
   * LIMIT stops it (a sort would make it visit all the user's rows).
   */
  private long sqlitePageRowsVisited(int size) throws SQLException {
    long[] visited = {0};
    try (Connection c = DriverManager.getConnection(db.url)) {
      org.sqlite.Function.create(
          c,
          "adk_visit",
          new org.sqlite.Function() {
            @Override
            protected void xFunc() throws SQLException {
              visited[0]++;
              result(1);
            }
          });
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT pk, session_id, revision, update_seconds, update_nanos FROM adk_sessions"
                  + " WHERE app_name = ? AND user_id = ? AND adk_visit(pk) = 1"
                  + " ORDER BY update_seconds DESC, update_nanos DESC, session_id LIMIT ?")) {
        ps.setString(1, APP);
        ps.setString(2, user);
        ps.setInt(3, size);
        try (var rs = ps.executeQuery()) {
          while (rs.next()) {
            // drain
          }
        }
      }
    }
    return visited[0];
  }

  @Benchmark
  public Session getSession_noEvents() {
    return service.getSession(APP, user, sessionId, noEvents).blockingGet();
  }

  @Benchmark
  public ListSessionsResponse listSessions_page20() {
    return service.listSessions(APP, user, page20).blockingGet();
  }

  /**
   * The control for {@link #listSessions_page20}: with 1,000 sessions the user has only 10, so a
   * page of 20 returns 10 sessions there and 20 with 100,000. A page of 10 returns 10 in both.
   */
  @Benchmark
  public ListSessionsResponse listSessions_page10() {
    return service.listSessions(APP, user, page10).blockingGet();
  }
}
