package dev.adk4j.internal.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.SessionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/** The HikariCP connection pool a store opens on a JDBC URL: its settings, and opening it. */
final class Pools {

  private static final AtomicInteger POOLS = new AtomicInteger();

  private Pools() {}

  /**
   * The pool settings every database gets from {@code config}: size, idle connections, the
   * connection and validation timeouts, credentials and a name ({@code adk4j-sessions-N}).
   */
  static HikariConfig settings(
      String jdbcUrl,
      @Nullable String user,
      @Nullable String password,
      DatabaseSessionConfig config) {
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
    return hikari;
  }

  /** PostgreSQL's settings: the socket timeout and, on every new connection, the statement one. */
  static void configurePostgres(HikariConfig hikari, DatabaseSessionConfig config) {
    // Errors must not quote the failing row or statement parameters (state values, which may be
    // secrets or personal data): the driver then leaves the server's detail out of its messages.
    hikari.addDataSourceProperty("logServerErrorDetail", "false");
    long socketMillis = config.socketTimeout().toMillis();
    if (socketMillis > 0) {
      // pgjdbc counts it in whole seconds; a socketTimeout in the URL takes precedence.
      hikari.addDataSourceProperty("socketTimeout", String.valueOf((socketMillis + 999) / 1000));
    }
    if (!config.statementTimeout().isZero()) {
      hikari.setConnectionInitSql(
          Transactions.setStatementTimeout(config.statementTimeout().toMillis()));
    }
  }

  /**
   * Opens the pool.
   *
   * @throws SessionException naming the URL (without its password) if it cannot
   */
  static HikariDataSource open(HikariConfig hikari, String jdbcUrl) {
    try {
      return new HikariDataSource(hikari);
    } catch (RuntimeException e) {
      throw new SessionException(
          "Cannot connect to " + Dialect.redact(jdbcUrl) + ": " + e.getMessage(), e);
    }
  }
}
