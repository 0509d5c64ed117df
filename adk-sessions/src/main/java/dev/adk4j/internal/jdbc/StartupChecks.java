package dev.adk4j.internal.jdbc;

import dev.adk4j.sessions.SessionException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the store checks before it reports itself ready, so that a store that cannot work fails the
 * start with a message saying what is wrong and how to fix it, instead of failing every later
 * operation: a SQLite file that is not a database, is corrupt or cannot be written, and a schema
 * missing a table or column the store's statements use (whatever the migration history says).
 */
final class StartupChecks {
  private StartupChecks() {}

  /** The tables the store uses, each with the columns its statements name. */
  static final Map<String, List<String>> SCHEMA = schema();

  private static Map<String, List<String>> schema() {
    Map<String, List<String>> tables = new LinkedHashMap<>();
    tables.put(
        "adk_sessions",
        List.of(
            "pk",
            "app_name",
            "user_id",
            "session_id",
            "revision",
            "update_seconds",
            "update_nanos",
            "lease_owner",
            "lease_until",
            "next_owner",
            "next_until",
            "last_compaction_seq",
            "ttl_millis",
            "expire_at",
            "trimmed_seq"));
    tables.put("adk_session_waiters", List.of("session_pk", "seq", "owner", "wait_until"));
    tables.put("adk_events", List.of("session_pk", "seq", "event_id", "event_time", "event"));
    tables.put("adk_app_state", List.of("app_name", "state_key", "state_value"));
    tables.put("adk_user_state", List.of("app_name", "user_id", "state_key", "state_value"));
    tables.put("adk_session_state", List.of("session_pk", "state_key", "state_value"));
    tables.put(
        "adk_state_history",
        List.of("pk", "session_pk", "seq", "app_name", "user_id", "state_key"));
    tables.put(
        "adk_memories",
        List.of(
            "pk",
            "app_name",
            "user_id",
            "session_id",
            "event_id",
            "author",
            "event_time",
            "content",
            "text"));
    return java.util.Collections.unmodifiableMap(tables);
  }

  /**
   * Checks that every table and column in {@link #SCHEMA} exists, by statements that read no row
   * ({@code SELECT ... WHERE 1 = 0}): one per table, and one per column of a table that fails.
   * {@code c} must be in autocommit mode.
   *
   * @throws SessionException naming every missing table and column, and how to repair the schema
   */
  static void checkSchema(Connection c, Dialect dialect, String where, String historyTable)
      throws SQLException {
    List<String> missing = new ArrayList<>();
    for (Map.Entry<String, List<String>> table : SCHEMA.entrySet()) {
      String name = table.getKey();
      if (selects(c, dialect, String.join(", ", table.getValue()), name)) {
        continue;
      }
      if (!selects(c, dialect, "1", name)) {
        missing.add("table " + name + " is missing");
        continue;
      }
      for (String column : table.getValue()) {
        if (!selects(c, dialect, column, name)) {
          missing.add("column " + name + "." + column + " is missing");
        }
      }
    }
    if (!missing.isEmpty()) {
      throw new SessionException(
          "The session schema of "
              + where
              + " is damaged: "
              + String.join("; ", missing)
              + ". Its migration history (table "
              + historyTable
              + ") records every migration as applied, so migrating again will not recreate"
              + " them. Restore them from a backup; or, to start over and lose the stored"
              + " sessions, drop the adk_ tables and "
              + historyTable
              + " and start the service with migrate=true.");
    }
  }

  /** Whether {@code SELECT columns FROM table WHERE 1 = 0} runs: false if it names no object. */
  private static boolean selects(Connection c, Dialect dialect, String columns, String table)
      throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT " + columns + " FROM " + table + " WHERE 1 = 0")) {
      return true;
    } catch (SQLException e) {
      if (dialect.isUndefinedObject(e)) {
        return false;
      }
      throw e;
    }
  }

  /**
   * Checks that {@code c} (autocommit) reads a SQLite database and may write it: it reads the
   * schema table, then changes {@code user_version} to its own value in a transaction that it rolls
   * back, which fails on a read-only database and changes nothing otherwise. A write lock held
   * elsewhere beyond the busy timeout leaves the question open (the check passes).
   *
   * @param path the file as the message should name it
   * @param file the file, to tell why it cannot be written; null if unknown
   * @throws SessionException if the file is not a database, is corrupt or is read-only
   */
  static void checkSqliteFile(Connection c, String path, @Nullable Path file) throws SQLException {
    int version;
    try (Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM sqlite_master")) {
        rs.next();
      }
      try (ResultSet rs = s.executeQuery("PRAGMA user_version")) {
        rs.next();
        version = rs.getInt(1);
      }
    } catch (SQLException e) {
      throw sqliteFileFailure(e, path, file);
    }
    try (Statement s = c.createStatement()) {
      s.execute("BEGIN");
      SQLException failure = null;
      try {
        s.execute("PRAGMA user_version = " + version);
      } catch (SQLException e) {
        failure = e;
      }
      s.execute("ROLLBACK");
      if (failure != null && !Dialect.SQLITE.isTransient(failure)) {
        // (a transient failure: another writer holds the lock, so the file can be written)
        throw sqliteFileFailure(failure, path, file);
      }
    }
  }

  /**
   * A failure to open, read or write a SQLite file, said plainly when SQLite's code tells what is
   * wrong with the file (not a database, corrupt, read-only, cannot be opened); otherwise {@code
   * e}'s message, as a {@link SessionException} naming the file.
   */
  static SessionException sqliteFileFailure(SQLException e, String path, @Nullable Path file) {
    String sqlite = " (" + e.getMessage() + ")";
    Path folder = file == null ? null : file.toAbsolutePath().getParent();
    boolean folderUnwritable =
        folder != null && Files.isDirectory(folder) && !Files.isWritable(folder);
    boolean fileUnwritable = file != null && Files.exists(file) && !Files.isWritable(file);
    String folderReason =
        "the folder "
            + folder
            + " is not writable, and SQLite creates the -wal and -shm files next to the database";
    switch (Dialect.sqliteCode(e)) {
      case 26: // SQLITE_NOTADB
        return new SessionException(
            "SQLite file "
                + path
                + " is not a SQLite database"
                + sqlite
                + ". Point the service at another file, or move this one away to start an empty"
                + " store.",
            e);
      case 11: // SQLITE_CORRUPT
        return new SessionException(
            "SQLite database "
                + path
                + " is corrupt"
                + sqlite
                + ". Restore it from a backup, or move it away to start an empty store.",
            e);
      case 8: // SQLITE_READONLY
        String why =
            fileUnwritable
                ? "the file is not writable by this process"
                : folderUnwritable
                    ? folderReason
                    : "it was opened read-only (open_mode or readOnly in the URL or DataSource)";
        return new SessionException(
            "SQLite database "
                + path
                + " is read-only: "
                + why
                + ". DatabaseSessionService writes to it; give this process write access to the"
                + " file and its folder, and open it read-write"
                + sqlite
                + ".",
            e);
      case 14: // SQLITE_CANTOPEN
        String reason =
            folderUnwritable
                ? folderReason
                : file != null && Files.exists(file) && !Files.isReadable(file)
                    ? "the file is not readable by this process"
                    : "SQLite cannot open it";
        return new SessionException(
            "Cannot open SQLite database " + path + ": " + reason + sqlite, e);
      default:
        return new SessionException(
            "Cannot use SQLite database " + path + ": " + e.getMessage(), e);
    }
  }
}
