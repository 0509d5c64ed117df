package dev.adk4j.internal.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.SessionException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Runs the store's work in database transactions: one transaction per call, committed or rolled
 * back whole, retried after a transient failure. Connections come from the store's {@link
 * DataSource}; those of a DataSource passed in are configured here before use (autocommit, busy
 * timeout, socket and statement timeouts).
 *
 * <p>Retries. Transient failures (SQLite busy, PostgreSQL deadlock or serialization failure) retry
 * the whole transaction, up to {@value #MAX_ATTEMPTS} attempts with a short random pause; a
 * connection lost before the commit was sent is retried once on a new connection. Every failed
 * attempt is kept: the exception finally thrown carries the failures of the earlier attempts as
 * suppressed exceptions, oldest first (its cause, if it wraps one, is the last attempt's).
 *
 * <p>On SQLite, write transactions of one file in this JVM queue on a fair lock (see {@link
 * SqliteFiles#writerLock}) rather than in SQLite's busy handler, which polls and lets a writer
 * starve. Thread-safe.
 */
final class Transactions {

  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Transactions.class);

  static final int MAX_ATTEMPTS = 5;

  /** The work of one transaction, given its connection. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /** The work of one transaction that has no result. */
  @FunctionalInterface
  interface VoidWork {
    void run(Connection c) throws SQLException;
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

  private final DataSource dataSource;
  private final @Nullable HikariDataSource ownedPool;
  private final Dialect dialect;
  private final DatabaseSessionConfig config;
  private final ReentrantLock writeLock;
  private volatile boolean closed;

  /** SQLite's prepared statements, kept per physical connection; null on PostgreSQL. */
  private final @Nullable StatementCache statements;

  /**
   * The physical connections of a {@link DataSource} passed in that this store configured: set the
   * statement timeout on (PostgreSQL) or the busy timeout (SQLite). Weakly held: the pool decides
   * how long they live.
   */
  private final Map<Connection, Boolean> configured =
      Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * @param ownedPool the pool the store opened (its connections are configured already), or null
   *     for a DataSource passed in
   * @param writeLock the lock SQLite writers of this store's file take; unused on PostgreSQL
   */
  Transactions(
      DataSource dataSource,
      @Nullable HikariDataSource ownedPool,
      Dialect dialect,
      DatabaseSessionConfig config,
      ReentrantLock writeLock) {
    this.dataSource = dataSource;
    this.ownedPool = ownedPool;
    this.dialect = dialect;
    this.config = config;
    this.writeLock = writeLock;
    this.statements = dialect == Dialect.SQLITE ? new StatementCache() : null;
  }

  DataSource dataSource() {
    return dataSource;
  }

  Dialect dialect() {
    return dialect;
  }

  ReentrantLock writeLock() {
    return writeLock;
  }

  boolean isClosed() {
    return closed;
  }

  /** Refuses every later transaction and closes the pool if the store opened it. Idempotent. */
  void close() {
    closed = true;
    if (ownedPool != null) {
      ownedPool.close();
    }
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
   * Whatever is thrown carries the failures of earlier attempts as suppressed exceptions.
   *
   * @param write whether the work writes (SQLite: {@code BEGIN IMMEDIATE} and the writers' lock)
   * @param what what is being done, for messages: "append event 'e1' to session ..."
   * @throws IllegalStateException if the store is closed
   */
  <T> T run(boolean write, String what, Work<T> work) {
    if (closed) {
      throw new IllegalStateException("DatabaseSessionService is closed; cannot " + what);
    }
    boolean serialize = write && dialect.singleWriter();
    boolean reconnected = false;
    List<Throwable> failedAttempts = List.of();
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
        Connection w = statements == null ? c : statements.wrap(c);
        if (begin == null) {
          c.setAutoCommit(false);
        } else {
          executeControl(w, begin);
        }
        try {
          T result = work.run(w);
          stage = Stage.COMMITTING;
          if (driverManaged) {
            c.commit();
          } else {
            executeControl(w, "COMMIT");
          }
          return result;
        } catch (Throwable t) {
          if (statements != null) {
            statements.evict(c); // nothing a failure left behind is reused
          }
          rollback(c, driverManaged, t);
          throw t;
        } finally {
          if (driverManaged) {
            restoreAutoCommit(c);
          }
        }
      } catch (SQLException e) {
        if (closed) {
          throw withEarlier(
              new IllegalStateException("DatabaseSessionService is closed; cannot " + what, e),
              failedAttempts);
        }
        if (dialect.isTransient(e) && attempt < MAX_ATTEMPTS) {
          failedAttempts = kept(failedAttempts, e);
          pause(attempt, what, e, failedAttempts);
          continue;
        }
        boolean lost = dialect.isConnectionLost(e);
        if (stage != Stage.CONNECTING && lost) {
          evictIdleConnections();
        }
        if (stage == Stage.WORKING && !reconnected && lost && !isSocketTimeout(e)) {
          reconnected = true;
          failedAttempts = kept(failedAttempts, e);
          log.debug("Retrying to {} on a new connection: {}", what, clean(e));
          continue;
        }
        if (dialect.isUnrepresentable(e)) {
          throw withEarlier(
              new IllegalArgumentException(
                  "Cannot " + what + ": " + dialect.productName() + " cannot store it: " + clean(e),
                  safe(e)),
              failedAttempts);
        }
        throw withEarlier(
            new SessionException(
                "Cannot "
                    + what
                    + " ("
                    + dialect.productName()
                    + (attempt > 1 ? ", " + attempt + " attempts" : "")
                    + "): "
                    + failure(e, stage, reconnected, write),
                safe(e)),
            failedAttempts);
      } catch (RuntimeException e) {
        throw withEarlier(e, failedAttempts); // the work's own exception, after the rollback
      } catch (Error e) {
        throw withEarlier(e, failedAttempts);
      } finally {
        if (serialize) {
          writeLock.unlock();
        }
      }
    }
  }

  /** {@code earlier} and then {@code failure}. */
  private static List<Throwable> kept(List<Throwable> earlier, Throwable failure) {
    List<Throwable> all = new ArrayList<>(earlier.size() + 1);
    all.addAll(earlier);
    all.add(failure);
    return all;
  }

  /**
   * {@code thrown} with the failures of the earlier attempts added as suppressed, in order (each
   * {@linkplain #safe made safe} to log).
   */
  static <X extends Throwable> X withEarlier(X thrown, List<? extends Throwable> earlier) {
    for (Throwable t : earlier) {
      if (t != thrown && t != thrown.getCause()) {
        thrown.addSuppressed(safe(t));
      }
    }
    return thrown;
  }

  /** A failed batch's message starts with the statement and its parameters, which hold values. */
  private static final java.util.regex.Pattern BATCH_ENTRY =
      java.util.regex.Pattern.compile("(?s)^Batch entry \\d+ .*? was aborted: (.*)$");

  /** The longest driver message kept in an exception. */
  private static final int MAX_MESSAGE_CHARS = 300;

  /**
   * What a driver said went wrong, without what it may quote of the data: the first line of the
   * message of the exception that describes the failure (a failed batch's next exception), without
   * a failed batch's statement and parameters, cut to {@value #MAX_MESSAGE_CHARS} characters.
   * PostgreSQL puts the failing row, the JSON it could not parse and the statement's context on the
   * lines after the first (and adk4j's pool asks it not to send them: {@code
   * logServerErrorDetail=false}); SQLite names constraints and tables, never values.
   */
  static String clean(Throwable e) {
    Throwable source = e;
    if (e instanceof java.sql.BatchUpdateException
        && ((SQLException) e).getNextException() != null) {
      source = ((SQLException) e).getNextException();
    }
    String message = source.getMessage();
    if (message == null) {
      return source.getClass().getName();
    }
    java.util.regex.Matcher batch = BATCH_ENTRY.matcher(message);
    if (batch.matches()) {
      message = batch.group(1);
    }
    int newline = message.indexOf('\n');
    if (newline >= 0) {
      message = message.substring(0, newline);
    }
    message = message.strip();
    return message.length() <= MAX_MESSAGE_CHARS
        ? message
        : message.substring(0, MAX_MESSAGE_CHARS) + "…";
  }

  /**
   * A driver's exception as it may be kept as a cause and logged: an {@link SQLException} becomes a
   * copy with the {@linkplain #clean clean} message, its SQL state, vendor code and stack trace,
   * and none of its chained exceptions (whose messages may quote values). Anything else is returned
   * as it is.
   */
  static Throwable safe(Throwable e) {
    if (!(e instanceof SQLException)) {
      return e;
    }
    SQLException sql = (SQLException) e;
    SQLException copy = new SQLException(clean(sql), sql.getSQLState(), sql.getErrorCode());
    copy.setStackTrace(sql.getStackTrace());
    return copy;
  }

  /**
   * Configures a connection from a {@link DataSource} passed in (those of the store's own pool are
   * configured when the pool opens them): autocommit on, SQLite's busy timeout (once per physical
   * connection), and on PostgreSQL the socket timeout (every time; it costs no round trip) and the
   * statement timeout (once per physical connection).
   */
  void prepare(Connection c) throws SQLException {
    if (ownedPool != null) {
      return; // configured when the pool opened it
    }
    if (!c.getAutoCommit()) {
      c.setAutoCommit(true); // transactions are started and ended with SQL
    }
    if (dialect == Dialect.SQLITE) {
      // A connection setting: once per physical connection, not per transaction.
      Connection physical = c.isWrapperFor(Connection.class) ? c.unwrap(Connection.class) : c;
      if (!configured.containsKey(physical)) {
        execute(c, "PRAGMA busy_timeout = " + config.busyTimeout().toMillis());
        configured.put(physical, Boolean.TRUE);
      }
      return;
    }
    if (!config.socketTimeout().isZero()) {
      c.setNetworkTimeout(Runnable::run, (int) config.socketTimeout().toMillis());
    }
    if (!config.statementTimeout().isZero()) {
      Connection physical = c.isWrapperFor(Connection.class) ? c.unwrap(Connection.class) : c;
      if (!configured.containsKey(physical)) {
        execute(c, setStatementTimeout(config.statementTimeout().toMillis()));
        configured.put(physical, Boolean.TRUE);
      }
    }
  }

  /** {@link #run} for work that has no result. */
  void runVoid(boolean write, String what, VoidWork work) {
    run(
        write,
        what,
        c -> {
          work.run(c);
          return Boolean.TRUE;
        });
  }

  /**
   * After a lost connection, closes the idle connections of the store's own pool (and those in use
   * when they come back): when one backend died, the others often did too (a server restart, a
   * failover), and a retry on a dead connection from the pool would fail again. The pool opens new
   * ones as needed.
   */
  private void evictIdleConnections() {
    if (ownedPool != null) {
      HikariPoolMXBean pool = ownedPool.getHikariPoolMXBean();
      if (pool != null) {
        pool.softEvictConnections();
      }
    }
  }

  /** What went wrong, for the message of a failed transaction. */
  private String failure(SQLException e, Stage stage, boolean reconnected, boolean write) {
    if (stage == Stage.CONNECTING) {
      if (ownedPool != null && e instanceof SQLTransientConnectionException) {
        return "no connection to the database within connectionTimeout ("
            + human(config.connectionTimeout())
            + "): "
            + rootMessage(e);
      }
      return "cannot get a connection: " + rootMessage(e);
    }
    String outcome =
        !write
            ? "; nothing was written"
            : stage == Stage.COMMITTING
                ? "; the commit was sent, so whether it took effect is unknown: read the session"
                    + " to find out"
                : "; nothing was committed";
    if (isSocketTimeout(e)) {
      return "the server did not answer within socketTimeout ("
          + human(config.socketTimeout())
          + "), so the connection was given up"
          + outcome
          + " ("
          + clean(e)
          + ")";
    }
    if (dialect.isStatementTimeout(e) && !config.statementTimeout().isZero()) {
      return "a statement ran longer than statementTimeout ("
          + human(config.statementTimeout())
          + ") and the server canceled it; nothing was committed ("
          + clean(e)
          + ")";
    }
    if (dialect.isConnectionLost(e)) {
      return "the connection to the server was lost"
          + (reconnected ? " again after a reconnection" : "")
          + outcome
          + " ("
          + clean(e)
          + ")";
    }
    return messageOf(e);
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
    String message = messageOf(e);
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      if (t.getMessage() != null) {
        message = clean(t);
      }
      if (t == t.getCause()) {
        break;
      }
    }
    return message;
  }

  /** The {@linkplain #clean clean} message of {@code e}, or its class name when it has none. */
  private static String messageOf(Throwable e) {
    return clean(e);
  }

  /** {@code d} as people write it: {@code 1 s}, {@code 500 ms}. */
  static String human(Duration d) {
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

  static String setStatementTimeout(long millis) {
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

  private static void pause(
      int attempt, String what, SQLException cause, List<Throwable> failedAttempts) {
    log.debug(
        "Retrying to {} after a transient failure (attempt {} of {}): {}",
        what,
        attempt,
        MAX_ATTEMPTS,
        clean(cause));
    sleep(ThreadLocalRandom.current().nextLong(5, 20) * attempt, what, failedAttempts);
  }

  /**
   * Sleeps before another attempt.
   *
   * @throws SessionException if interrupted, with the failed attempts suppressed
   */
  static void sleep(long millis, String what, List<? extends Throwable> failedAttempts) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw withEarlier(
          new SessionException("Interrupted while retrying to " + what, e), failedAttempts);
    }
  }

  /**
   * Executes a transaction's {@code BEGIN ...} or {@code COMMIT}: prepared where statements are
   * kept (SQLite: compiled once per connection), else as a plain statement.
   */
  private void executeControl(Connection c, String statement) throws SQLException {
    if (statements == null) {
      execute(c, statement);
      return;
    }
    try (PreparedStatement ps = c.prepareStatement(statement)) {
      ps.execute();
    }
  }

  static void execute(Connection c, String statement) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  static void closeQuietly(@Nullable Statement s) {
    if (s != null) {
      try {
        s.close();
      } catch (SQLException ignored) {
        // the transaction's outcome is decided elsewhere
      }
    }
  }
}
