package dev.adk4j.runner;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.SessionLimits;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One session service per backend for a whole test class (the tests of {@link BadInputMatrixTest},
 * {@link IsolationTest} and {@link ModelFaultsTest} each work in apps, users or sessions of their
 * own, so they share it): in memory, SQLite in a temporary file, and PostgreSQL in a fresh database
 * of the shared embedded server. All apply the same {@link SessionLimits}.
 */
final class TestBackends implements AutoCloseable {

  enum Backend {
    MEMORY,
    SQLITE,
    POSTGRES
  }

  private final Map<Backend, BaseSessionService> services = new EnumMap<>(Backend.class);
  private final List<AutoCloseable> opened = new ArrayList<>();
  private final SharedEmbeddedPostgres postgres;

  /**
   * Opens the three services.
   *
   * @param dir where the SQLite file goes
   */
  TestBackends(SharedEmbeddedPostgres postgres, Path dir, SessionLimits limits) throws Exception {
    this.postgres = postgres;
    DatabaseSessionConfig config =
        DatabaseSessionConfig.builder()
            .maxValueBytes(limits.maxValueBytes())
            .maxEventBytes(limits.maxEventBytes())
            .build();
    services.put(Backend.MEMORY, new InMemorySessionService(limits));
    DatabaseSessionService sqlite =
        new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("sessions.db"), config);
    opened.add(sqlite);
    services.put(Backend.SQLITE, sqlite);
    DatabaseSessionService pg = new DatabaseSessionService(postgres.newMigratedDatabase(), config);
    opened.add(pg);
    services.put(Backend.POSTGRES, pg);
  }

  BaseSessionService get(Backend backend) {
    return services.get(backend);
  }

  @Override
  public void close() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
    postgres.dropDatabases();
  }
}
