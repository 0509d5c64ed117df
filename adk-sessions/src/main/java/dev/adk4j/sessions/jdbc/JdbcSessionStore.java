package dev.adk4j.sessions.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionAlreadyExistsException;
import dev.adk4j.sessions.SessionBusyException;
import dev.adk4j.sessions.SessionException;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.sessions.StaleSessionException;
import dev.adk4j.sessions.StateConflictException;
import dev.adk4j.state.Json;
import dev.adk4j.state.Scope;
import dev.adk4j.state.State;
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
import org.flywaydb.core.api.exception.FlywayValidateException;
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

  /**
   * The physical connections of a {@link DataSource} passed in that this store set the statement
   * timeout on (weakly held: the pool decides how long they live).
   */
  private final Map<Connection, Boolean> withStatementTimeout =
      Collections.synchronizedMap(new java.util.WeakHashMap<>());

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

  /** The PostgreSQL driver logs through {@code java.util.logging}: send it to SLF4J. */
  private static void routeDriverLogs(Dialect dialect) {
    if (dialect == Dialect.POSTGRESQL) {
      dev.adk4j.internal.JulToSlf4j.route("org.postgresql");
    }
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
    routeDriverLogs(dialect);
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
    // A pooled connection is checked before use when it sat idle; on a server that stopped
    // answering the check waits this long. Half the connection timeout (Hikari's default is 5 s
    // whatever that timeout) keeps a borrow within the time the caller configured.
    hikari.setValidationTimeout(
        Math.max(250, Math.min(5_000, config.connectionTimeout().toMillis() / 2)));
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
      checkSqliteFile(jdbcUrl, hikari.getDataSourceProperties(), file, writeLock);
    } else {
      long socketMillis = config.socketTimeout().toMillis();
      if (socketMillis > 0) {
        // pgjdbc counts it in whole seconds; a socketTimeout in the URL takes precedence.
        hikari.addDataSourceProperty("socketTimeout", String.valueOf((socketMillis + 999) / 1000));
      }
      if (!config.statementTimeout().isZero()) {
        hikari.setConnectionInitSql(setStatementTimeout(config.statementTimeout().toMillis()));
      }
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
      store.start(Dialect.redact(jdbcUrl));
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
    String where = "the DataSource";
    try (Connection c = dataSource.getConnection()) {
      dialect = Dialect.ofProductName(c.getMetaData().getDatabaseProductName());
      routeDriverLogs(dialect);
      if (dialect == Dialect.SQLITE) {
        String url = c.getMetaData().getURL();
        Path file = sqliteFileOrNull(url);
        String path = file != null ? file.toString() : String.valueOf(url);
        where = "the DataSource on " + path;
        try {
          if (!c.getAutoCommit()) {
            c.setAutoCommit(true);
          }
          execute(c, "PRAGMA journal_mode = WAL");
          StartupChecks.checkSqliteFile(c, path, file);
        } catch (SQLException e) {
          throw StartupChecks.sqliteFileFailure(e, path, file);
        }
      }
    } catch (SQLException e) {
      throw new SessionException("Cannot connect to the DataSource: " + e.getMessage(), e);
    }
    JdbcSessionStore store =
        new JdbcSessionStore(dataSource, null, dialect, config, new ReentrantLock(true));
    store.start(where);
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
   */
  public Session create(String app, String user, String id, Scope.Split initial) {
    String context = describe(app, user, id);
    List<List<StateOp>> ops = encode(initial, Map.of(), Map.of(), context);
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
          applyState(c, app, user, id, pk, ops, null, new HashMap<>());
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
          List<Event> events = readEvents(c, row, config, context);
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
          List<SessionRow> rows;
          try (PreparedStatement ps = c.prepareStatement(sql.listSessions)) {
            ps.setString(1, app);
            ps.setString(2, user);
            rows = sessionRows(ps);
          }
          if (rows.isEmpty()) {
            return List.of();
          }
          Map<Long, SessionRow> byPk = new HashMap<>();
          for (SessionRow row : rows) {
            byPk.put(row.pk, row);
          }
          Map<String, Object> shared = readSharedState(c, app, user, context);
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
          return merged(app, user, rows, shared, own);
        });
  }

  /**
   * One page of the user's sessions, with merged state and without events: up to {@code limit}
   * sessions, most recently updated first (ties by id in code point order), after the session
   * updated at {@code afterTime} with id {@code afterId} (both null: from the first). Reads the
   * page through the index {@code adk_sessions_by_update}, the app and user state once, and the
   * session state of the page's sessions only.
   */
  public List<Session> listPage(
      String app, String user, int limit, @Nullable Instant afterTime, @Nullable String afterId) {
    String context = "sessions of user '" + user + "' in app '" + app + "'";
    Query page = pageQuery(app, user, limit, afterTime, afterId);
    return transaction(
        false,
        "list a page of " + context,
        c -> {
          List<SessionRow> rows;
          try (PreparedStatement ps = page.prepare(c, "")) {
            rows = sessionRows(ps);
          }
          if (rows.isEmpty()) {
            return List.of();
          }
          Map<String, Object> shared = readSharedState(c, app, user, context);
          Map<Long, SessionRow> byPk = new HashMap<>();
          for (SessionRow row : rows) {
            byPk.put(row.pk, row);
          }
          Map<Long, Map<String, Object>> own = new HashMap<>();
          try (PreparedStatement ps = pageStateQuery(rows).prepare(c, "")) {
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                SessionRow row = byPk.get(rs.getLong(1));
                String key = rs.getString(2);
                Object value = parseValue(key, rs.getString(3), describe(app, user, row.id));
                own.computeIfAbsent(row.pk, k -> new HashMap<>()).put(key, value);
              }
            }
          }
          return merged(app, user, rows, shared, own);
        });
  }

  private Query pageQuery(
      String app, String user, int limit, @Nullable Instant afterTime, @Nullable String afterId) {
    if ((afterTime == null) != (afterId == null)) {
      throw new IllegalArgumentException("afterTime and afterId go together");
    }
    if (afterTime == null) {
      return new Query(
          sql.listSessionsPage,
          ps -> {
            ps.setString(1, app);
            ps.setString(2, user);
            ps.setInt(3, limit);
          });
    }
    return new Query(
        sql.listSessionsPageAfter,
        ps -> {
          ps.setString(1, app);
          ps.setString(2, user);
          ps.setLong(3, afterTime.getEpochSecond());
          ps.setLong(4, afterTime.getEpochSecond());
          ps.setInt(5, afterTime.getNano());
          ps.setInt(6, afterTime.getNano());
          ps.setString(7, afterId);
          ps.setInt(8, limit);
        });
  }

  private Query pageStateQuery(List<SessionRow> rows) {
    return new Query(
        sql.selectSessionsState(rows.size()),
        ps -> {
          for (int i = 0; i < rows.size(); i++) {
            ps.setLong(i + 1, rows.get(i).pk);
          }
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
          return readEvents(c, row, Optional.empty(), context);
        });
  }

  /** A stored event and its sequence number (the session revision its append produced). */
  public record NumberedEvent(long seq, Event event) {}

  /**
   * Up to {@code limit} events of a session with a sequence number above {@code bound}, oldest
   * first, or with {@code newestFirst} below it, newest first: a range scan of the primary key.
   *
   * @throws SessionNotFoundException if there is no such session
   */
  public List<NumberedEvent> eventsPage(
      String app, String user, String id, boolean newestFirst, long bound, int limit) {
    String context = describe(app, user, id);
    return transaction(
        false,
        "read a page of the events of " + context,
        c -> {
          SessionRow row = findSession(c, app, user, id);
          if (row == null) {
            throw new SessionNotFoundException(app, user, id);
          }
          List<NumberedEvent> events = new ArrayList<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  newestFirst ? sql.selectEventsPageBackward : sql.selectEventsPage)) {
            ps.setLong(1, row.pk);
            ps.setLong(2, bound);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                long seq = rs.getLong(1);
                events.add(new NumberedEvent(seq, parseEvent(seq, rs.getString(2), context)));
              }
            }
          }
          return events;
        });
  }

  /** What an append did: the session's new revision and the values its increments produced. */
  public record AppendResult(long revision, Map<String, Object> resolved) {}

  /**
   * Appends {@code stored} to a session at {@code expectedRevision} and applies {@code delta}, in
   * one transaction. Keys in {@code expected} must hold the given values (null: absent) or nothing
   * is stored; keys in {@code increments} get the amount added to their stored value, and the
   * stored event records the result ({@code withResolved} gives the event to store once the
   * incremented values are known). The session must not be leased to another owner than {@code
   * leaseOwner}. If {@code stored} is a compaction event, the session's {@code last_compaction_seq}
   * becomes its sequence number, in the statement that bumps the revision.
   *
   * @return the session's new revision and the incremented values
   * @throws SessionNotFoundException if there is no such session
   * @throws StaleSessionException if the session is not at {@code expectedRevision}
   * @throws SessionBusyException if another owner holds the session's lease
   * @throws StateConflictException if an expected key holds another value
   * @throws IllegalArgumentException if the session already holds an event with {@code stored}'s
   *     id, or an incremented key holds no integer (sizes are checked by the caller, against {@code
   *     SessionLimits})
   */
  public AppendResult append(
      String app,
      String user,
      String id,
      long expectedRevision,
      @Nullable String leaseOwner,
      Event stored,
      Scope.Split delta,
      Map<String, @Nullable Object> expected,
      Map<String, Long> increments,
      java.util.function.Function<Map<String, Object>, Event> withResolved) {
    String context = describe(app, user, id);
    List<List<StateOp>> ops = encode(delta, expected, increments, context);
    String plainJson = increments.isEmpty() ? JsonText.write(dialect, stored) : null;
    Instant updated = Instant.ofEpochMilli(stored.timestamp());
    boolean compaction = stored.actions().compaction().isPresent();
    return transaction(
        true,
        "append event '" + stored.id() + "' to " + context,
        c -> {
          long pk;
          long revision;
          try (PreparedStatement ps = c.prepareStatement(sql.bumpRevision)) {
            ps.setLong(1, updated.getEpochSecond());
            ps.setInt(2, updated.getNano());
            ps.setInt(3, compaction ? 1 : 0);
            ps.setString(4, app);
            ps.setString(5, user);
            ps.setString(6, id);
            ps.setLong(7, expectedRevision);
            ps.setString(8, leaseOwner);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                throw refused(c, app, user, id, expectedRevision);
              }
              pk = rs.getLong(1);
              revision = rs.getLong(2);
            }
          }
          // After the revision bump, which orders appends to the session: no concurrent append
          // can store the same id between this check and the insert.
          try (PreparedStatement ps = c.prepareStatement(sql.selectEventId)) {
            ps.setLong(1, pk);
            ps.setString(2, stored.id());
            try (ResultSet rs = ps.executeQuery()) {
              if (rs.next()) {
                throw duplicateEvent(stored.id(), context);
              }
            }
          }
          Map<String, Object> resolved = new HashMap<>();
          applyState(c, app, user, id, pk, ops, stored.id(), resolved);
          String eventJson =
              plainJson != null ? plainJson : JsonText.write(dialect, withResolved.apply(resolved));
          try (PreparedStatement ps = c.prepareStatement(sql.insertEvent)) {
            ps.setLong(1, pk);
            ps.setLong(2, revision);
            ps.setString(3, stored.id());
            ps.setLong(4, stored.timestamp());
            ps.setString(5, eventJson);
            ps.executeUpdate();
          }
          return new AppendResult(revision, resolved);
        });
  }

  /**
   * Diagnostics: the database's plan for the query that reads the last {@code n} events of a
   * session ({@code EXPLAIN QUERY PLAN} on SQLite; {@code EXPLAIN ANALYZE}, which runs it and
   * reports the rows each step produced, on PostgreSQL). Empty if the session does not exist.
   */
  public List<String> explainRecentEvents(String app, String user, String id, int n) {
    return explainGetSession(
            app, user, id, Optional.of(GetSessionConfig.builder().numRecentEvents(n).build()))
        .getOrDefault("events", List.of());
  }

  /**
   * Diagnostics: the database's plans (as {@link #explainRecentEvents}) for the queries {@link
   * #load} runs with {@code config}: {@code "session"} (the session row, by its natural key),
   * {@code "state"} (app, user and session state) and {@code "events"} (absent when no event is
   * read). Empty if the session does not exist.
   */
  public Map<String, List<String>> explainGetSession(
      String app, String user, String id, Optional<GetSessionConfig> config) {
    return transaction(
        false,
        "explain the queries reading " + describe(app, user, id),
        c -> {
          SessionRow row = findSession(c, app, user, id);
          if (row == null) {
            return Map.of();
          }
          Map<String, List<String>> plans = new java.util.LinkedHashMap<>();
          plans.put(
              "session",
              explain(
                  c,
                  new Query(
                      sql.selectSession,
                      ps -> {
                        ps.setString(1, app);
                        ps.setString(2, user);
                        ps.setString(3, id);
                      })));
          plans.put(
              "state",
              explain(
                  c,
                  new Query(
                      sql.selectState,
                      ps -> {
                        ps.setString(1, app);
                        ps.setString(2, app);
                        ps.setString(3, user);
                        ps.setLong(4, row.pk);
                      })));
          EventsQuery events = eventsQuery(row, config);
          if (events != null) {
            plans.put("events", explain(c, new Query(events.sql(), events::bind)));
          }
          return plans;
        });
  }

  /**
   * Diagnostics: the database's plans (as {@link #explainRecentEvents}) for the queries {@link
   * #listPage} runs with these arguments: {@code "page"} (the page of session rows) and, if the
   * page is not empty, {@code "state"} (the session state of the page's sessions).
   */
  public Map<String, List<String>> explainListSessions(
      String app, String user, int limit, @Nullable Instant afterTime, @Nullable String afterId) {
    Query page = pageQuery(app, user, limit, afterTime, afterId);
    return transaction(
        false,
        "explain the queries listing the sessions of user '" + user + "' in app '" + app + "'",
        c -> {
          Map<String, List<String>> plans = new java.util.LinkedHashMap<>();
          plans.put("page", explain(c, page));
          List<SessionRow> rows = new ArrayList<>();
          try (PreparedStatement ps = page.prepare(c, "");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              rows.add(new SessionRow(rs.getLong(1), rs.getString(2), 0, 0, 0));
            }
          }
          if (!rows.isEmpty()) {
            plans.put("state", explain(c, pageStateQuery(rows)));
          }
          return plans;
        });
  }

  /** A statement and how to bind its parameters. */
  private record Query(String sql, Binder binder) {
    PreparedStatement prepare(Connection c, String prefix) throws SQLException {
      PreparedStatement ps = c.prepareStatement(prefix + sql);
      try {
        binder.bind(ps);
        return ps;
      } catch (SQLException | RuntimeException e) {
        ps.close();
        throw e;
      }
    }
  }

  @FunctionalInterface
  private interface Binder {
    void bind(PreparedStatement ps) throws SQLException;
  }

  /** The database's plan of {@code query}, one line per row of the EXPLAIN output. */
  private List<String> explain(Connection c, Query query) throws SQLException {
    String prefix =
        dialect == Dialect.SQLITE
            ? "EXPLAIN QUERY PLAN "
            : "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) ";
    List<String> plan = new ArrayList<>();
    try (PreparedStatement ps = query.prepare(c, prefix);
        ResultSet rs = ps.executeQuery()) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        plan.add(rs.getString(columns));
      }
    }
    return plan;
  }

  // ---------------------------------------------------------------------------------------------
  // Leases

  /** The lease columns of a session as one look at them found. */
  public record LeaseState(
      long pk,
      @Nullable String owner,
      long until,
      @Nullable String nextOwner,
      long nextUntil,
      long now) {

    /** Whether {@code me} may take the lease now. */
    boolean freeFor(String me) {
      boolean leaseFree = owner == null || until < now || owner.equals(me);
      boolean nextFree = nextOwner == null || nextUntil < now || nextOwner.equals(me);
      return leaseFree && nextFree;
    }

    /**
     * Whether {@code me} should (re)claim the next turn: it is free, or its claim runs out soon.
     */
    boolean shouldClaim(String me, long claimMillis) {
      if (nextOwner == null || nextUntil < now) {
        return true;
      }
      return nextOwner.equals(me) && nextUntil - now < claimMillis / 2;
    }
  }

  /** The outcome of one attempt to take a lease: taken (with who held it before), or busy. */
  public record LeaseAttempt(
      boolean taken, long pk, long until, @Nullable String previousOwner, LeaseState seen) {}

  /** How long a waiting owner's claim on the next turn lasts unless refreshed. */
  private static final long CLAIM_MILLIS = 1_000;

  /**
   * One attempt to take the lease of a session for {@code owner}: a write transaction that checks
   * and takes it (after the {@code first} attempt, only once a read finds it looking free). A
   * waiter that finds it busy claims the next turn, so that the holder cannot take it straight
   * back.
   *
   * @throws SessionNotFoundException if there is no such session
   */
  public LeaseAttempt tryLease(String app, String user, String id, String owner, boolean first) {
    String context = describe(app, user, id);
    if (!first) {
      // While waiting, look before writing: most looks find the session still busy.
      LeaseState seen =
          transaction(
              false, "read the lease of " + context, c -> leaseState(c, app, user, id, false));
      if (!seen.freeFor(owner) && !seen.shouldClaim(owner, CLAIM_MILLIS)) {
        return new LeaseAttempt(false, seen.pk(), seen.until(), seen.owner(), seen);
      }
    }
    return transaction(
        true,
        "lease " + context,
        c -> {
          LeaseState now = leaseState(c, app, user, id, true);
          if (now.freeFor(owner)) {
            long until;
            try (PreparedStatement ps = c.prepareStatement(sql.takeLease)) {
              ps.setString(1, owner);
              ps.setLong(2, config.leaseDuration().toMillis());
              ps.setLong(3, now.pk());
              try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                until = rs.getLong(1);
              }
            }
            String previous =
                now.owner() != null && !now.owner().equals(owner) ? now.owner() : null;
            return new LeaseAttempt(true, now.pk(), until, previous, now);
          }
          if (now.shouldClaim(owner, CLAIM_MILLIS)) {
            try (PreparedStatement ps = c.prepareStatement(sql.claimNext)) {
              ps.setString(1, owner);
              ps.setLong(2, CLAIM_MILLIS);
              ps.setLong(3, now.pk());
              ps.executeUpdate();
            }
          }
          return new LeaseAttempt(false, now.pk(), now.until(), now.owner(), now);
        });
  }

  private LeaseState leaseState(Connection c, String app, String user, String id, boolean lock)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(lock ? sql.selectLeaseForUpdate : sql.selectLease)) {
      ps.setString(1, app);
      ps.setString(2, user);
      ps.setString(3, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SessionNotFoundException(app, user, id);
        }
        return new LeaseState(
            rs.getLong(1),
            rs.getString(2),
            rs.getLong(3),
            rs.getString(4),
            rs.getLong(5),
            rs.getLong(6));
      }
    }
  }

  /**
   * Extends a held lease by the lease duration from now.
   *
   * @return the new expiry in epoch millis, or -1 if {@code owner} no longer holds the lease
   */
  public long renewLease(long pk, String owner, String context) {
    return transaction(
        true,
        "renew the lease of " + context,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql.renewLease)) {
            ps.setLong(1, config.leaseDuration().toMillis());
            ps.setLong(2, pk);
            ps.setString(3, owner);
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? rs.getLong(1) : -1L;
            }
          }
        });
  }

  /** Releases a lease {@code owner} holds, and any claim it left on the next turn. */
  public void releaseLease(long pk, String owner, String context) {
    transaction(
        true,
        "release the lease of " + context,
        c -> {
          for (String statement : List.of(sql.releaseLease, sql.dropClaim)) {
            try (PreparedStatement ps = c.prepareStatement(statement)) {
              ps.setLong(1, pk);
              ps.setString(2, owner);
              ps.executeUpdate();
            }
          }
          return null;
        });
  }

  /** Drops a claim on the next turn that a waiter gave up. */
  public void dropClaim(long pk, String owner, String context) {
    transaction(
        true,
        "drop the lease claim on " + context,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql.dropClaim)) {
            ps.setLong(1, pk);
            ps.setString(2, owner);
            ps.executeUpdate();
          }
          return null;
        });
  }

  /** Whether {@link #close()} was called. */
  public boolean isClosed() {
    return closed;
  }

  /** The lease settings this store runs with. */
  public DatabaseSessionConfig config() {
    return config;
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

    /** The sequence number of the latest compaction event; null if none (or not read). */
    final @Nullable Long lastCompactionSeq;

    SessionRow(long pk, String id, long revision, long updateSeconds, int updateNanos) {
      this(pk, id, revision, updateSeconds, updateNanos, null);
    }

    SessionRow(
        long pk,
        String id,
        long revision,
        long updateSeconds,
        int updateNanos,
        @Nullable Long lastCompactionSeq) {
      this.pk = pk;
      this.id = id;
      this.revision = revision;
      this.updateSeconds = updateSeconds;
      this.updateNanos = updateNanos;
      this.lastCompactionSeq = lastCompactionSeq;
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

  /** Sessions without events from their rows, the shared state and each one's own state. */
  private static List<Session> merged(
      String app,
      String user,
      List<SessionRow> rows,
      Map<String, Object> shared,
      Map<Long, Map<String, Object>> own) {
    List<Session> sessions = new ArrayList<>(rows.size());
    for (SessionRow row : rows) {
      Map<String, Object> state = new HashMap<>();
      shared.forEach((k, v) -> state.put(k, Json.copy(v)));
      state.putAll(own.getOrDefault(row.pk, Map.of()));
      sessions.add(row.toSession(app, user, state, List.of()));
    }
    return sessions;
  }

  /** The rows of a query selecting (pk, session_id, revision, update_seconds, update_nanos). */
  private static List<SessionRow> sessionRows(PreparedStatement ps) throws SQLException {
    List<SessionRow> rows = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        rows.add(
            new SessionRow(
                rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getInt(5)));
      }
    }
    return rows;
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
        long lastCompaction = rs.getLong(5);
        return new SessionRow(
            rs.getLong(1),
            id,
            rs.getLong(2),
            rs.getLong(3),
            rs.getInt(4),
            rs.wasNull() ? null : lastCompaction);
      }
    }
  }

  /** Why the revision bump matched no row: no session, a stale copy, or another's lease. */
  private SessionException refused(
      Connection c, String app, String user, String id, long expectedRevision) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.selectLeaseByKey)) {
      ps.setString(1, app);
      ps.setString(2, user);
      ps.setString(3, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return new SessionNotFoundException(app, user, id);
        }
        long revision = rs.getLong(1);
        if (revision != expectedRevision) {
          return new StaleSessionException(app, user, id, expectedRevision, revision);
        }
        long until = rs.getLong(3);
        return new SessionBusyException(
            app,
            user,
            id,
            rs.getString(2),
            Instant.ofEpochMilli(until),
            "an append from outside the invocation that holds the session's lease was refused");
      }
    }
  }

  /** The app and user state (the part of a merged state that all the user's sessions share). */
  private Map<String, Object> readSharedState(Connection c, String app, String user, String context)
      throws SQLException {
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
    return shared;
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

  /** The query {@link #readEvents} runs, and how to bind it; null if it reads nothing. */
  private record EventsQuery(
      String sql, long pk, long fromSeq, @Nullable Long after, @Nullable Integer last) {
    void bind(PreparedStatement ps) throws SQLException {
      int i = 1;
      ps.setLong(i++, pk);
      if (fromSeq > 0) {
        ps.setLong(i++, fromSeq);
      }
      if (after != null) {
        ps.setLong(i++, after);
      }
      if (last != null) {
        ps.setInt(i, last);
      }
    }
  }

  /**
   * How to read the events {@code config} selects. {@code afterRevision} and {@code
   * fromLatestCompaction} make one lower bound on the sequence number (the latest compaction's is
   * on the session row), so both are a range scan of the primary key from there.
   */
  private @Nullable EventsQuery eventsQuery(SessionRow row, Optional<GetSessionConfig> config) {
    @Nullable Integer last = config.flatMap(GetSessionConfig::numRecentEvents).orElse(null);
    @Nullable Long after =
        config.flatMap(GetSessionConfig::afterTimestamp).map(Instant::toEpochMilli).orElse(null);
    if (last != null && last == 0) {
      return null;
    }
    long fromSeq = config.flatMap(GetSessionConfig::afterRevision).orElse(0L);
    if (config.map(GetSessionConfig::fromLatestCompaction).orElse(false)
        && row.lastCompactionSeq != null) {
      fromSeq = Math.max(fromSeq, row.lastCompactionSeq - 1);
    }
    String query = sql.selectEvents(fromSeq > 0, after != null, last != null);
    return new EventsQuery(query, row.pk, fromSeq, after, last);
  }

  private List<Event> readEvents(
      Connection c, SessionRow row, Optional<GetSessionConfig> config, String context)
      throws SQLException {
    EventsQuery query = eventsQuery(row, config);
    if (query == null) {
      return List.of();
    }
    List<Event> events = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(query.sql())) {
      query.bind(ps);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          events.add(parseEvent(rs.getLong(1), rs.getString(2), context));
        }
      }
    }
    if (query.last() != null) {
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

  /**
   * One key of an append, encoded. A plain op writes {@code json} (null: removes the key). A
   * checked op first reads the stored value: if {@code expect}, it must equal {@code expected};
   * with an {@code increment} the amount is added to it; without {@code write} nothing is written.
   */
  private static final class StateOp {
    final String key;
    final @Nullable String json;
    final boolean write;
    final boolean expect;
    final @Nullable Object expected;
    final @Nullable Long increment;

    StateOp(
        String key,
        @Nullable String json,
        boolean write,
        boolean expect,
        @Nullable Object expected,
        @Nullable Long increment) {
      this.key = key;
      this.json = json;
      this.write = write;
      this.expect = expect;
      this.expected = expected;
      this.increment = increment;
    }

    boolean checked() {
      return expect || increment != null;
    }
  }

  /**
   * The delta's app, user and session parts, each in key order, values as JSON text, with the
   * conditions and increments of each key.
   */
  private List<List<StateOp>> encode(
      Scope.Split split,
      Map<String, @Nullable Object> expected,
      Map<String, Long> increments,
      String context) {
    List<List<StateOp>> scopes = new ArrayList<>(3);
    for (Scope scope : List.of(Scope.APP, Scope.USER, Scope.SESSION)) {
      Map<String, @Nullable Object> delta =
          scope == Scope.APP ? split.app() : scope == Scope.USER ? split.user() : split.session();
      TreeMap<String, Boolean> keys = new TreeMap<>();
      delta.keySet().forEach(k -> keys.put(k, true));
      for (String k : expected.keySet()) {
        if (Scope.of(k) == scope) {
          keys.put(k, true);
        }
      }
      for (String k : increments.keySet()) {
        if (Scope.of(k) == scope) {
          keys.put(k, true);
        }
      }
      List<StateOp> ops = new ArrayList<>(keys.size());
      for (String key : keys.keySet()) {
        Long increment = increments.get(key);
        boolean write = increment != null || delta.containsKey(key);
        Object value = delta.get(key);
        String json = increment == null && value != null ? JsonText.write(dialect, value) : null;
        ops.add(
            new StateOp(key, json, write, expected.containsKey(key), expected.get(key), increment));
      }
      scopes.add(ops);
    }
    return scopes;
  }

  /** The statements for one scope's rows, and the values of its owner columns. */
  private static final class ScopeSql {
    final String upsert;
    final String delete;
    final String select;
    final String update;
    final String insert;
    final Object[] owner;

    ScopeSql(
        String upsert,
        String delete,
        String select,
        String update,
        String insert,
        Object... owner) {
      this.upsert = upsert;
      this.delete = delete;
      this.select = select;
      this.update = update;
      this.insert = insert;
      this.owner = owner;
    }
  }

  /**
   * Applies the ops of every scope, in scope then key order. Values produced by increments are put
   * in {@code resolved}.
   */
  private void applyState(
      Connection c,
      String app,
      String user,
      String id,
      long pk,
      List<List<StateOp>> scopes,
      @Nullable String eventId,
      Map<String, Object> resolved)
      throws SQLException {
    List<ScopeSql> tables =
        List.of(
            new ScopeSql(
                sql.upsertAppState,
                sql.deleteAppState,
                sql.selectAppValue,
                sql.updateAppValue,
                sql.insertAppValue,
                app),
            new ScopeSql(
                sql.upsertUserState,
                sql.deleteUserState,
                sql.selectUserValue,
                sql.updateUserValue,
                sql.insertUserValue,
                app,
                user),
            new ScopeSql(
                sql.upsertSessionState,
                sql.deleteSessionStateKey,
                sql.selectSessionValue,
                sql.updateSessionValue,
                sql.insertSessionValue,
                pk));
    for (int i = 0; i < 3; i++) {
      applyScope(c, tables.get(i), scopes.get(i), app, user, id, eventId, resolved);
    }
  }

  /**
   * Applies one scope's keys in key order, batching runs of plain upserts and runs of plain
   * deletes. Keeping the order (rather than all upserts, then all deletes) keeps row locks in one
   * global order. A checked op (condition or increment) runs on its own, after the batch before it.
   */
  private void applyScope(
      Connection c,
      ScopeSql t,
      List<StateOp> ops,
      String app,
      String user,
      String id,
      @Nullable String eventId,
      Map<String, Object> resolved)
      throws SQLException {
    if (ops.isEmpty()) {
      return;
    }
    PreparedStatement upsert = null;
    PreparedStatement delete = null;
    try {
      PreparedStatement pending = null;
      for (StateOp op : ops) {
        if (op.checked()) {
          if (pending != null) {
            pending.executeBatch();
            pending = null;
          }
          applyChecked(c, t, op, app, user, id, eventId, resolved);
          continue;
        }
        PreparedStatement ps;
        if (op.json == null) {
          delete = delete != null ? delete : c.prepareStatement(t.delete);
          ps = delete;
        } else {
          upsert = upsert != null ? upsert : c.prepareStatement(t.upsert);
          ps = upsert;
        }
        if (pending != null && pending != ps) {
          pending.executeBatch();
        }
        pending = ps;
        int i = bindOwner(ps, 1, t.owner);
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

  /**
   * Reads the key's stored value (locking its row on PostgreSQL), checks the condition, computes an
   * increment, and writes. A key that is absent is inserted only if it is still absent: if another
   * transaction inserted it meanwhile (PostgreSQL), the read is done again.
   */
  private void applyChecked(
      Connection c,
      ScopeSql t,
      StateOp op,
      String app,
      String user,
      String id,
      @Nullable String eventId,
      Map<String, Object> resolved)
      throws SQLException {
    String context = describe(app, user, id);
    for (int attempt = 1; ; attempt++) {
      String storedJson = null;
      try (PreparedStatement ps = c.prepareStatement(t.select)) {
        int i = bindOwner(ps, 1, t.owner);
        ps.setString(i, op.key);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            storedJson = rs.getString(1);
          }
        }
      }
      Object current = storedJson == null ? null : parseValue(op.key, storedJson, context);
      if (op.expect && !Json.sameValue(op.expected, current)) {
        throw new StateConflictException(app, user, id, op.key, op.expected, current, eventId);
      }
      if (!op.write) {
        return;
      }
      String json = op.json;
      if (op.increment != null) {
        Object next;
        try {
          next = State.incremented(op.key, current, op.increment);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              e.getMessage() + " (" + context + "); nothing was stored", e);
        }
        resolved.put(op.key, next);
        json = JsonText.write(dialect, next);
      }
      if (json == null) {
        if (storedJson != null) {
          try (PreparedStatement ps = c.prepareStatement(t.delete)) {
            int i = bindOwner(ps, 1, t.owner);
            ps.setString(i, op.key);
            ps.executeUpdate();
          }
        }
        return;
      }
      if (storedJson != null) {
        try (PreparedStatement ps = c.prepareStatement(t.update)) {
          ps.setString(1, json);
          int i = bindOwner(ps, 2, t.owner);
          ps.setString(i, op.key);
          ps.executeUpdate();
        }
        return;
      }
      try (PreparedStatement ps = c.prepareStatement(t.insert)) {
        int i = bindOwner(ps, 1, t.owner);
        ps.setString(i++, op.key);
        ps.setString(i, json);
        if (ps.executeUpdate() == 1) {
          return;
        }
      }
      if (attempt >= 3) {
        throw new SQLException(
            "State key '" + op.key + "' of " + context + " kept changing under a conditional write",
            "40001");
      }
      resolved.remove(op.key);
    }
  }

  private static int bindOwner(PreparedStatement ps, int first, Object[] owner)
      throws SQLException {
    int i = first;
    for (Object o : owner) {
      ps.setObject(i++, o);
    }
    return i;
  }

  // ---------------------------------------------------------------------------------------------
  // Transactions

  @FunctionalInterface
  private interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /** How far a transaction got, which decides whether a failure may be retried. */
  private enum Stage {
    /** Waiting for a connection: the pool has waited its connectionTimeout already. */
    CONNECTING,
    /** Running the work: nothing is committed yet, whatever fails. */
    WORKING,
    /** The commit was sent: if its answer is lost, whether it took effect is unknown. */
    COMMITTING
  }

  /**
   * Runs {@code work} in one transaction and commits it; rolls back on any failure. Transient
   * database failures retry the whole transaction (up to {@value #MAX_ATTEMPTS} attempts), and so
   * does, once, a connection lost before the commit was sent (a backend terminated, a connection
   * the server dropped while it sat in the pool): nothing was committed, so the work is done again
   * on a new connection, after the pool's idle connections are closed (they are likely dead too). A
   * connection lost while committing, or a server that did not answer within the socket timeout, is
   * not retried. Other SQL failures become a {@link SessionException} saying what was being done
   * and what went wrong. Exceptions thrown by {@code work} itself pass through after the rollback.
   */
  private <T> T transaction(boolean write, String what, Work<T> work) {
    if (closed) {
      throw new IllegalStateException("DatabaseSessionService is closed; cannot " + what);
    }
    boolean serialize = write && dialect.singleWriter();
    boolean reconnected = false;
    for (int attempt = 1; ; attempt++) {
      if (serialize) {
        writeLock.lock();
      }
      Stage stage = Stage.CONNECTING;
      try (Connection c = dataSource.getConnection()) {
        stage = Stage.WORKING;
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
          stage = Stage.COMMITTING;
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
            restoreAutoCommit(c);
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
        if (stage != Stage.CONNECTING && dialect.isConnectionLost(e)) {
          evictIdleConnections();
        }
        if (stage == Stage.WORKING
            && !reconnected
            && dialect.isConnectionLost(e)
            && !isSocketTimeout(e)) {
          reconnected = true;
          log.debug("Retrying to {} on a new connection: {}", what, e.getMessage());
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
                + explain(e, stage, reconnected),
            e);
      } finally {
        if (serialize) {
          writeLock.unlock();
        }
      }
    }
  }

  /**
   * After a lost connection, closes the idle connections of the service's own pool (and those in
   * use when they come back): when one backend died, the others often did too (a server restart, a
   * failover), and a retry on a dead connection from the pool would fail again. The pool opens new
   * ones as needed.
   */
  private void evictIdleConnections() {
    if (ownedPool != null) {
      com.zaxxer.hikari.HikariPoolMXBean pool = ownedPool.getHikariPoolMXBean();
      if (pool != null) {
        pool.softEvictConnections();
      }
    }
  }

  /** What went wrong, for the message of a failed transaction. */
  private String explain(SQLException e, Stage stage, boolean reconnected) {
    if (stage == Stage.CONNECTING) {
      if (ownedPool != null && e instanceof java.sql.SQLTransientConnectionException) {
        return "no connection to the database within connectionTimeout ("
            + human(config.connectionTimeout())
            + "): "
            + rootMessage(e);
      }
      return "cannot get a connection: " + rootMessage(e);
    }
    String outcome =
        stage == Stage.COMMITTING
            ? "; the commit was sent, so whether it took effect is unknown: read the session to"
                + " find out"
            : "; nothing was committed";
    if (isSocketTimeout(e)) {
      return "the server did not answer within socketTimeout ("
          + human(config.socketTimeout())
          + "), so the connection was given up"
          + outcome
          + " ("
          + e.getMessage()
          + ")";
    }
    if (dialect.isStatementTimeout(e) && !config.statementTimeout().isZero()) {
      return "a statement ran longer than statementTimeout ("
          + human(config.statementTimeout())
          + ") and the server canceled it; nothing was committed ("
          + e.getMessage()
          + ")";
    }
    if (dialect.isConnectionLost(e)) {
      return "the connection to the server was lost"
          + (reconnected ? " again after a reconnection" : "")
          + outcome
          + " ("
          + e.getMessage()
          + ")";
    }
    return e.getMessage();
  }

  /** Whether the driver gave up waiting for the server's answer (the socket timeout ran out). */
  private static boolean isSocketTimeout(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.SocketTimeoutException) {
        return true;
      }
    }
    return false;
  }

  /** The message of the innermost cause of {@code e} that has one. */
  private static String rootMessage(Throwable e) {
    String message = e.getMessage();
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      if (t.getMessage() != null) {
        message = t.getMessage();
      }
      if (t == t.getCause()) {
        break;
      }
    }
    return message;
  }

  /** {@code d} as people write it: {@code 1 s}, {@code 500 ms}. */
  static String human(java.time.Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
  }

  /**
   * Puts a connection back in autocommit mode after a driver-managed transaction. A connection that
   * cannot be (it broke during the transaction) is left to the pool, which discards it; the
   * transaction's own outcome or failure is what the caller gets.
   */
  private static void restoreAutoCommit(Connection c) {
    try {
      c.setAutoCommit(true);
    } catch (SQLException e) {
      log.debug("Cannot restore autocommit on a connection: {}", e.getMessage());
    }
  }

  /**
   * Configures a connection from a {@link DataSource} passed in (those of the service's own pool
   * are configured when the pool opens them): autocommit on, SQLite's busy timeout, and on
   * PostgreSQL the socket timeout (every time; it costs no round trip) and the statement timeout
   * (once per physical connection).
   */
  private void prepare(Connection c) throws SQLException {
    if (ownedPool != null) {
      return; // configured when the pool opened it
    }
    if (!c.getAutoCommit()) {
      c.setAutoCommit(true); // transactions are started and ended with SQL below
    }
    if (dialect == Dialect.SQLITE) {
      execute(c, "PRAGMA busy_timeout = " + config.busyTimeout().toMillis());
      return;
    }
    if (!config.socketTimeout().isZero()) {
      c.setNetworkTimeout(Runnable::run, (int) config.socketTimeout().toMillis());
    }
    if (!config.statementTimeout().isZero()) {
      Connection physical = c.isWrapperFor(Connection.class) ? c.unwrap(Connection.class) : c;
      if (!withStatementTimeout.containsKey(physical)) {
        execute(c, setStatementTimeout(config.statementTimeout().toMillis()));
        withStatementTimeout.put(physical, Boolean.TRUE);
      }
    }
  }

  private static String setStatementTimeout(long millis) {
    return "SET statement_timeout = " + millis;
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

  /**
   * Brings the store to a state where every operation can work, or fails naming what is wrong:
   * migrates (or validates) the schema, then checks that the tables and columns the store uses
   * exist, whatever the migration history says. Only then is the store reported ready.
   */
  private void start(String where) {
    int applied = migrate(where);
    try (Connection c = dataSource.getConnection()) {
      prepare(c);
      StartupChecks.checkSchema(c, dialect, where, HISTORY_TABLE);
    } catch (SQLException e) {
      throw new SessionException(
          "Cannot check the session schema of " + where + ": " + e.getMessage(), e);
    }
    log.info(
        "Session store on {} ({}) ready; {}",
        where,
        dialect.productName(),
        config.migrate() ? applied + " schema migration(s) applied" : "schema validated");
  }

  /**
   * Migrates (or only validates) the schema with Flyway. A failure that may come from another
   * instance creating the schema at the same moment is retried; any other fails at once.
   *
   * @return the number of migrations applied
   */
  private int migrate(String where) {
    Flyway flyway =
        Flyway.configure(JdbcSessionStore.class.getClassLoader())
            .dataSource(new Untimed(dataSource))
            .locations(dialect.migrations())
            .table(HISTORY_TABLE)
            .failOnMissingLocations(true)
            // Log through SLF4J like the rest of adk4j, never through java.util.logging (Flyway's
            // fallback when no SLF4J provider is bound), and keep the results of the migrations'
            // check queries out of the log.
            .loggers("slf4j")
            .outputQueryResults(false)
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
          return flyway.migrate().migrationsExecuted;
        }
        flyway.validate();
        return 0;
      } catch (FlywayException e) {
        SQLException sql = sqlCause(e);
        // Instances starting together on a new database race: on SQLite there is no lock Flyway
        // could take, and on PostgreSQL one that finds the other's fresh, still empty history
        // table refuses to baseline it. The loser finds the winner's schema on a later attempt.
        // A corrupt, read-only or unreachable database fails the same way every time: at once.
        if (config.migrate()
            && attempt < MIGRATION_ATTEMPTS
            && !(e instanceof FlywayValidateException)
            && dialect.mayBeMigrationRace(sql)) {
          log.debug("Schema migration of {} raced another instance; retrying", where);
          sleep(100L * attempt, "migrate the session schema of " + where, e);
          continue;
        }
        if (dialect == Dialect.SQLITE && sql != null) {
          int code = Dialect.sqliteCode(sql);
          if (code == 8 || code == 11 || code == 14 || code == 26) {
            Path file = sqliteFileOrNull(where);
            throw StartupChecks.sqliteFileFailure(
                sql, file != null ? file.toString() : where, file);
          }
        }
        throw new SessionException(
            "Cannot "
                + (config.migrate() ? "migrate" : "validate")
                + " the session schema of "
                + where
                + (attempt > 1 ? " (" + attempt + " attempts)" : "")
                + ": "
                + conciseMessage(e, sql),
            e);
      } finally {
        if (serialize) {
          writeLock.unlock();
        }
      }
    }
  }

  /** The first SQL failure among the causes of {@code e}, if any. */
  private static @Nullable SQLException sqlCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s) {
        return s;
      }
      if (t == t.getCause()) {
        break;
      }
    }
    return null;
  }

  /**
   * Flyway's message without the report it formats under a line of dashes (SQL state, error code,
   * message again): its first line, then the SQL failure's own message.
   */
  private static String conciseMessage(FlywayException e, @Nullable SQLException sql) {
    String message = String.valueOf(e.getMessage()).strip();
    int banner = message.indexOf("\n-");
    String head = (banner < 0 ? message : message.substring(0, banner)).strip();
    if (sql == null || banner < 0 || head.contains(String.valueOf(sql.getMessage()))) {
      return head;
    }
    return head + ": " + sql.getMessage();
  }

  /**
   * The DataSource Flyway migrates through: its connections have neither the socket nor the
   * statement timeout, since a migration may rightly take long (a large store's first start on a
   * new schema version, or waiting for another instance's migration), and get them back when
   * closed. Only PostgreSQL has them.
   */
  private final class Untimed extends DelegatingDataSource {
    Untimed(DataSource delegate) {
      super(delegate);
    }

    @Override
    public Connection getConnection() throws SQLException {
      return untimed(super.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
      return untimed(super.getConnection(username, password));
    }

    private Connection untimed(Connection c) throws SQLException {
      if (dialect != Dialect.POSTGRESQL) {
        return c;
      }
      boolean socket = !config.socketTimeout().isZero();
      boolean statement = !config.statementTimeout().isZero();
      try {
        if (socket) {
          c.setNetworkTimeout(Runnable::run, 0);
        }
        if (statement) {
          execute(c, setStatementTimeout(0));
        }
      } catch (SQLException | RuntimeException e) {
        c.close();
        throw e;
      }
      return (Connection)
          java.lang.reflect.Proxy.newProxyInstance(
              JdbcSessionStore.class.getClassLoader(),
              new Class<?>[] {Connection.class},
              (proxy, method, args) -> {
                if (method.getName().equals("close") && method.getParameterCount() == 0) {
                  try {
                    if (statement && !c.isClosed()) {
                      execute(c, setStatementTimeout(config.statementTimeout().toMillis()));
                    }
                    if (socket && !c.isClosed()) {
                      c.setNetworkTimeout(Runnable::run, (int) config.socketTimeout().toMillis());
                    }
                  } catch (SQLException e) {
                    log.debug("Cannot restore the timeouts of a connection: {}", e.getMessage());
                  }
                }
                try {
                  return method.invoke(c, args);
                } catch (java.lang.reflect.InvocationTargetException e) {
                  throw e.getCause();
                }
              });
    }
  }

  /**
   * Opens the SQLite file of {@code jdbcUrl} once, with the pool's settings, before the pool does:
   * a file that is not a database, is corrupt, cannot be opened or is read-only fails the start at
   * once with a message naming it (rather than a pool's or a migration's retries and reports).
   */
  private static void checkSqliteFile(
      String jdbcUrl, java.util.Properties properties, Path file, ReentrantLock writeLock) {
    String path = file.toString();
    writeLock.lock();
    try (Connection c = java.sql.DriverManager.getConnection(jdbcUrl, properties)) {
      StartupChecks.checkSqliteFile(c, path, file);
    } catch (SQLException e) {
      throw StartupChecks.sqliteFileFailure(e, path, file);
    } finally {
      writeLock.unlock();
    }
  }

  /** The file of a SQLite URL as JDBC metadata reports it; null if it names none. */
  private static @Nullable Path sqliteFileOrNull(@Nullable String url) {
    if (url == null || !url.toLowerCase(Locale.ROOT).startsWith("jdbc:sqlite:")) {
      return null;
    }
    try {
      return sqliteFile(url).toAbsolutePath().normalize();
    } catch (RuntimeException e) {
      return null;
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

  /** The same error as the in-memory service's for an event id stored twice. */
  private static IllegalArgumentException duplicateEvent(String eventId, String context) {
    return new IllegalArgumentException(
        "Event '"
            + eventId
            + "' is already stored in "
            + context
            + "; an event id is appended once per session (give a new event a new id);"
            + " nothing was stored");
  }

  private static String describe(String app, String user, String id) {
    return "session '" + id + "' of user '" + user + "' in app '" + app + "'";
  }
}
