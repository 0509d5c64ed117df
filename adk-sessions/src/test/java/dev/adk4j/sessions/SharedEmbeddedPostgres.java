package dev.adk4j.sessions;

import java.sql.SQLException;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Opens the package-private {@link EmbeddedPostgresExtension} to the tests of other modules
 * (through this module's test-jar): one embedded PostgreSQL server for the whole test run of a
 * module, a fresh database per call of {@link #newDatabase()} or {@link #newMigratedDatabase()}.
 */
public final class SharedEmbeddedPostgres implements BeforeAllCallback {
  private final EmbeddedPostgresExtension delegate = new EmbeddedPostgresExtension();

  @Override
  public void beforeAll(ExtensionContext context) {
    delegate.beforeAll(context);
  }

  /** Creates an empty database and returns its JDBC URL (user and password included). */
  public String newDatabase() throws SQLException {
    return delegate.newDatabase();
  }

  /**
   * Creates a database already holding the session schema (a copy of a template migrated once per
   * test JVM, which spares the migrations) and returns its JDBC URL.
   */
  public String newMigratedDatabase() throws SQLException {
    return delegate.newMigratedDatabase();
  }

  /** Drops the databases made by {@link #newDatabase()} so far. */
  public void dropDatabases() throws SQLException {
    delegate.dropDatabases();
  }
}
