package dev.adk4j.internal.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The libraries the database services ({@code DatabaseSessionService}, {@code
 * DatabaseMemoryService}) need, checked before they touch any of them. They are optional
 * dependencies of adk-sessions, so that a user of the in-memory services gets none of them; {@code
 * dev.adk4j:adk-sessions-jdbc} brings HikariCP, Flyway (with its PostgreSQL support) and the SQLite
 * driver, and the PostgreSQL driver is added on its own. Without this check a missing jar would
 * surface as a {@link NoClassDefFoundError} from deep inside the store.
 *
 * <p>Not API: public only for the services' packages.
 */
public final class JdbcDependencies {

  /** The artifact that brings the libraries. */
  static final String STARTER = "dev.adk4j:adk-sessions-jdbc";

  /** The PostgreSQL driver, which the starter leaves out. */
  static final String POSTGRESQL_DRIVER = "org.postgresql:postgresql";

  private JdbcDependencies() {}

  /**
   * Checks that the classes a service on {@code jdbcUrl} needs can be loaded.
   *
   * @param service the service's class name, for the message
   * @param jdbcUrl the service's URL, or null for a service on a caller's {@code DataSource} (which
   *     brings its own driver)
   * @throws IllegalStateException naming the missing libraries and the dependency to add
   */
  public static void check(String service, @Nullable String jdbcUrl) {
    String url = jdbcUrl == null ? "" : jdbcUrl.toLowerCase(Locale.ROOT);
    boolean postgres = url.startsWith("jdbc:postgresql:");
    List<String> missing = new ArrayList<>();
    requirePresent("com.zaxxer.hikari.HikariDataSource", "HikariCP (com.zaxxer:HikariCP)", missing);
    requirePresent("org.flywaydb.core.Flyway", "Flyway (org.flywaydb:flyway-core)", missing);
    if (url.startsWith("jdbc:sqlite:")) {
      requirePresent("org.sqlite.JDBC", "the SQLite JDBC driver (org.xerial:sqlite-jdbc)", missing);
    }
    if (postgres) {
      requirePresent(
          "org.flywaydb.database.postgresql.PostgreSQLDatabaseType",
          "Flyway's PostgreSQL support (org.flywaydb:flyway-database-postgresql)",
          missing);
    }
    boolean driverMissing = postgres && !present("org.postgresql.Driver");
    if (missing.isEmpty() && !driverMissing) {
      return;
    }
    StringBuilder message = new StringBuilder(service + " cannot start: ");
    if (!missing.isEmpty()) {
      message
          .append(String.join(", ", missing))
          .append(missing.size() == 1 ? " is" : " are")
          .append(" not on the classpath. Add the dependency ")
          .append(STARTER)
          .append(" (HikariCP, Flyway and the SQLite driver)");
      if (driverMissing) {
        message.append(" and, for PostgreSQL, ").append(POSTGRESQL_DRIVER);
      }
    } else {
      message
          .append("the PostgreSQL JDBC driver (org.postgresql.Driver) is not on the classpath. Add")
          .append(" the dependency ")
          .append(POSTGRESQL_DRIVER);
    }
    message.append(" (versions in dev.adk4j:adk4j-bom).");
    throw new IllegalStateException(message.toString());
  }

  private static void requirePresent(String className, String library, List<String> missing) {
    if (!present(className)) {
      missing.add(library);
    }
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, JdbcDependencies.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
