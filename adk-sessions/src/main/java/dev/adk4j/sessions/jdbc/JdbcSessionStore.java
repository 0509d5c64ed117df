package dev.adk4j.sessions.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionAlreadyExistsException;
import dev.adk4j.sessions.SessionException;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.sessions.StaleSessionException;
import dev.adk4j.state.Json;
import dev.adk4j.state.Scope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.jspecify.annotations.Nullable;

/**
 * The JDBC storage behind {@code DatabaseSessionService}: schema migration, SQL and transactions
 * for SQLite and PostgreSQL. Internal: use {@code DatabaseSessionService}, whose contract this
 * implements; the public methods here exist for it and for the benchmarks.
 *
 * <p>Concurrency and ordering. Every operation is one database transaction, retried as a whole
 * after a transient failure (SQLite busy, PostgreSQL deadlock or serialization failure), so it
 * happens entirely or not at all. An append first runs {@code UPDATE adk_sessions SET revision =
 * revision + 1 ... WHERE ... AND revision = ?}: the database orders appends to one session on that
 * row, and an append through a stale copy matches no row and changes nothing. The event's sequence
 * number is the revision it produced. State deltas are applied as one upsert or delete per key, in
 * scope then key order (a global order, so concurrent appends lock shared rows in the same order
 * and cannot deadlock); concurrent appends from different sessions therefore never lose each
 * other's {@code app:} or {@code user:} keys. Reads run in one snapshot. On SQLite, the writers of
 * one file in this JVM (whatever store they use) also queue on a fair in-process lock, and writers
 * in other processes wait on the busy timeout.
 *
 * <p>Thread-safe.
 */
public final class JdbcSessionStore implements AutoCloseable {

  private static final org.slf4j.Logger log =
      org.slf4j.LoggerFactory.getLogger(JdbcSessionStore.class);
  private static final int MAX_ATTEMPTS = 5;

  /** Attempts to migrate, 100 ms apart, then 200 ms, ...: about 3.6 s in all. */
  private static final int MIGRATION_ATTEMPTS = 9;

  private static final String HISTORY_TABLE = "adk_schema_history";
  private static final AtomicInteger POOLS = new AtomicInteger();

  private final DataSource dataSource;
  private final @Nullable HikariDataSource ownedPool;
  private final Dialect dialect;
  private final DatabaseSessionConfig config;
  private final SqlText sql;

  /**
   * SQLite writers of one file in this JVM, across service instances: they queue here, fairly,
   * rather than in SQLite's busy handler, which polls with sleeps and lets a writer starve.
   */
  private static final ConcurrentMap<Path, ReentrantLock> SQLITE_WRITERS =
      new ConcurrentHashMap<>();

  private final ReentrantLock writeLock;
  private volatile boolean closed;

  private JdbcSessionStore(
      DataSource dataSource,
      @Nullable HikariDataSource ownedPool,
      Dialect dialect,
      DatabaseSessionConfig config,
      ReentrantLock writeLock) {
    this.dataSource = dataSource;
    this.writeLock = writeLock;
    this.ownedPool = ownedPool;
    this.dialect = dialect;
    this.config = config;
    this.sql = new SqlText(dialect);
  }

  /**
   * Opens a store on {@code jdbcUrl} with its own connection pool, which {@link #close()} closes.
   * For SQLite the file's folder is created if missing and connections use WAL, the configured busy
   * timeout and foreign keys. The schema is migrated (or validated) before this returns.
   *
   * @throws IllegalArgumentException for an unsupported or in-memory URL
   * @throws SessionException if the database cannot be reached or migrated
   */
  public static JdbcSessionStore open(
      String jdbcUrl,
      @Nullable String user,
      @Nullable String password,
      DatabaseSessionConfig config) {
    Dialect dialect = Dialect.ofUrl(jdbcUrl);
    HikariConfig hikari = new HikariConfig();
    hikari.setJdbcUrl(jdbcUrl);
    if (user != null) {
      hikari.setUsername(user);
    }
    if (password != null) {
      hikari.setPassword(password);
    }
    hikari.setMaximumPoolSize(config.maximumPoolSize());
    hikari.setMinimumIdle(config.minimumIdle());
    hikari.setConnectionTimeout(config.connectionTimeout().toMillis());
    hikari.setPoolName("adk4j-sessions-" + POOLS.incrementAndGet());
    ReentrantLock writeLock = new ReentrantLock(true);
    if (dialect == Dialect.SQLITE) {
      Path file = sqliteFile(jdbcUrl).toAbsolutePath().normalize();
      createParentFolder(file, jdbcUrl);
      writeLock = SQLITE_WRITERS.computeIfAbsent(file, k -> new ReentrantLock(true));
      hikari.addDataSourceProperty("journal_mode", "WAL");
      hikari.addDataSourceProperty("busy_timeout", String.valueOf(config.busyTimeout().toMillis()));
      hikari.addDataSourceProperty("foreign_keys", "true");
      // Durable at commit: an acknowledged append survives a crash of the process or the machine.
      hikari.addDataSourceProperty("synchronous", "FULL");
    }
    HikariDataSource pool;
    try {
      pool = new HikariDataSource(hikari);
    } catch (RuntimeException e) {
      throw new SessionException(
          "Cannot connect to " + Dialect.redact(jdbcUrl) + ": " + e.getMessage(), e);
    }
    try {
      JdbcSessionStore store = new JdbcSessionStore(pool, pool, dialect, config, writeLock);
      store.migrate(Dialect.redact(jdbcUrl));
      return store;
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  /**
   * Opens a store on a {@link DataSource} the caller owns and closes. The database is recognized
   * from the connection's metadata. For SQLite the journal is switched to WAL and each connection's
   * busy timeout set as configured. The schema is migrated (or validated) before this returns.
   *
   * @throws IllegalArgumentException if the database is neither SQLite nor PostgreSQL
   * @throws SessionException if the database cannot be reached or migrated
   */
  public static JdbcSessionStore open(DataSource dataSource, DatabaseSessionConfig config) {
    Dialect dialect;
    try (Connection c = dataSource.getConnection()) {
      dialect = Dialect.ofProductName(c.getMetaData().getDatabaseProductName());
      if (dialect == Dialect.SQLITE) {
        if (!c.getAutoCommit()) {
          c.setAutoCommit(true);
        }
        execute(c, "PRAGMA journal_mode = WAL");
      }
    } catch (SQLException e) {
      throw new SessionException("Cannot connect to the DataSource: " + e.getMessage(), e);
    }
    JdbcSessionStore store =
        new JdbcSessionStore(dataSource, null, dialect, config, new ReentrantLock(true));
    store.migrate("the DataSource");
    return store;
  }

  /** The database product: {@code "SQLite"} or {@code "PostgreSQL"}. */
  public String databaseProduct() {
    return dialect.productName();
  }

  // ---------------------------------------------------------------------------------------------
  // Operations

  /**
   * Creates a session at revision 0 with {@code initial} applied to its scopes, and returns it with
   * its merged state.
   *
   * @throws SessionAlreadyExistsException if the id is taken for that app and user
   * @throws IllegalArgumentException if a value is over the size limit; nothing is stored
   */
  public Session create(String app, String user, String id, Scope.Split initial) {
    String context = describe(app, user, id);
    List<List<StateOp>> ops = encode(initial, context);
    return transaction(
        true,
        "create " + context,
        c -> {
          Instant now = Instant.now();
          long pk;
          try (PreparedStatement ps = c.prepareStatement(sql.insertSession)) {
            ps.setString(1, app);
            ps.setString(2, user);
            ps.setString(3, id);
            ps.setLong(4, now.getEpochSecond());
            ps.setInt(5, now.getNano());
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                throw new SessionAlreadyExistsException(app, user, id);
              }
              pk = rs.getLong(1);
            }
          }
          applyState(c, app, user, pk, ops);
          Map<String, Object> state = readState(c, app, user, pk, context);
          return Session.builder(id)
              .appName(app)
              .userId(user)
              .state(state)
              .lastUpdateTime(now)
              .revision(0)
              .build();
        });
  }

  /**
   * Loads a session with its merged state and the events {@code config} selects, or empty if it
   * does not exist.
   *
   * @throws SessionException naming the session if a stored value or event is not valid JSON
   */
  public Optional<Session> load(
      String app, String user, String id, Optional<GetSessionConfig> config) {
    String context = describe(app, user, id);
    return transaction(
        false,
        "read " + context,
        c -> {
          SessionRow row = findSession(c, app, user, id);
          if (row == null) {
            return Optional.empty();
          }
          Map<String, Object> state = readState(c, app, user, row.pk, context);
          List<Event> events = readEvents(c, row.pk, config, context);
          return Optional.of(row.toSession(app, user, state, events));
        });
  }

  /** The user's sessions in ascending order of id, with merged state and without events. */
  public List<Session> list(String app, String user) {
    String context = "sessions of user '" + user + "' in app '" + app + "'";
    return transaction(
        false,
        "list " + context,
        c -> {
          List<SessionRow> rows = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement(sql.listSessions)) {
            ps.setString(1, app);
            ps.setString(2, user);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                rows.add(
                    new SessionRow(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getLong(3),
                        rs.getLong(4),
                        rs.getInt(5)));
              }
            }
          }
          if (rows.isEmpty()) {
            return List.of();
          }
          Map<Long, SessionRow> byPk = new HashMap<>();
          for (SessionRow row : rows) {
            byPk.put(row.pk, row);
          }
          Map<String, Object> shared = new HashMap<>();
          try (PreparedStatement ps = c.prepareStatement(sql.selectSharedState)) {
            ps.setString(1, app);
            ps.setString(2, app);
            ps.setString(3, user);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                shared.put(rs.getString(1), parseValue(rs.getString(1), rs.getString(2), context));
              }
            }
          }
          Map<Long, Map<String, Object>> own = new HashMap<>();
          try (PreparedStatement ps = c.prepareStatement(sql.selectUserSessionsState)) {
            ps.setString(1, app);
            ps.setString(2, user);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                SessionRow row = byPk.get(rs.getLong(1));
                if (row == null) {
                  continue;
                }
                String key = rs.getString(2);
                Object value = parseValue(key, rs.getString(3), describe(app, user, row.id));
                own.computeIfAbsent(row.pk, k -> new HashMap<>()).put(key, value);
              }
            }
          }
          // Java's String order, as InMemorySessionService: SQL collations differ by database.
          rows.sort(Comparator.comparing(r -> r.id));
          List<Session> sessions = new ArrayList<>(rows.size());
          for (SessionRow row : rows) {
            Map<String, Object> state = new HashMap<>();
            shared.forEach((k, v) -> state.put(k, Json.copy(v)));
            state.putAll(own.getOrDefault(row.pk, Map.of()));
            sessions.add(row.toSession(app, user, state, List.of()));
          }
          return sessions;
        });
  }

  /** Deletes a session, its state and its events, if it exists. App and user state stay. */
  public void delete(String app, String user, String id) {
    transaction(
        true,
        "delete " + describe(app, user, id),
        c -> {
          Long pk = null;
          // The session row goes first: on PostgreSQL this waits for an append in progress on it,
          // and makes later appends find no session.
          try (PreparedStatement ps = c.prepareStatement(sql.deleteSession)) {
            ps.setString(1, app);
            ps.setString(2, user);
            ps.setString(3, id);
            try (ResultSet rs = ps.executeQuery()) {
              if (rs.next()) {
                pk = rs.getLong(1);
              }
            }
          }
          if (pk != null) {
            // Foreign keys cascade; these also clean up where they are not enforced (a SQLite
            // DataSource opened without foreign_keys).
            for (String delete : List.of(sql.deleteEvents, sql.deleteSessionState)) {
              try (PreparedStatement ps = c.prepareStatement(delete)) {
                ps.setLong(1, pk);
                ps.executeUpdate();
              }
            }
          }
          return null;
        });
  }

  /**
   * All stored events of a session, oldest first.
   *
   * @throws SessionNotFoundException if there is no such session
   */
  public List<Event> events(String app, String user, String id) {
    String context = describe(app, user, id);
    return transaction(
        false,
        "read the events of " + context,
        c -> {
          SessionRow row = findSession(c, app, user, id);
          if (row == null) {
            throw new SessionNotFoundException(app, user, id);
          }
          return readEvents(c, row.pk, Optional.empty(), context);
        });
  }

  /**
   * Appends {@code stored} to a session at {@code expectedRevision} and applies {@code delta}, in
   * one transaction.
   *
   * @return the session's new revision
   * @throws SessionNotFoundException if there is no such session
   * @throws StaleSessionException if the session is not at {@code expectedRevision}
   * @throws IllegalArgumentException if a value or the event is over its size limit
   */
  public long append(
      String app, String user, String id, long expectedRevision, Event stored, Scope.Split delta) {
    String context = describe(app, user, id);
    List<List<StateOp>> ops = encode(delta, context);
    String eventJson = JsonText.write(dialect, stored);
    long eventBytes = utf8Length(eventJson);
    if (eventBytes > config.maxEventBytes()) {
      throw new IllegalArgumentException(
          "Event '"
              + stored.id()
              + "' of "
              + context
              + " is "
              + eventBytes
              + " bytes as JSON, over the limit of "
              + config.maxEventBytes()
              + " bytes (DatabaseSessionConfig.maxEventBytes); nothing was stored");
    }
    Instant updated = Instant.ofEpochMilli(stored.timestamp());
    return transaction(
        true,
        "append event '" + stored.id() + "' to " + context,
        c -> {
          long pk;
          long revision;
          try (PreparedStatement ps = c.prepareStatement(sql.bumpRevision)) {
            ps.setLong(1, updated.getEpochSecond());
            ps.setInt(2, updated.getNano());
            ps.setString(3, app);
            ps.setString(4, user);
            ps.setString(5, id);
            ps.setLong(6, expectedRevision);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                throw missingOrStale(c, app, user, id, expectedRevision);
              }
              pk = rs.getLong(1);
              revision = rs.getLong(2);
            }
          }
          try (PreparedStatement ps = c.prepareStatement(sql.insertEvent)) {
            ps.setLong(1, pk);
            ps.setLong(2, revision);
            ps.setString(3, stored.id());
            ps.setLong(4, stored.timestamp());
            ps.setString(5, eventJson);
            ps.executeUpdate();
          }
          applyState(c, app, user, pk, ops);
          return revision;
        });
  }

  /**
   * Diagnostics: the database's plan for the query that reads the last {@code n} events of a
   * session ({@code EXPLAIN QUERY PLAN} on SQLite; {@code EXPLAIN ANALYZE}, which runs it and
   * reports the rows each step produced, on PostgreSQL). Empty if the session does not exist.
   */
  public List<String> explainRecentEvents(String app, String user, String id, int n) {
    return transaction(
        false,
        "explain the events query of " + describe(app, user, id),
        c -> {
          SessionRow row = findSession(c, app, user, id);
          if (row == null) {
            return List.of();
          }
          String prefix =
              dialect == Dialect.SQLITE
                  ? "EXPLAIN QUERY PLAN "
                  : "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) ";
          List<String> plan = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement(prefix + sql.selectLastEvents)) {
            ps.setLong(1, row.pk);
            ps.setInt(2, n);
            try (ResultSet rs = ps.executeQuery()) {
              int columns = rs.getMetaData().getColumnCount();
              while (rs.next()) {
                plan.add(rs.getString(columns));
              }
            }
          }
          return plan;
        });
  }

  /** Closes the connection pool if this store opened it; later operations fail. Idempotent. */
  @Override
  public void close() {
    closed = true;
    if (ownedPool != null) {
      ownedPool.close();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Reads

  private static final class SessionRow {
    final long pk;
    final String id;
    final long revision;
    final long updateSeconds;
    final int updateNanos;

    SessionRow(long pk, String id, long revision, long updateSeconds, int updateNanos) {
      this.pk = pk;
      this.id = id;
      this.revision = revision;
      this.updateSeconds = updateSeconds;
      this.updateNanos = updateNanos;
    }

    Session toSession(String app, String user, Map<String, Object> state, List<Event> events) {
      return Session.builder(id)
          .appName(app)
          .userId(user)
          .state(state)
          .events(events)
          .lastUpdateTime(Instant.ofEpochSecond(updateSeconds, updateNanos))
          .revision(revision)
          .build();
    }
  }

  private @Nullable SessionRow findSession(Connection c, String app, String user, String id)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.selectSession)) {
      ps.setString(1, app);
      ps.setString(2, user);
      ps.setString(3, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        return new SessionRow(rs.getLong(1), id, rs.getLong(2), rs.getLong(3), rs.getInt(4));
      }
    }
  }

  private SessionException missingOrStale(
      Connection c, String app, String user, String id, long expectedRevision) throws SQLException {
    SessionRow row = findSession(c, app, user, id);
    if (row == null) {
      return new SessionNotFoundException(app, user, id);
    }
    return new StaleSessionException(app, user, id, expectedRevision, row.revision);
  }

  private Map<String, Object> readState(
      Connection c, String app, String user, long pk, String context) throws SQLException {
    Map<String, Object> state = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(sql.selectState)) {
      ps.setString(1, app);
      ps.setString(2, app);
      ps.setString(3, user);
      ps.setLong(4, pk);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String key = rs.getString(1);
          state.put(key, parseValue(key, rs.getString(2), context));
        }
      }
    }
    return state;
  }

  private List<Event> readEvents(
      Connection c, long pk, Optional<GetSessionConfig> config, String context)
      throws SQLException {
    @Nullable Integer last = config.flatMap(GetSessionConfig::numRecentEvents).orElse(null);
    @Nullable Long after =
        config.flatMap(GetSessionConfig::afterTimestamp).map(Instant::toEpochMilli).orElse(null);
    if (last != null && last == 0) {
      return List.of();
    }
    String query;
    if (last == null) {
      query = after == null ? sql.selectEvents : sql.selectEventsAfter;
    } else {
      query = after == null ? sql.selectLastEvents : sql.selectLastEventsAfter;
    }
    List<Event> events = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(query)) {
      int i = 1;
      ps.setLong(i++, pk);
      if (after != null) {
        ps.setLong(i++, after);
      }
      if (last != null) {
        ps.setInt(i, last);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          events.add(parseEvent(rs.getLong(1), rs.getString(2), context));
        }
      }
    }
    if (last != null) {
      // Read newest first so the index scan stops after N rows; hand them out oldest first.
      Collections.reverse(events);
    }
    return events;
  }

  private static Object parseValue(String key, String json, String context) {
    try {
      return Json.mapper().readValue(json, Object.class);
    } catch (JsonProcessingException e) {
      throw new SessionException(
          "Corrupt stored state of "
              + context
              + ": the value of key '"
              + key
              + "' is not valid JSON: "
              + e.getOriginalMessage(),
          e);
    }
  }

  private static Event parseEvent(long seq, String json, String context) {
    try {
      return Json.fromJson(json, Event.class);
    } catch (IllegalArgumentException e) {
      throw new SessionException(
          "Corrupt stored event #" + seq + " of " + context + ": " + e.getMessage(), e);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Writes

  /** One key of a delta, encoded: {@code json} is null for a removal. */
  private static final class StateOp {
    final String key;
    final @Nullable String json;

    StateOp(String key, @Nullable String json) {
      this.key = key;
      this.json = json;
    }
  }

  /** The delta's app, user and session parts, each in key order, values as JSON text. */
  private List<List<StateOp>> encode(Scope.Split split, String context) {
    return List.of(
        encode(split.app(), context),
        encode(split.user(), context),
        encode(split.session(), context));
  }

  private List<StateOp> encode(Map<String, @Nullable Object> delta, String context) {
    if (delta.isEmpty()) {
      return List.of();
    }
    List<StateOp> ops = new ArrayList<>(delta.size());
    new TreeMap<>(delta)
        .forEach(
            (key, value) -> {
              if (value == null) {
                ops.add(new StateOp(key, null));
                return;
              }
              String json = JsonText.write(dialect, value);
              long bytes = utf8Length(json);
              if (bytes > config.maxValueBytes()) {
                throw new IllegalArgumentException(
                    "State value for key '"
                        + key
                        + "' of "
                        + context
                        + " is "
                        + bytes
                        + " bytes as JSON, over the limit of "
                        + config.maxValueBytes()
                        + " bytes (DatabaseSessionConfig.maxValueBytes); nothing was stored");
              }
              ops.add(new StateOp(key, json));
            });
    return ops;
  }

  private void applyState(
      Connection c, String app, String user, long pk, List<List<StateOp>> scopes)
      throws SQLException {
    applyScope(c, sql.upsertAppState, sql.deleteAppState, scopes.get(0), app);
    applyScope(c, sql.upsertUserState, sql.deleteUserState, scopes.get(1), app, user);
    applyScope(c, sql.upsertSessionState, sql.deleteSessionStateKey, scopes.get(2), pk);
  }

  /**
   * Applies one scope's keys in key order, batching runs of upserts and runs of deletes. Keeping
   * the order (rather than all upserts, then all deletes) keeps row locks in one global order.
   */
  private static void applyScope(
      Connection c, String upsertSql, String deleteSql, List<StateOp> ops, Object... owner)
      throws SQLException {
    if (ops.isEmpty()) {
      return;
    }
    PreparedStatement upsert = null;
    PreparedStatement delete = null;
    try {
      PreparedStatement pending = null;
      for (StateOp op : ops) {
        PreparedStatement ps;
        if (op.json == null) {
          delete = delete != null ? delete : c.prepareStatement(deleteSql);
          ps = delete;
        } else {
          upsert = upsert != null ? upsert : c.prepareStatement(upsertSql);
          ps = upsert;
        }
        if (pending != null && pending != ps) {
          pending.executeBatch();
        }
        pending = ps;
        int i = 1;
        for (Object o : owner) {
          ps.setObject(i++, o);
        }
        ps.setString(i++, op.key);
        if (op.json != null) {
          ps.setString(i, op.json);
        }
        ps.addBatch();
      }
      if (pending != null) {
        pending.executeBatch();
      }
    } finally {
      closeQuietly(upsert);
      closeQuietly(delete);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Transactions

  @FunctionalInterface
  private interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /**
   * Runs {@code work} in one transaction and commits it; rolls back on any failure. Transient
   * database failures retry the whole transaction (up to {@value #MAX_ATTEMPTS} attempts); other
   * SQL failures become a {@link SessionException} saying what was being done. Exceptions thrown by
   * {@code work} itself pass through after the rollback.
   */
  private <T> T transaction(boolean write, String what, Work<T> work) {
    if (closed) {
      throw new IllegalStateException("DatabaseSessionService is closed; cannot " + what);
    }
    boolean serialize = write && dialect.singleWriter();
    for (int attempt = 1; ; attempt++) {
      if (serialize) {
        writeLock.lock();
      }
      try (Connection c = dataSource.getConnection()) {
        prepare(c);
        String begin = write ? dialect.beginWrite() : dialect.beginRead();
        boolean driverManaged = begin == null;
        if (driverManaged) {
          c.setAutoCommit(false);
        } else {
          execute(c, begin);
        }
        try {
          T result = work.run(c);
          if (driverManaged) {
            c.commit();
          } else {
            execute(c, "COMMIT");
          }
          return result;
        } catch (Throwable t) {
          rollback(c, driverManaged, t);
          throw t;
        } finally {
          if (driverManaged) {
            c.setAutoCommit(true);
          }
        }
      } catch (SQLException e) {
        if (closed) {
          throw new IllegalStateException("DatabaseSessionService is closed; cannot " + what, e);
        }
        if (dialect.isTransient(e) && attempt < MAX_ATTEMPTS) {
          pause(attempt, what, e);
          continue;
        }
        if (dialect.isUnrepresentable(e)) {
          throw new IllegalArgumentException(
              "Cannot "
                  + what
                  + ": "
                  + dialect.productName()
                  + " cannot store it: "
                  + e.getMessage(),
              e);
        }
        throw new SessionException(
            "Cannot "
                + what
                + " ("
                + dialect.productName()
                + (attempt > 1 ? ", " + attempt + " attempts" : "")
                + "): "
                + e.getMessage(),
            e);
      } finally {
        if (serialize) {
          writeLock.unlock();
        }
      }
    }
  }

  private void prepare(Connection c) throws SQLException {
    if (ownedPool != null) {
      return; // configured when the pool opened it
    }
    if (!c.getAutoCommit()) {
      c.setAutoCommit(true); // transactions are started and ended with SQL below
    }
    if (dialect == Dialect.SQLITE) {
      execute(c, "PRAGMA busy_timeout = " + config.busyTimeout().toMillis());
    }
  }

  private static void rollback(Connection c, boolean driverManaged, Throwable cause) {
    try {
      if (driverManaged) {
        c.rollback();
      } else {
        execute(c, "ROLLBACK");
      }
    } catch (SQLException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  private static void pause(int attempt, String what, SQLException cause) {
    log.debug(
        "Retrying to {} after a transient failure (attempt {} of {}): {}",
        what,
        attempt,
        MAX_ATTEMPTS,
        cause.getMessage());
    sleep(ThreadLocalRandom.current().nextLong(5, 20) * attempt, what, cause);
  }

  private static void sleep(long millis, String what, Exception cause) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      SessionException ex = new SessionException("Interrupted while retrying to " + what, e);
      ex.addSuppressed(cause);
      throw ex;
    }
  }

  private static void execute(Connection c, String statement) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  private static void closeQuietly(@Nullable Statement s) {
    if (s != null) {
      try {
        s.close();
      } catch (SQLException ignored) {
        // the transaction's outcome is decided elsewhere
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Start

  private void migrate(String where) {
    Flyway flyway =
        Flyway.configure(JdbcSessionStore.class.getClassLoader())
            .dataSource(dataSource)
            .locations(dialect.migrations())
            .table(HISTORY_TABLE)
            .failOnMissingLocations(true)
            // A database that already holds other tables (an application's) is fine: start the
            // history below our first version so that every migration still runs.
            .baselineOnMigrate(true)
            .baselineVersion("0")
            .load();
    for (int attempt = 1; ; attempt++) {
      // Instances of this JVM starting on one SQLite file take turns.
      boolean serialize = dialect.singleWriter();
      if (serialize) {
        writeLock.lock();
      }
      try {
        if (config.migrate()) {
          int applied = flyway.migrate().migrationsExecuted;
          log.info(
              "Session store on {} ({}) ready; {} schema migration(s) applied",
              where,
              dialect.productName(),
              applied);
        } else {
          flyway.validate();
        }
        return;
      } catch (FlywayException e) {
        // Instances starting together on a new database race: on SQLite there is no lock Flyway
        // could take, and on PostgreSQL one that finds the other's fresh, still empty history
        // table refuses to baseline it. The loser finds the winner's schema on a later attempt.
        if (config.migrate() && attempt < MIGRATION_ATTEMPTS) {
          log.debug("Schema migration of {} raced another instance; retrying", where);
          sleep(100L * attempt, "migrate the session schema of " + where, e);
          continue;
        }
        throw new SessionException(
            "Cannot "
                + (config.migrate() ? "migrate" : "validate")
                + " the session schema of "
                + where
                + (attempt > 1 ? " (" + attempt + " attempts)" : "")
                + ": "
                + e.getMessage(),
            e);
      } finally {
        if (serialize) {
          writeLock.unlock();
        }
      }
    }
  }

  /** The file of a SQLite URL, refusing in-memory databases (one per connection of the pool). */
  static Path sqliteFile(String jdbcUrl) {
    String rest = jdbcUrl.substring("jdbc:sqlite:".length());
    int query = rest.indexOf('?');
    String params = query < 0 ? "" : rest.substring(query + 1).toLowerCase(Locale.ROOT);
    String path = query < 0 ? rest : rest.substring(0, query);
    if (path.startsWith("file:")) {
      path = path.substring("file:".length());
    }
    if (path.isEmpty() || path.equals(":memory:") || params.contains("mode=memory")) {
      throw new IllegalArgumentException(
          "In-memory SQLite URL '"
              + jdbcUrl
              + "' is not supported: each pooled connection would see its own empty database."
              + " Use a file (jdbc:sqlite:/path/sessions.db) or InMemorySessionService");
    }
    return Path.of(path);
  }

  private static void createParentFolder(Path file, String jdbcUrl) {
    Path parent = file.toAbsolutePath().getParent();
    if (parent == null) {
      return;
    }
    try {
      Files.createDirectories(parent);
    } catch (IOException e) {
      throw new SessionException(
          "Cannot create the folder " + parent + " for SQLite database " + jdbcUrl + ": " + e, e);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers

  private static String describe(String app, String user, String id) {
    return "session '" + id + "' of user '" + user + "' in app '" + app + "'";
  }

  /** The UTF-8 length of {@code s} without encoding it. */
  static long utf8Length(String s) {
    long n = 0;
    for (int i = 0, len = s.length(); i < len; i++) {
      char ch = s.charAt(i);
      if (ch < 0x80) {
        n += 1;
      } else if (ch < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(ch)
          && i + 1 < len
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }
}
