package dev.adk4j.internal.jdbc;

import java.sql.SQLException;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What differs between the supported databases: how a transaction starts, how a JSON parameter is
 * bound, where the migrations live and which errors are worth retrying. The SQL itself is the same
 * for both (both accept {@code INSERT ... ON CONFLICT} and {@code RETURNING}).
 */
enum Dialect {
  /**
   * SQLite in WAL mode. Writers start with {@code BEGIN IMMEDIATE}, taking the file's write lock up
   * front, so a transaction never has to upgrade a read lock (which can fail with {@code
   * SQLITE_BUSY} whatever the busy timeout); waiting for that lock is left to the busy timeout.
   * Readers use deferred transactions, which read one WAL snapshot and never block writers.
   */
  SQLITE("SQLite", "BEGIN IMMEDIATE", "BEGIN", "?", true),

  /**
   * PostgreSQL. Writers use the driver's transactions (autocommit off), which send {@code BEGIN}
   * along with the first statement instead of in a round trip of its own, at the server's default
   * isolation, READ COMMITTED unless configured otherwise (a stricter level only adds serialization
   * failures, which are retried): the conditional revision update locks the session row, and
   * per-key upserts lock only the state rows they touch. Readers run in a read-only REPEATABLE READ
   * transaction so that a session's row, state and events come from one snapshot.
   */
  POSTGRESQL(
      "PostgreSQL",
      null,
      "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
      "CAST(? AS jsonb)",
      false);

  private final String productName;
  private final @Nullable String beginWrite;
  private final String beginRead;
  private final String jsonParameter;
  private final boolean singleWriter;

  Dialect(
      String productName,
      @Nullable String beginWrite,
      String beginRead,
      String jsonParameter,
      boolean singleWriter) {
    this.productName = productName;
    this.beginWrite = beginWrite;
    this.beginRead = beginRead;
    this.jsonParameter = jsonParameter;
    this.singleWriter = singleWriter;
  }

  /** The dialect of a JDBC URL, or an exception naming the URL's scheme. */
  static Dialect ofUrl(String jdbcUrl) {
    String lower = jdbcUrl.toLowerCase(Locale.ROOT);
    if (lower.startsWith("jdbc:sqlite:")) {
      return SQLITE;
    }
    if (lower.startsWith("jdbc:postgresql:")) {
      return POSTGRESQL;
    }
    throw new IllegalArgumentException(
        "Unsupported JDBC URL '"
            + redact(jdbcUrl)
            + "': DatabaseSessionService supports jdbc:sqlite: and jdbc:postgresql: URLs");
  }

  /** The dialect of a database product name as JDBC metadata reports it. */
  static Dialect ofProductName(String productName) {
    for (Dialect d : values()) {
      if (d.productName.equalsIgnoreCase(productName)) {
        return d;
      }
    }
    throw new IllegalArgumentException(
        "Unsupported database '"
            + productName
            + "': DatabaseSessionService supports SQLite and PostgreSQL");
  }

  String productName() {
    return productName;
  }

  /** The statement that starts a write transaction, or null to let the driver start it. */
  @Nullable String beginWrite() {
    return beginWrite;
  }

  String beginRead() {
    return beginRead;
  }

  /**
   * What a SELECT appends to lock the rows it reads until the transaction ends: {@code FOR UPDATE}
   * on PostgreSQL; nothing on SQLite, whose writers hold the file's write lock from their start.
   */
  String forUpdate() {
    return this == SQLITE ? "" : " FOR UPDATE";
  }

  /**
   * What follows a text column in ORDER BY and comparisons to order it by Unicode code point (the
   * order of UTF-8 bytes), as Java does in {@code InMemorySessionService}: nothing on SQLite, whose
   * default {@code BINARY} collation does that; {@code COLLATE "C"} on PostgreSQL, whose default
   * collation follows the locale. The index {@code adk_sessions_by_update} is declared alike.
   */
  String codePointCollation() {
    return this == SQLITE ? "" : " COLLATE \"C\"";
  }

  /** The placeholder for a JSON text parameter, cast where the column type needs it. */
  String jsonParameter() {
    return jsonParameter;
  }

  /**
   * Whether the database admits one writer at a time (SQLite). The store then also serializes its
   * own writers in process, so that they queue on a fair lock rather than on SQLite's busy handler,
   * which polls with sleeps.
   */
  boolean singleWriter() {
    return singleWriter;
  }

  /** The Flyway location of this dialect's migrations. */
  String migrations() {
    return "classpath:dev/adk4j/internal/jdbc/migration/" + name().toLowerCase(Locale.ROOT);
  }

  /**
   * Whether {@code e} is a transient failure after which the whole transaction may be retried:
   * SQLite's {@code SQLITE_BUSY}/{@code SQLITE_LOCKED} (the busy timeout ran out) and PostgreSQL's
   * serialization failures and deadlocks.
   */
  boolean isTransient(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (!(t instanceof SQLException)) {
        continue;
      }
      SQLException s = (SQLException) t;
      if (this == SQLITE) {
        int primary = s.getErrorCode() & 0xFF;
        if (primary == 5 || primary == 6) {
          return true;
        }
      } else {
        String state = s.getSQLState();
        if ("40001".equals(state) || "40P01".equals(state)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether {@code e} says the connection to the server is gone (PostgreSQL: SQLState class 08, or
   * the backend was terminated: 57P01 by {@code pg_terminate_backend} or a shutdown, 57P02 by a
   * crash, 57P03 while the server starts). Never for SQLite, which has no connection to lose.
   */
  boolean isConnectionLost(SQLException e) {
    if (this == SQLITE) {
      return false;
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s && s.getSQLState() != null) {
        String state = s.getSQLState();
        if (state.startsWith("08")
            || "57P01".equals(state)
            || "57P02".equals(state)
            || "57P03".equals(state)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether {@code e} says a statement ran past the server's {@code statement_timeout}. */
  boolean isStatementTimeout(SQLException e) {
    return this == POSTGRESQL && "57014".equals(e.getSQLState());
  }

  /** Whether {@code e} says a table or column named in a statement does not exist. */
  boolean isUndefinedObject(SQLException e) {
    if (this == POSTGRESQL) {
      return "42P01".equals(e.getSQLState()) || "42703".equals(e.getSQLState());
    }
    String message = String.valueOf(e.getMessage());
    return sqliteCode(e) == 1
        && (message.contains("no such table") || message.contains("no such column"));
  }

  /**
   * Whether a failed schema migration may have lost a race with another instance creating the same
   * schema, so that trying again finds the winner's schema: a transient failure, a duplicate (table
   * or history row) or no SQL failure at all (Flyway's own checks of a history table that another
   * instance is still filling). Not for an unreadable, corrupt, read-only or unreachable database,
   * which fails the same way every time.
   */
  boolean mayBeMigrationRace(@Nullable SQLException e) {
    if (e == null || isTransient(e)) {
      return true;
    }
    if (this == SQLITE) {
      int code = sqliteCode(e);
      return code == 1 || code == 19; // SQLITE_ERROR ("already exists"), SQLITE_CONSTRAINT
    }
    String state = String.valueOf(e.getSQLState());
    return state.equals("23505") || state.equals("42P07") || state.equals("42710");
  }

  /** SQLite's primary result code of {@code e} (0 if it has none). */
  static int sqliteCode(SQLException e) {
    return e.getErrorCode() & 0xFF;
  }

  /**
   * Whether {@code e} says the database cannot represent a value it was given (PostgreSQL refuses
   * NUL characters in text and {@code \u0000} in JSONB): the caller's input, not a failure.
   */
  boolean isUnrepresentable(SQLException e) {
    String state = e.getSQLState();
    return this == POSTGRESQL && ("22021".equals(state) || "22P05".equals(state));
  }

  /** The URL without its query string, which may hold a password. */
  static String redact(String jdbcUrl) {
    int q = jdbcUrl.indexOf('?');
    return q < 0 ? jdbcUrl : jdbcUrl.substring(0, q) + "?...";
  }
}
