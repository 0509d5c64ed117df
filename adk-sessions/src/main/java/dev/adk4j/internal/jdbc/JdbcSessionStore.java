package dev.adk4j.internal.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.PendingAppend;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionException;
import dev.adk4j.sessions.SessionLease;
import dev.adk4j.sessions.SessionStore;
import dev.adk4j.sessions.StateChange;
import dev.adk4j.state.Scope;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The {@link SessionStore} of {@code DatabaseSessionService}: sessions, events and state in SQLite
 * or PostgreSQL through JDBC. Use {@code DatabaseSessionService}, which is the {@link
 * dev.adk4j.sessions.StoreBackedSessionService} over this store; the diagnostics here ({@code
 * explain...}) are for tests and benchmarks.
 *
 * <p>Concurrency and ordering. Every operation is one database transaction, retried as a whole
 * after a transient failure (SQLite busy, PostgreSQL deadlock or serialization failure), so it
 * happens entirely or not at all; a failure thrown at last carries the earlier attempts' failures
 * as suppressed exceptions. An append first runs {@code UPDATE adk_sessions SET revision = revision
 * + 1 ... WHERE ... AND revision = ?}: the database orders appends to one session on that row, and
 * an append through a stale copy matches no row and changes nothing. The event's sequence number is
 * the revision it produced. State deltas are applied as one upsert or delete per key, in scope then
 * key order (a global order, so concurrent appends lock shared rows in the same order and cannot
 * deadlock); concurrent appends from different sessions therefore never lose each other's {@code
 * app:} or {@code user:} keys. Reads run in one snapshot. On SQLite, the writers of one file in
 * this JVM (whatever store they use) also queue on a fair in-process lock, and writers in other
 * processes wait on the busy timeout.
 *
 * <p>The work is split by concern: {@link Transactions} (the transaction runner and its retries),
 * {@link Schema} (migration and checks at start), {@link SqliteFiles} and {@link Pools}
 * (connecting), {@link SessionReads}, {@link SessionWrites} and {@link StateWrites} (the SQL of
 * each operation, over {@link SessionRows}), {@link LeaseRows} and {@link Leases} (session leases),
 * {@link QueryPlans} (diagnostics).
 *
 * <p>Thread-safe.
 */
public final class JdbcSessionStore implements SessionStore, AutoCloseable {

  private final Transactions tx;
  private final SessionReads reads;
  private final SessionWrites writes;
  private final LeaseRows leases;
  private final QueryPlans plans;
  private final StateHistoryRows history;

  private JdbcSessionStore(Transactions tx, DatabaseSessionConfig config) {
    this.tx = tx;
    SqlText sql = new SqlText(tx.dialect());
    SessionRows rows = new SessionRows(sql, config.clock());
    this.reads = new SessionReads(tx, sql, rows);
    this.writes =
        new SessionWrites(tx, sql, rows, config.clock(), config.leaseDuration().toMillis());
    this.leases = new LeaseRows(tx, sql, config);
    this.plans = new QueryPlans(tx, sql, rows);
    this.history = new StateHistoryRows(tx);
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
    return open(jdbcUrl, user, password, config, d -> d);
  }

  /**
   * As {@link #open(String, String, String, DatabaseSessionConfig)}, with the store's transactions
   * taking their connections from {@code wrap} applied to its pool (the pool stays the store's own,
   * configured and closed as usual): for tests and benchmarks that count the work, with a {@link
   * CountingDataSource}.
   */
  public static JdbcSessionStore open(
      String jdbcUrl,
      @Nullable String user,
      @Nullable String password,
      DatabaseSessionConfig config,
      java.util.function.UnaryOperator<DataSource> wrap) {
    Dialect dialect = Dialect.ofUrl(jdbcUrl);
    routeDriverLogs(dialect);
    HikariConfig hikari = Pools.settings(jdbcUrl, user, password, config);
    ReentrantLock writeLock;
    if (dialect == Dialect.SQLITE) {
      Path file = SqliteFiles.file(jdbcUrl);
      SqliteFiles.createParentFolder(file, jdbcUrl);
      writeLock = SqliteFiles.writerLock(file);
      SqliteFiles.configure(hikari, config);
      SqliteFiles.check(jdbcUrl, hikari.getDataSourceProperties(), file, writeLock);
    } else {
      writeLock = new ReentrantLock(true);
      Pools.configurePostgres(hikari, config);
    }
    HikariDataSource pool = Pools.open(hikari, jdbcUrl);
    try {
      Transactions tx = new Transactions(wrap.apply(pool), pool, dialect, config, writeLock);
      return start(tx, config, Dialect.redact(jdbcUrl));
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
        where = SqliteFiles.prepareDataSource(c);
      }
    } catch (SQLException e) {
      throw new SessionException("Cannot connect to the DataSource: " + e.getMessage(), e);
    }
    Transactions tx = new Transactions(dataSource, null, dialect, config, new ReentrantLock(true));
    return start(tx, config, where);
  }

  /** Migrates and checks the schema, then makes the store: only a store that can work is made. */
  private static JdbcSessionStore start(
      Transactions tx, DatabaseSessionConfig config, String where) {
    Schema.start(tx, config, where);
    return new JdbcSessionStore(tx, config);
  }

  /** The transactions of this store, which {@link JdbcMemoryStore} shares. */
  Transactions transactions() {
    return tx;
  }

  /** The database product: {@code "SQLite"} or {@code "PostgreSQL"}. */
  public String databaseProduct() {
    return tx.dialect().productName();
  }

  // ---- SessionStore ----

  /** {@code INSERT ... ON CONFLICT DO NOTHING RETURNING pk}, then the initial state's upserts. */
  @Override
  public Session create(String appName, String userId, String sessionId, Scope.Split initial) {
    return writes.create(appName, userId, sessionId, initial, null);
  }

  /**
   * As the 4-argument create, with {@code ttl_millis} and {@code expire_at} set; an expired session
   * of the same id is deleted first, in the same transaction.
   */
  @Override
  public Session create(
      String appName,
      String userId,
      String sessionId,
      Scope.Split initial,
      @Nullable Duration timeToLive) {
    return writes.create(appName, userId, sessionId, initial, timeToLive);
  }

  /**
   * One transaction: {@code DELETE FROM adk_sessions WHERE pk IN (up to limit expired sessions,
   * through adk_sessions_by_expiry[, FOR UPDATE SKIP LOCKED on PostgreSQL]) RETURNING ...}, then
   * their events and session state.
   */
  @Override
  public List<SessionRef> deleteExpired(int limit) {
    return writes.deleteExpired(limit);
  }

  /**
   * One transaction: up to {@code limit} sessions idle for longer than {@code idleFor} with more
   * than {@code keepLast} events not yet trimmed (through adk_sessions_by_idle), then for each a
   * range delete of its events' primary key and its {@code trimmed_seq}.
   */
  @Override
  public Trimmed trimIdleSessions(Duration idleFor, int keepLast, int limit) {
    return writes.trimIdleSessions(idleFor, keepLast, limit);
  }

  /**
   * The session row by its natural key, the state of the three scopes, then the events {@code
   * config} selects by a range of the primary key, in one snapshot.
   *
   * @throws SessionException naming the session if a stored value or event is not valid JSON
   */
  @Override
  public @Nullable Session load(
      String appName, String userId, String sessionId, @Nullable GetSessionConfig config) {
    return reads.load(appName, userId, sessionId, config);
  }

  @Override
  public List<Session> list(String appName, String userId) {
    return reads.list(appName, userId);
  }

  /**
   * Reads the page through the index {@code adk_sessions_by_update}, the app and user state once,
   * and the session state of the page's sessions only.
   */
  @Override
  public List<Session> listPage(
      String appName, String userId, @Nullable Position after, int limit) {
    return reads.listPage(appName, userId, after, limit);
  }

  @Override
  public void delete(String appName, String userId, String sessionId) {
    writes.delete(appName, userId, sessionId);
  }

  @Override
  public List<Event> events(String appName, String userId, String sessionId) {
    return reads.events(appName, userId, sessionId);
  }

  /** A range scan of the events' primary key {@code (session_pk, seq)}. */
  @Override
  public List<NumberedEvent> eventsPage(
      String appName, String userId, String sessionId, boolean newestFirst, long bound, int limit) {
    return reads.eventsPage(appName, userId, sessionId, newestFirst, bound, limit);
  }

  @Override
  public Appended append(PendingAppend append, long expectedRevision, @Nullable String leaseOwner) {
    return writes.append(
        append, expectedRevision, leaseOwner, Leases.pendingTake(leases, leaseOwner));
  }

  /**
   * The key's rows of {@code adk_state_history} through its indexes, and the events they point at:
   * see {@link StateHistoryRows}.
   */
  @Override
  public List<StateChange> stateHistory(
      String appName, String userId, String sessionId, String key) {
    return history.read(appName, userId, sessionId, key);
  }

  /**
   * Takes the session's lease in the database, waiting up to {@code maxWait} in the session's queue
   * (waiters of every process are served in the order they arrived). The lease lasts {@link
   * DatabaseSessionConfig#leaseDuration()} and is renewed every third of that until {@link
   * SessionLease#close()}; a lease whose holder died is taken over once it has expired.
   */
  @Override
  public SessionLease acquireLease(
      String appName, String userId, String sessionId, Duration maxWait)
      throws InterruptedException {
    return Leases.acquire(leases, appName, userId, sessionId, maxWait, wait -> {});
  }

  @Override
  public SessionLease acquireLease(
      String appName,
      String userId,
      String sessionId,
      Duration maxWait,
      java.util.function.Consumer<dev.adk4j.sessions.SessionWait> onWait)
      throws InterruptedException {
    return Leases.acquire(leases, appName, userId, sessionId, maxWait, onWait);
  }

  /**
   * A lease taken by the first append through a copy attached to it, in the statement of that
   * append that bumps the revision, if nobody holds the lease and nobody waits for it; that append
   * fails with {@link dev.adk4j.sessions.SessionBusyException} otherwise. Costs nothing here.
   */
  @Override
  public SessionLease leaseOnFirstAppend(String appName, String userId, String sessionId) {
    return Leases.onFirstAppend(leases, appName, userId, sessionId);
  }

  /** How this store's leases are being renewed (held now, renewals, late, failed, lost). */
  public dev.adk4j.sessions.LeaseStats leaseStats() {
    return Leases.stats(leases);
  }

  // ---- diagnostics ----

  /**
   * Diagnostics: the database's plan for the query that reads the last {@code n} events of a
   * session ({@code EXPLAIN QUERY PLAN} on SQLite; {@code EXPLAIN ANALYZE}, which runs it and
   * reports the rows each step produced, on PostgreSQL). Empty if the session does not exist.
   */
  public List<String> explainRecentEvents(String app, String user, String id, int n) {
    return plans.recentEvents(app, user, id, n);
  }

  /**
   * Diagnostics: the database's plans (as {@link #explainRecentEvents}) for the queries {@link
   * #load} runs with {@code config}: {@code "session"} (the session row, by its natural key),
   * {@code "state"} (app, user and session state) and {@code "events"} (absent when no event is
   * read). Empty if the session does not exist.
   */
  public Map<String, List<String>> explainGetSession(
      String app, String user, String id, Optional<GetSessionConfig> config) {
    return plans.getSession(app, user, id, config.orElse(null));
  }

  /**
   * Diagnostics: the database's plans (as {@link #explainRecentEvents}) for the queries {@link
   * #listPage} runs with these arguments: {@code "page"} (the page of session rows) and, if the
   * page is not empty, {@code "state"} (the session state of the page's sessions).
   */
  public Map<String, List<String>> explainListSessions(
      String app, String user, int limit, @Nullable Instant afterTime, @Nullable String afterId) {
    return plans.listSessions(app, user, limit, afterTime, afterId);
  }

  /** Closes the connection pool if this store opened it; later operations fail. Idempotent. */
  @Override
  public void close() {
    tx.close();
  }

  @Override
  public String toString() {
    return "JdbcSessionStore{" + databaseProduct() + "}";
  }
}
