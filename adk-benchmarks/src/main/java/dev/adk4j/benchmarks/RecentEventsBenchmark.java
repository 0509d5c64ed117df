package dev.adk4j.benchmarks;

import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.internal.jdbc.JdbcSessionStore;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.Session;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
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

/**
 * The time of {@code getSession(numRecentEvents = 20)} on a session with 100 and with 10,000
 * events: equal times show that the read costs what it returns, not the session's history. At the
 * end of each trial the database's plan for the events query is printed ({@code EXPLAIN QUERY PLAN}
 * on SQLite; {@code EXPLAIN ANALYZE} on PostgreSQL, with the rows each step read).
 *
 * <p>The events are written in bulk by raw JDBC in setup (the JSON of a real event, one row per
 * event, revision set to match) so that setup does not dominate the run.
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -B -pl adk-benchmarks -am package -DskipTests
 * java -jar adk-benchmarks/target/benchmarks.jar RecentEventsBenchmark -wi 2 -i 5 -f 1 -r 3s -w 3s
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class RecentEventsBenchmark {

  static final String APP = "bench_app";
  static final String USER = "bench_user";
  static final String SESSION = "long";

  @Param({BenchDatabase.SQLITE, BenchDatabase.POSTGRESQL})
  public String database;

  @Param({"100", "10000"})
  public int events;

  BenchDatabase db;
  DatabaseSessionService service;
  final Optional<GetSessionConfig> last20 =
      Optional.of(GetSessionConfig.builder().numRecentEvents(20).build());

  @Setup(Level.Trial)
  public void start() throws SQLException {
    db = BenchDatabase.start(database);
    service = new DatabaseSessionService(db.url, DatabaseSessionConfig.defaults());
    service.createSession(APP, USER, null, SESSION).blockingGet();
    fill(db, events);
  }

  /** Writes events 1..n of the session in one transaction, as appends would have. */
  static void fill(BenchDatabase db, int n) throws SQLException {
    String json = db.isSqlite() ? "?" : "CAST(? AS jsonb)";
    try (Connection c = DriverManager.getConnection(db.url)) {
      c.setAutoCommit(false);
      long pk;
      try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE adk_sessions SET revision = ? WHERE session_id = ? RETURNING pk");
          PreparedStatement insert =
              c.prepareStatement(
                  "INSERT INTO adk_events (session_pk, seq, event_id, event_time, event)"
                      + " VALUES (?, ?, ?, ?, "
                      + json
                      + ")")) {
        ps.setLong(1, n);
        ps.setString(2, SESSION);
        try (var rs = ps.executeQuery()) {
          rs.next();
          pk = rs.getLong(1);
        }
        for (int i = 1; i <= n; i++) {
          Event e = AppendBenchmark.event(i).toBuilder().id("e" + i).timestamp(i).build();
          insert.setLong(1, pk);
          insert.setLong(2, i);
          insert.setString(3, e.id());
          insert.setLong(4, e.timestamp());
          insert.setString(5, Json.toJson(e));
          insert.addBatch();
          if (i % 1000 == 0) {
            insert.executeBatch();
          }
        }
        insert.executeBatch();
      }
      if (!db.isSqlite()) {
        try (var s = c.createStatement()) {
          s.execute("ANALYZE adk_events");
        }
      }
      c.commit();
    }
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    try (JdbcSessionStore store =
        JdbcSessionStore.open(db.url, null, null, DatabaseSessionConfig.defaults())) {
      List<String> plan = store.explainRecentEvents(APP, USER, SESSION, 20);
      System.out.println();
      System.out.println(
          "Plan of the last-20-events query, " + database + ", " + events + " events:");
      plan.forEach(line -> System.out.println("    " + line));
    }
    if (db.isSqlite()) {
      System.out.println(
          "Rows the SQLite scan visited for the last 20 events: " + sqliteRowsVisited());
    }
    service.close();
    db.close();
  }

  /**
   * SQLite's plan has no row counts, so count them: the store's query with a condition that calls a
   * counting function. SQLite cannot use that condition in the index, so it evaluates it on every
   * row the backward scan visits before the LIMIT stops it.
   */
  private long sqliteRowsVisited() throws SQLException {
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
              "SELECT seq, event FROM adk_events WHERE session_pk ="
                  + " (SELECT pk FROM adk_sessions WHERE session_id = ?) AND adk_visit(seq) = 1"
                  + " ORDER BY seq DESC LIMIT 20")) {
        ps.setString(1, SESSION);
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
  public Session getSession_last20() {
    return service.getSession(APP, USER, SESSION, last20).blockingGet();
  }
}
