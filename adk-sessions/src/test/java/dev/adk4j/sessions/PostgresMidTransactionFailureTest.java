package dev.adk4j.sessions;

import java.sql.SQLException;
import java.util.Optional;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@link MidTransactionFailureContract} on PostgreSQL, where a connection can also be lost: before
 * the commit the work is done again on a new connection, during it the failure says the outcome is
 * unknown.
 */
class PostgresMidTransactionFailureTest extends MidTransactionFailureContract {

  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  @Override
  protected DataSource newStore() throws SQLException {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(POSTGRES.newMigratedDatabase());
    return dataSource;
  }

  @Override
  protected void dropStores() throws SQLException {
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
