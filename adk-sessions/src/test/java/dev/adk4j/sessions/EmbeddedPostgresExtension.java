package dev.adk4j.sessions;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One embedded PostgreSQL server (zonky binaries from Maven Central, nothing installed) shared by
 * every test class of the run that registers this extension, stopped when the run ends; each test
 * gets a fresh database from {@link #newDatabase()}, or, already migrated to the session schema,
 * from {@link #newMigratedDatabase()}: a copy of a template database migrated once per run, which
 * spares each test the migrations (about a third of a second each).
 *
 * <p>The server runs with {@code fsync=off}: tests kill client JVMs, never the server, so flushing
 * to disk would only slow them down.
 */
public final class EmbeddedPostgresExtension implements BeforeAllCallback {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(EmbeddedPostgresExtension.class);
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private volatile Server server;

  @Override
  public void beforeAll(ExtensionContext context) {
    server =
        context
            .getRoot()
            .getStore(NAMESPACE)
            .computeIfAbsent(Server.class, k -> Server.start(), Server.class);
  }

  /** Creates an empty database and returns its JDBC URL (user and password included). */
  public String newDatabase() throws SQLException {
    String name = "adk_test_" + DATABASES.incrementAndGet();
    try (Connection c = server.postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    server.databases.add(name);
    return server.postgres.getJdbcUrl("postgres", name);
  }

  /**
   * Creates a database holding the session schema as {@link DatabaseSessionService} migrates it (a
   * copy of a template migrated once per run) and returns its JDBC URL.
   */
  public String newMigratedDatabase() throws SQLException {
    String template = server.migratedTemplate();
    String name = "adk_test_" + DATABASES.incrementAndGet();
    try (Connection c = server.postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name + " TEMPLATE " + template + " STRATEGY FILE_COPY");
    }
    server.databases.add(name);
    return server.postgres.getJdbcUrl("postgres", name);
  }

  /** The server's port on localhost. */
  int port() {
    return server.postgres.getPort();
  }

  /** {@code url} (one of {@link #newDatabase()}) with its port replaced, e.g. by a proxy's. */
  String withPort(String url, int port) {
    String server = "//localhost:" + port() + "/";
    if (!url.contains(server)) {
      throw new IllegalArgumentException("Not a URL of this server: " + url);
    }
    return url.replace(server, "//localhost:" + port + "/");
  }

  /** Drops the databases made by {@link #newDatabase()} so far. */
  public void dropDatabases() throws SQLException {
    List<String> names;
    synchronized (server.databases) {
      names = new ArrayList<>(server.databases);
      server.databases.clear();
    }
    try (Connection c = server.postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      for (String name : names) {
        s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      }
    }
  }

  /** The server, closed by JUnit at the end of the run. */
  static final class Server implements AutoCloseable {
    final EmbeddedPostgres postgres;
    final List<String> databases = java.util.Collections.synchronizedList(new ArrayList<>());
    private boolean migrated;

    private Server(EmbeddedPostgres postgres) {
      this.postgres = postgres;
    }

    static Server start() {
      try {
        return new Server(
            EmbeddedPostgres.builder()
                .setServerConfig("fsync", "off")
                .setServerConfig("full_page_writes", "off")
                .setServerConfig("max_connections", "200")
                .start());
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot start embedded PostgreSQL", e);
      }
    }

    /**
     * The template database, migrated by a service that is closed before any copy is made (a
     * template must have no connection while it is copied).
     */
    synchronized String migratedTemplate() throws SQLException {
      String name = "adk_template_migrated";
      if (!migrated) {
        try (Connection c = postgres.getPostgresDatabase().getConnection();
            Statement s = c.createStatement()) {
          s.execute("CREATE DATABASE " + name);
        }
        new DatabaseSessionService(
                postgres.getJdbcUrl("postgres", name),
                DatabaseSessionConfig.builder().minimumIdle(0).build())
            .close();
        migrated = true;
      }
      return name;
    }

    @Override
    public void close() throws IOException {
      postgres.close();
    }
  }
}
