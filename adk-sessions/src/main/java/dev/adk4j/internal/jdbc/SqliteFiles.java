package dev.adk4j.internal.jdbc;

import com.zaxxer.hikari.HikariConfig;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.SessionException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A store's SQLite file: where a URL puts it (in-memory databases refused), its folder, the
 * connection settings of the pool, the check that it is a database this process may write, and the
 * lock its writers in this JVM queue on.
 */
final class SqliteFiles {

  /**
   * SQLite writers of one file in this JVM, across stores: they queue here, fairly, rather than in
   * SQLite's busy handler, which polls with sleeps and lets a writer starve.
   */
  private static final ConcurrentMap<Path, ReentrantLock> WRITERS = new ConcurrentHashMap<>();

  private SqliteFiles() {}

  /** The lock the writers of {@code file} (absolute, normalized) take in this JVM. */
  static ReentrantLock writerLock(Path file) {
    return WRITERS.computeIfAbsent(file, k -> new ReentrantLock(true));
  }

  /**
   * The absolute, normalized file of a SQLite URL.
   *
   * @throws IllegalArgumentException for an in-memory database (one per connection of the pool)
   */
  static Path file(String jdbcUrl) {
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
    return Path.of(path).toAbsolutePath().normalize();
  }

  /** The file of a SQLite URL as JDBC metadata reports it; null if it names none. */
  static @Nullable Path fileOrNull(@Nullable String url) {
    if (url == null || !url.toLowerCase(Locale.ROOT).startsWith("jdbc:sqlite:")) {
      return null;
    }
    try {
      return file(url);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Creates the folder of {@code file} if it is missing. */
  static void createParentFolder(Path file, String jdbcUrl) {
    Path parent = file.getParent();
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

  /**
   * The settings of the pool's connections: WAL, the busy timeout, foreign keys, durable commits.
   */
  static void configure(HikariConfig hikari, DatabaseSessionConfig config) {
    hikari.addDataSourceProperty("journal_mode", "WAL");
    hikari.addDataSourceProperty("busy_timeout", String.valueOf(config.busyTimeout().toMillis()));
    hikari.addDataSourceProperty("foreign_keys", "true");
    // Durable at commit: an acknowledged append survives a crash of the process or the machine.
    hikari.addDataSourceProperty("synchronous", "FULL");
  }

  /**
   * Opens the SQLite file of {@code jdbcUrl} once, with the pool's settings, before the pool does:
   * a file that is not a database, is corrupt, cannot be opened or is read-only fails the start at
   * once with a message naming it (rather than a pool's or a migration's retries and reports).
   */
  static void check(String jdbcUrl, Properties properties, Path file, ReentrantLock writeLock) {
    String path = file.toString();
    writeLock.lock();
    try (Connection c = DriverManager.getConnection(jdbcUrl, properties)) {
      StartupChecks.checkSqliteFile(c, path, file);
    } catch (SQLException e) {
      throw StartupChecks.sqliteFileFailure(e, path, file);
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Prepares the SQLite database of a DataSource passed in, on one of its connections: switches it
   * to WAL and checks its file as {@link #check} does.
   *
   * @return where the store is, for messages: "the DataSource on /path/sessions.db"
   */
  static String prepareDataSource(Connection c) throws SQLException {
    String url = c.getMetaData().getURL();
    Path file = fileOrNull(url);
    String path = file != null ? file.toString() : String.valueOf(url);
    try {
      if (!c.getAutoCommit()) {
        c.setAutoCommit(true);
      }
      Transactions.execute(c, "PRAGMA journal_mode = WAL");
      StartupChecks.checkSqliteFile(c, path, file);
    } catch (SQLException e) {
      throw StartupChecks.sqliteFileFailure(e, path, file);
    }
    return "the DataSource on " + path;
  }
}
