package dev.adk4j.history;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The SQLite store of a worker, with a disk that can fill up: a pool of connections configured as
 * {@code DatabaseSessionService}'s own SQLite pool configures them (WAL, {@code synchronous=FULL},
 * foreign keys, the busy timeout), handed to the service as a {@link DataSource}. Each time the
 * service takes a connection, {@code PRAGMA max_page_count} is set on it: to the file's current
 * size while the flag file exists (the disk is full: a write that needs one more page fails with
 * {@code SQLITE_FULL}, "database or disk is full", the error SQLite gives for a full disk), and
 * back to SQLite's maximum once it is gone. No root, no mount, no change to the store's code.
 */
final class DiskLimitedSqlite implements DataSource, AutoCloseable {

  /** SQLite's largest page count: no limit. */
  private static final long UNLIMITED = 4294967294L;

  private final HikariDataSource pool;
  private final Path fullFlag;

  DiskLimitedSqlite(Path file, Path fullFlag, Duration busyTimeout) {
    this.fullFlag = fullFlag;
    HikariConfig hikari = new HikariConfig();
    hikari.setJdbcUrl("jdbc:sqlite:" + file);
    hikari.addDataSourceProperty("journal_mode", "WAL");
    hikari.addDataSourceProperty("busy_timeout", String.valueOf(busyTimeout.toMillis()));
    hikari.addDataSourceProperty("foreign_keys", "true");
    hikari.addDataSourceProperty("synchronous", "FULL");
    hikari.setMaximumPoolSize(4);
    hikari.setMinimumIdle(1);
    hikari.setPoolName("history-sqlite");
    this.pool = new HikariDataSource(hikari);
  }

  @Override
  public Connection getConnection() throws SQLException {
    Connection c = pool.getConnection();
    try (Statement s = c.createStatement()) {
      // Setting a maximum below the current size sets it to the current size.
      s.execute("PRAGMA max_page_count = " + (Files.exists(fullFlag) ? 1 : UNLIMITED));
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    return c;
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return getConnection();
  }

  @Override
  public void close() {
    pool.close();
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return pool.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    pool.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    pool.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return pool.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    return pool.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return iface.isInstance(this) || pool.isWrapperFor(iface);
  }
}
