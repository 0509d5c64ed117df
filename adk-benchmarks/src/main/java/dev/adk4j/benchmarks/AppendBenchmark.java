package dev.adk4j.benchmarks;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.internal.Json;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
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
import org.openjdk.jmh.annotations.Threads;

/**
 * Appends per second through {@code DatabaseSessionService.appendEvent}, next to a raw JDBC loop
 * that writes the same rows in one transaction per append (revision update, event row, two session
 * state upserts, one {@code user:} upsert and three state-history rows), with a dedicated
 * connection, prepared statements kept open and the JSON text computed once: the floor the database
 * itself sets (on SQLite its writers queue on a fair lock in process, as the service's do). Each
 * thread appends to its own session of one shared user; 1 and 4 threads; SQLite file in WAL mode
 * and embedded PostgreSQL, both with their default durability (fsync at commit).
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -B -pl adk-benchmarks -am package -DskipTests
 * java -jar adk-benchmarks/target/benchmarks.jar AppendBenchmark -wi 2 -i 5 -f 1 -r 3s -w 3s
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class AppendBenchmark {

  static final String APP = "bench_app";
  static final String USER = "bench_user";

  /**
   * SQLite admits one writer; raw writers queue on this fair lock as the service's do. Without it,
   * four threads looping on {@code BEGIN IMMEDIATE} starve each other in SQLite's busy handler
   * (which sleeps and retries) until one exceeds the 5 s busy timeout and fails with {@code
   * SQLITE_BUSY}: the first run of this benchmark did exactly that.
   */
  static final ReentrantLock SQLITE_WRITERS = new ReentrantLock(true);

  @Param({BenchDatabase.SQLITE, BenchDatabase.POSTGRESQL})
  public String database;

  @Param({"DatabaseSessionService", "rawJdbc"})
  public String impl;

  BenchDatabase db;
  DatabaseSessionService service;

  @Setup(Level.Trial)
  public void start() {
    db = BenchDatabase.start(database);
    service =
        new DatabaseSessionService(
            db.url, DatabaseSessionConfig.builder().maximumPoolSize(8).minimumIdle(4).build());
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    service.close();
    db.close();
  }

  /** One writer thread: its own session, and for the raw loop its own connection. */
  @State(Scope.Thread)
  public static class Writer {
    Session session;
    int i;

    Connection connection;
    boolean sqlite;
    PreparedStatement bump;
    PreparedStatement insertEvent;
    PreparedStatement upsertSessionState;
    PreparedStatement upsertUserState;
    PreparedStatement insertHistory;
    long expectedRevision;
    String eventJson;
    String sessionId;

    @Setup(Level.Trial)
    public void start(AppendBenchmark b) throws SQLException {
      sessionId = "s-" + UUID.randomUUID();
      session = b.service.createSession(APP, USER, null, sessionId).blockingGet();
      if (!b.impl.equals("rawJdbc")) {
        return;
      }
      sqlite = b.db.isSqlite();
      Properties props = new Properties();
      if (sqlite) {
        props.setProperty("journal_mode", "WAL");
        props.setProperty("busy_timeout", "5000");
      }
      connection = DriverManager.getConnection(b.db.url, props);
      connection.setAutoCommit(sqlite); // SQLite: BEGIN IMMEDIATE / COMMIT by hand
      String json = sqlite ? "?" : "CAST(? AS jsonb)";
      bump =
          connection.prepareStatement(
              "UPDATE adk_sessions SET revision = revision + 1, update_seconds = ?,"
                  + " update_nanos = ? WHERE app_name = ? AND user_id = ? AND session_id = ?"
                  + " AND revision = ? RETURNING pk, revision");
      insertEvent =
          connection.prepareStatement(
              "INSERT INTO adk_events (session_pk, seq, event_id, event_time, event)"
                  + " VALUES (?, ?, ?, ?, "
                  + json
                  + ")");
      upsertSessionState =
          connection.prepareStatement(
              "INSERT INTO adk_session_state (session_pk, state_key, state_value) VALUES (?, ?, "
                  + json
                  + ") ON CONFLICT (session_pk, state_key)"
                  + " DO UPDATE SET state_value = excluded.state_value");
      upsertUserState =
          connection.prepareStatement(
              "INSERT INTO adk_user_state (app_name, user_id, state_key, state_value)"
                  + " VALUES (?, ?, ?, "
                  + json
                  + ") ON CONFLICT (app_name, user_id, state_key)"
                  + " DO UPDATE SET state_value = excluded.state_value");
      insertHistory =
          connection.prepareStatement(
              "INSERT INTO adk_state_history (session_pk, seq, app_name, user_id, state_key)"
                  + " VALUES (?, ?, ?, ?, ?)");
      eventJson = Json.toJson(event(0));
    }

    @TearDown(Level.Trial)
    public void stop() throws SQLException {
      if (connection != null) {
        connection.close();
      }
    }

    Object append(AppendBenchmark b) throws SQLException {
      int n = i++;
      if (connection == null) {
        return b.service.appendEvent(session, event(n)).blockingGet();
      }
      return rawAppend(n);
    }

    private long rawAppend(int n) throws SQLException {
      if (sqlite) {
        SQLITE_WRITERS.lock();
        try {
          return rawTransaction(n);
        } finally {
          SQLITE_WRITERS.unlock();
        }
      }
      return rawTransaction(n);
    }

    private long rawTransaction(int n) throws SQLException {
      if (sqlite) {
        try (Statement s = connection.createStatement()) {
          s.execute("BEGIN IMMEDIATE");
        }
      }
      try {
        long now = System.currentTimeMillis();
        bump.setLong(1, now / 1000);
        bump.setInt(2, (int) (now % 1000) * 1_000_000);
        bump.setString(3, APP);
        bump.setString(4, USER);
        bump.setString(5, sessionId);
        bump.setLong(6, expectedRevision);
        long pk;
        try (ResultSet rs = bump.executeQuery()) {
          if (!rs.next()) {
            throw new IllegalStateException("stale at " + expectedRevision);
          }
          pk = rs.getLong(1);
          expectedRevision = rs.getLong(2);
        }
        insertEvent.setLong(1, pk);
        insertEvent.setLong(2, expectedRevision);
        insertEvent.setString(3, "e" + n);
        insertEvent.setLong(4, now);
        insertEvent.setString(5, eventJson);
        insertEvent.executeUpdate();
        upsertSessionState.setLong(1, pk);
        upsertSessionState.setString(2, "counter");
        upsertSessionState.setString(3, Integer.toString(n));
        upsertSessionState.addBatch();
        upsertSessionState.setLong(1, pk);
        upsertSessionState.setString(2, "k");
        upsertSessionState.setString(3, "\"value\"");
        upsertSessionState.addBatch();
        upsertSessionState.executeBatch();
        upsertUserState.setString(1, APP);
        upsertUserState.setString(2, USER);
        upsertUserState.setString(3, "user:last");
        upsertUserState.setString(4, Integer.toString(n));
        upsertUserState.executeUpdate();
        // The state-history index: one row per key of the delta (stateHistory reads it).
        for (String key : new String[] {"user:last", "counter", "k"}) {
          insertHistory.setLong(1, pk);
          insertHistory.setLong(2, expectedRevision);
          insertHistory.setString(3, APP);
          insertHistory.setString(4, USER);
          insertHistory.setString(5, key);
          insertHistory.addBatch();
        }
        insertHistory.executeBatch();
        commit();
        return expectedRevision;
      } catch (SQLException | RuntimeException e) {
        rollback();
        throw e;
      }
    }

    private void commit() throws SQLException {
      if (sqlite) {
        try (Statement s = connection.createStatement()) {
          s.execute("COMMIT");
        }
      } else {
        connection.commit();
      }
    }

    private void rollback() throws SQLException {
      if (sqlite) {
        try (Statement s = connection.createStatement()) {
          s.execute("ROLLBACK");
        }
      } else {
        connection.rollback();
      }
    }
  }

  /** The event of append {@code n}: a short text and a three-key delta. */
  static Event event(int n) {
    Map<String, Object> delta = new HashMap<>();
    delta.put("counter", n);
    delta.put("k", "value");
    delta.put("user:last", n);
    return Event.builder()
        .author("bench")
        .invocationId("inv")
        .content(
            com.google.genai.types.Content.fromParts(
                com.google.genai.types.Part.fromText("benchmark message " + n)))
        .actions(EventActions.builder().stateDelta(delta).build())
        .build();
  }

  @Benchmark
  @Threads(1)
  public Object append_1thread(Writer w) throws SQLException {
    return w.append(this);
  }

  @Benchmark
  @Threads(4)
  public Object append_4threads(Writer w) throws SQLException {
    return w.append(this);
  }
}
