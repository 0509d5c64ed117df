package dev.adk4j.internal.jdbc;

import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.SessionException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.jspecify.annotations.Nullable;

/**
 * The store's schema at start: migrated (or only validated) with Flyway from one folder of
 * migrations per dialect, history in {@value #HISTORY_TABLE}, then checked table by table and
 * column by column ({@link StartupChecks}), so that a store that cannot work fails its start naming
 * what is wrong.
 */
final class Schema {

  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Schema.class);

  static final String HISTORY_TABLE = "adk_schema_history";

  /**
   * The versions of the migrations this release ships, oldest first: the same in every dialect's
   * folder ({@code SchemaVersionsTest} holds this list to the files). A store whose history records
   * each of them as applied, and nothing newer, is up to date: its start skips Flyway (which reads
   * every migration script and the history to find nothing to do, about 100 ms on PostgreSQL) and
   * only checks the tables and columns.
   */
  static final List<String> VERSIONS =
      List.of("1", "2", "3", "4", "5.1", "10", "11", "12", "13", "14", "15");

  /** Attempts to migrate, 100 ms apart, then 200 ms, ...: about 3.6 s in all. */
  private static final int MIGRATION_ATTEMPTS = 9;

  private Schema() {}

  /**
   * Brings the store to a state where every operation can work, or fails naming what is wrong:
   * migrates (or validates) the schema, then checks that the tables and columns the store uses
   * exist, whatever the migration history says. Only then is the store reported ready.
   *
   * @param where the store, for messages (a redacted URL, or "the DataSource ...")
   * @throws SessionException if the schema cannot be migrated, validated or checked
   */
  static void start(Transactions tx, DatabaseSessionConfig config, String where) {
    Dialect dialect = tx.dialect();
    if (!config.allowAdkPythonTables()) {
      refuseAdkPythonTables(tx, where);
    }
    int applied =
        upToDate(tx, where) ? 0 : migrate(tx.dataSource(), dialect, config, tx.writeLock(), where);
    try (Connection c = tx.dataSource().getConnection()) {
      tx.prepare(c);
      StartupChecks.checkSchema(c, dialect, where, HISTORY_TABLE);
    } catch (SQLException e) {
      throw new SessionException(
          "Cannot check the session schema of " + where + ": " + e.getMessage(), e);
    }
    log.info(
        "Session store on {} ({}) ready; {}",
        where,
        dialect.productName(),
        config.migrate() ? applied + " schema migration(s) applied" : "schema validated");
  }

  /**
   * Refuses a database that holds ADK for Python's session tables: adk4j would add its own beside
   * them, report ready and list none of those sessions.
   *
   * @throws SessionException saying what was found and what to do
   */
  private static void refuseAdkPythonTables(Transactions tx, String where) {
    AdkPythonTables.Found found;
    try (Connection c = tx.dataSource().getConnection()) {
      found = AdkPythonTables.find(c);
    } catch (SQLException e) {
      throw new SessionException(
          "Cannot look for ADK for Python's tables in " + where + ": " + e.getMessage(), e);
    }
    if (found != null) {
      throw new SessionException(
          where
              + " holds "
              + found.describe()
              + ". adk4j keeps sessions in tables of its own (adk_*) and would not see those."
              + " Copy them into an adk4j database with AdkPythonImporter.copy(source, target)"
              + " (or the server's command: java dev.adk4j.server.AdkPythonImport --from <this"
              + " database's JDBC URL> --to <another JDBC URL>), then use that database; or, to"
              + " keep both side by side, build the service with"
              + " DatabaseSessionConfig.builder().allowAdkPythonTables(true).");
    }
  }

  /**
   * Whether the store's history records every migration of {@link #VERSIONS} as applied, none
   * failed and none newer (which Flyway would refuse, saying so). Any doubt, including a store with
   * no history table yet, answers false and leaves the decision to Flyway.
   */
  private static boolean upToDate(Transactions tx, String where) {
    try (Connection c = tx.dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT version, success FROM " + HISTORY_TABLE)) {
      java.util.Set<String> applied = new java.util.HashSet<>();
      while (rs.next()) {
        String version = rs.getString(1);
        if (!rs.getBoolean(2)) {
          return false;
        }
        if (version != null && !version.equals("0")) {
          applied.add(version);
        }
      }
      return applied.equals(new java.util.HashSet<>(VERSIONS));
    } catch (SQLException e) {
      log.debug("Schema history of {} not read ({}); Flyway decides", where, e.getMessage());
      return false;
    }
  }

  /**
   * Migrates (or only validates) the schema with Flyway. A failure that may come from another
   * instance creating the schema at the same moment is retried; any other fails at once. The
   * exception thrown carries the failures of earlier attempts as suppressed exceptions.
   *
   * @return the number of migrations applied
   */
  private static int migrate(
      DataSource dataSource,
      Dialect dialect,
      DatabaseSessionConfig config,
      ReentrantLock writeLock,
      String where) {
    Flyway flyway =
        Flyway.configure(Schema.class.getClassLoader())
            .dataSource(new Untimed(dataSource, dialect, config))
            .locations(dialect.migrations())
            .table(HISTORY_TABLE)
            .failOnMissingLocations(true)
            // Log through SLF4J like the rest of adk4j, never through java.util.logging (Flyway's
            // fallback when no SLF4J provider is bound), and keep the results of the migrations'
            // check queries out of the log.
            .loggers("slf4j")
            .outputQueryResults(false)
            // A database that already holds other tables (an application's) is fine: start the
            // history below our first version so that every migration still runs.
            .baselineOnMigrate(true)
            .baselineVersion("0")
            .load();
    List<Throwable> failedAttempts = new ArrayList<>();
    for (int attempt = 1; ; attempt++) {
      // Instances of this JVM starting on one SQLite file take turns.
      boolean serialize = dialect.singleWriter();
      if (serialize) {
        writeLock.lock();
      }
      try {
        if (config.migrate()) {
          return flyway.migrate().migrationsExecuted;
        }
        flyway.validate();
        return 0;
      } catch (FlywayException e) {
        SQLException sql = sqlCause(e);
        // Instances starting together on a new database race: on SQLite there is no lock Flyway
        // could take, and on PostgreSQL one that finds the other's fresh, still empty history
        // table refuses to baseline it. The loser finds the winner's schema on a later attempt.
        // A corrupt, read-only or unreachable database fails the same way every time: at once.
        if (config.migrate()
            && attempt < MIGRATION_ATTEMPTS
            && !(e instanceof FlywayValidateException)
            && dialect.mayBeMigrationRace(sql)) {
          log.debug("Schema migration of {} raced another instance; retrying", where);
          failedAttempts.add(e);
          Transactions.sleep(
              100L * attempt, "migrate the session schema of " + where, failedAttempts);
          continue;
        }
        if (dialect == Dialect.SQLITE && sql != null) {
          int code = Dialect.sqliteCode(sql);
          if (code == 8 || code == 11 || code == 14 || code == 26) {
            Path file = SqliteFiles.fileOrNull(where);
            throw Transactions.withEarlier(
                StartupChecks.sqliteFileFailure(sql, file != null ? file.toString() : where, file),
                failedAttempts);
          }
        }
        throw Transactions.withEarlier(
            new SessionException(
                "Cannot "
                    + (config.migrate() ? "migrate" : "validate")
                    + " the session schema of "
                    + where
                    + (attempt > 1 ? " (" + attempt + " attempts)" : "")
                    + ": "
                    + conciseMessage(e, sql),
                e),
            failedAttempts);
      } finally {
        if (serialize) {
          writeLock.unlock();
        }
      }
    }
  }

  /** The first SQL failure among the causes of {@code e}, if any. */
  private static @Nullable SQLException sqlCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s) {
        return s;
      }
      if (t == t.getCause()) {
        break;
      }
    }
    return null;
  }

  /**
   * Flyway's message without the report it formats under a line of dashes (SQL state, error code,
   * message again): its first line, then the SQL failure's own message.
   */
  private static String conciseMessage(FlywayException e, @Nullable SQLException sql) {
    String message = String.valueOf(e.getMessage()).strip();
    int banner = message.indexOf("\n-");
    String head = (banner < 0 ? message : message.substring(0, banner)).strip();
    if (sql == null || banner < 0 || head.contains(String.valueOf(sql.getMessage()))) {
      return head;
    }
    return head + ": " + sql.getMessage();
  }

  /**
   * The DataSource Flyway migrates through: its connections have neither the socket nor the
   * statement timeout, since a migration may rightly take long (a large store's first start on a
   * new schema version, or waiting for another instance's migration), and get them back when
   * closed. Only PostgreSQL has them.
   */
  private static final class Untimed extends DelegatingDataSource {
    private final Dialect dialect;
    private final DatabaseSessionConfig config;

    Untimed(DataSource delegate, Dialect dialect, DatabaseSessionConfig config) {
      super(delegate);
      this.dialect = dialect;
      this.config = config;
    }

    @Override
    public Connection getConnection() throws SQLException {
      return untimed(super.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
      return untimed(super.getConnection(username, password));
    }

    private Connection untimed(Connection c) throws SQLException {
      if (dialect != Dialect.POSTGRESQL) {
        return c;
      }
      boolean socket = !config.socketTimeout().isZero();
      boolean statement = !config.statementTimeout().isZero();
      try {
        if (socket) {
          c.setNetworkTimeout(Runnable::run, 0);
        }
        if (statement) {
          Transactions.execute(c, Transactions.setStatementTimeout(0));
        }
      } catch (SQLException | RuntimeException e) {
        c.close();
        throw e;
      }
      return (Connection)
          java.lang.reflect.Proxy.newProxyInstance(
              Schema.class.getClassLoader(),
              new Class<?>[] {Connection.class},
              (proxy, method, args) -> {
                if (method.getName().equals("close") && method.getParameterCount() == 0) {
                  try {
                    if (statement && !c.isClosed()) {
                      Transactions.execute(
                          c,
                          Transactions.setStatementTimeout(config.statementTimeout().toMillis()));
                    }
                    if (socket && !c.isClosed()) {
                      c.setNetworkTimeout(Runnable::run, (int) config.socketTimeout().toMillis());
                    }
                  } catch (SQLException e) {
                    log.debug("Cannot restore the timeouts of a connection: {}", e.getMessage());
                  }
                }
                try {
                  return method.invoke(c, args);
                } catch (java.lang.reflect.InvocationTargetException e) {
                  throw e.getCause();
                }
              });
    }
  }
}
