package dev.adk4j.sessions;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
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
   * copy of a template migrated once per run, or a database an earlier test had and left as the
   * template is, emptied) and returns its JDBC URL.
   */
  public String newMigratedDatabase() throws SQLException {
    String template = server.migratedTemplate();
    String name = server.recycled.poll();
    if (name == null) {
      name = "adk_test_" + DATABASES.incrementAndGet();
      try (Connection c = server.postgres.getPostgresDatabase().getConnection();
          Statement s = c.createStatement()) {
        s.execute("CREATE DATABASE " + name + " TEMPLATE " + template + " STRATEGY FILE_COPY");
      }
    }
    server.copies.add(name);
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

  /**
   * Drops the databases made by {@link #newDatabase()} so far. A database of {@link
   * #newMigratedDatabase()} that nobody is connected to and whose schema is still the template's
   * (no table, column, index, trigger, function, setting or migration added, changed or removed) is
   * emptied instead and handed out again: copying the template and dropping a database cost about a
   * quarter of a second a test, emptying one a few milliseconds. Any doubt drops it.
   */
  public void dropDatabases() throws SQLException {
    List<String> names;
    synchronized (server.databases) {
      names = new ArrayList<>(server.databases);
      server.databases.clear();
    }
    try (Connection c = server.postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      for (String name : names) {
        if (server.copies.remove(name) && server.emptied(name)) {
          server.recycled.add(name);
        } else {
          s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
      }
    }
  }

  /** The server, closed by JUnit at the end of the run. */
  static final class Server implements AutoCloseable {
    final EmbeddedPostgres postgres;
    final List<String> databases = java.util.Collections.synchronizedList(new ArrayList<>());

    /** Databases handed out by {@link #newMigratedDatabase()} and not dropped yet. */
    final java.util.Set<String> copies = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Emptied databases whose schema is the template's, to hand out again. */
    final java.util.Queue<String> recycled = new java.util.concurrent.ConcurrentLinkedQueue<>();

    private boolean migrated;
    private @Nullable String templateSchema;

    private final Path data;

    private Server(EmbeddedPostgres postgres, Path data) {
      this.postgres = postgres;
      this.data = data;
    }

    static Server start() {
      try {
        Path data =
            Files.createTempDirectory(Files.createDirectories(Path.of("target")), "postgres-");
        @Nullable Path template = seed(data);
        try {
          return new Server(
              EmbeddedPostgres.builder()
                  .setDataDirectory(data)
                  .setCleanDataDirectory(false) // deleted by close(), after the server stopped
                  .setServerConfig("fsync", "off")
                  .setServerConfig("full_page_writes", "off")
                  .setServerConfig("max_connections", "200")
                  .start(),
              data);
        } catch (IOException | RuntimeException e) {
          throw new IllegalStateException(
              "Cannot start embedded PostgreSQL in "
                  + data.toAbsolutePath()
                  + (template == null
                      ? ""
                      : " (a copy of "
                          + template
                          + ", made once per machine: delete it if damaged)"),
              e);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot prepare embedded PostgreSQL's data directory", e);
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
        try (Connection c = connect(name)) {
          templateSchema = schemaOf(c);
        }
        migrated = true;
      }
      return name;
    }

    /**
     * Empties database {@code name} if nobody is connected to it and its schema is the template's;
     * false otherwise (it must then be dropped).
     */
    boolean emptied(String name) {
      try (Connection c = connect(name);
          Statement s = c.createStatement()) {
        // What the test left connected (a closed pool's backends still exiting, a service it did
        // not close, a killed child's session) is ended, as DROP DATABASE ... WITH (FORCE) would.
        s.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                + " WHERE datname = current_database() AND pid <> pg_backend_pid()");
        if (!noOtherConnection(s)) {
          return false;
        }
        if (!schemaOf(c).equals(templateSchema)) {
          return false;
        }
        List<String> tables = new ArrayList<>();
        try (ResultSet rs =
            s.executeQuery(
                "SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = 'public'"
                    + " AND tablename <> 'adk_schema_history'")) {
          while (rs.next()) {
            tables.add(rs.getString(1));
          }
        }
        // DELETE and setval, not TRUNCATE ... RESTART IDENTITY: TRUNCATE gives every table, index
        // and sequence a new file and deletes the old ones, and on a file system that has just
        // deleted many files (ext4 without a journal, as on the project's CI machine) each new
        // file costs the kernel a search past the recently deleted inodes: up to 30 ms of CPU a
        // TRUNCATE, against about 2 ms for the DELETEs of these few rows. The foreign keys are not
        // checked while the tables are emptied (session_replication_role), so the order of the
        // DELETEs does not matter.
        c.setAutoCommit(false);
        try {
          s.execute("SET LOCAL session_replication_role = replica");
          for (String table : tables) {
            s.execute("DELETE FROM " + table);
          }
          s.execute(
              "SELECT setval(format('%I.%I', schemaname, sequencename), 1, false)"
                  + " FROM pg_sequences WHERE schemaname = 'public'");
          c.commit();
        } finally {
          c.setAutoCommit(true);
        }
        return true;
      } catch (SQLException e) {
        return false; // e.g. a test dropped the history table: drop the database
      }
    }

    /** Waits up to a second for the other backends of this database to be gone. */
    private static boolean noOtherConnection(Statement s) throws SQLException {
      for (int i = 0; i < 100; i++) {
        try (ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_stat_activity"
                    + " WHERE datname = current_database() AND pid <> pg_backend_pid()")) {
          rs.next();
          if (rs.getLong(1) == 0) {
            return true;
          }
        }
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return false;
    }

    private Connection connect(String name) throws SQLException {
      return java.sql.DriverManager.getConnection(postgres.getJdbcUrl("postgres", name));
    }

    /**
     * What a test could change in a database beyond its rows, as one text: tables and columns,
     * indexes, constraints, triggers, functions, views, schemas, extensions, the database's
     * settings and the migration history.
     */
    private static String schemaOf(Connection c) throws SQLException {
      String user = "NOT IN ('pg_catalog', 'information_schema', 'pg_toast')";
      try (Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT string_agg(x, E'\\n' ORDER BY x) FROM ("
                      // pg_attribute, not the view information_schema.columns: the whole query
                      // took 13.5 ms of the server's time with the view, 8.9 ms without
                      + " SELECT 'column ' || a.attrelid::regclass::text || '.' || a.attname"
                      + " || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull"
                      + " || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '') AS x"
                      + " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
                      + " LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
                      + " WHERE a.attnum > 0 AND NOT a.attisdropped"
                      + " AND c.relkind IN ('r', 'p', 'v', 'm', 'f')"
                      + " AND c.relnamespace::regnamespace::text "
                      + user
                      + " UNION ALL SELECT 'index ' || indexdef FROM pg_indexes"
                      + " WHERE schemaname "
                      + user
                      + " UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' '"
                      + " || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint"
                      + " WHERE connamespace::regnamespace::text "
                      + user
                      + " UNION ALL SELECT 'trigger ' || tgrelid::regclass::text || ' ' || tgname"
                      + " FROM pg_trigger WHERE NOT tgisinternal"
                      + " UNION ALL SELECT 'function ' || p.oid::regprocedure::text FROM pg_proc p"
                      + " JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname "
                      + user
                      + " UNION ALL SELECT 'view ' || schemaname || '.' || viewname FROM pg_views"
                      + " WHERE schemaname "
                      + user
                      + " UNION ALL SELECT 'schema ' || nspname FROM pg_namespace"
                      + " WHERE nspname "
                      + user
                      + " UNION ALL SELECT 'extension ' || extname FROM pg_extension"
                      + " UNION ALL SELECT 'setting ' || array_to_string(setconfig, ',')"
                      + " FROM pg_db_role_setting WHERE setdatabase = (SELECT oid FROM pg_database"
                      + " WHERE datname = current_database())"
                      + " UNION ALL SELECT 'migration ' || version || ' ' || success || ' '"
                      + " || coalesce(checksum::text, '') FROM adk_schema_history) f")) {
        rs.next();
        return String.valueOf(rs.getString(1));
      }
    }

    @Override
    public void close() throws IOException {
      postgres.close();
      deleteTree(data);
    }
  }

  /**
   * Fills {@code data}, an empty data directory, with a copy of a cluster that {@code initdb} made
   * once on this machine, so that the server starts without {@code initdb}: it bootstraps the
   * catalogs in two single-user servers and writes about 1,000 files, 0.6 s of CPU and 1.5 s in all
   * for each server of a run, where copying the files takes about 0.1 s of CPU. The cluster is kept
   * under {@code java.io.tmpdir}, named after the PostgreSQL binaries it was made with, and only
   * ever appears whole (renamed into place). Answers the cluster copied, or null where {@code data}
   * holds a cluster already or the binaries cannot be named (the server then runs {@code initdb} as
   * usual).
   */
  static @Nullable Path seed(Path data) throws IOException {
    Path template = template();
    if (template == null || Files.exists(data.resolve("postgresql.conf"))) {
      return null;
    }
    try (Stream<Path> files = Files.walk(template)) {
      for (Path from : (Iterable<Path>) files::iterator) {
        Path to = data.resolve(template.relativize(from).toString());
        if (Files.isDirectory(from)) {
          Files.createDirectories(to);
        } else if (!from.getFileName().toString().equals("epg-lock")) {
          Files.copy(from, to);
        }
      }
    }
    // PostgreSQL refuses a data directory others can read (initdb makes it so)
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
    return template;
  }

  private static synchronized @Nullable Path template() throws IOException {
    // the archive of the only binaries the build keeps (the root pom), in a jar named by version
    URL binaries = EmbeddedPostgres.class.getClassLoader().getResource("postgres-linux-x86_64.txz");
    if (binaries == null) {
      return null;
    }
    String key =
        UUID.nameUUIDFromBytes(binaries.toString().getBytes(StandardCharsets.UTF_8)).toString();
    Path template = Path.of(System.getProperty("java.io.tmpdir"), "adk4j-postgres-" + key);
    if (Files.exists(template.resolve("postgresql.conf"))) {
      return template;
    }
    Path fresh = Files.createTempDirectory(template.getParent(), template.getFileName() + "-");
    EmbeddedPostgres.builder().setDataDirectory(fresh).setCleanDataDirectory(false).start().close();
    try {
      Files.move(fresh, template, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      deleteTree(fresh); // another JVM's came first
      if (!Files.exists(template.resolve("postgresql.conf"))) {
        throw e;
      }
    }
    return template;
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
