package dev.adk4j.sessions;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link MidTransactionFailureContract} on PostgreSQL, where a connection can also be lost: before
 * the commit the work is done again on a new connection, during it the failure says the outcome is
 * unknown.
 */
class PostgresMidTransactionFailureTest extends MidTransactionFailureContract {

  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  private final List<HikariDataSource> pools = new ArrayList<>();

  /**
   * A small pool, as an application's DataSource would be: without one each of the service's
   * transactions and each snapshot would start a PostgreSQL backend of its own.
   */
  @Override
  protected DataSource newStore() throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(POSTGRES.newMigratedDatabase());
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(0);
    HikariDataSource pool = new HikariDataSource(config);
    pools.add(pool);
    return pool;
  }

  @Override
  protected void dropStores() throws SQLException {
    pools.forEach(HikariDataSource::close);
    pools.clear();
    POSTGRES.dropDatabases();
  }

  @Override
  protected SQLException transientFailure(int k) {
    return new SQLException("injected serialization failure at statement " + k, "40001");
  }

  @Override
  protected Optional<Supplier<SQLException>> connectionLoss() {
    return Optional.of(
        () ->
            new SQLException(
                "injected: An I/O error occurred while sending to the backend", "08006"));
  }
}
