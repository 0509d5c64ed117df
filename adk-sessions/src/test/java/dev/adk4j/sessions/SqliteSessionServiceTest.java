package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * {@link DatabaseSessionService} on a SQLite file: the session service contract, the database
 * service contract, and what is particular to SQLite (WAL, the file's folder, in-memory URLs).
 */
class SqliteSessionServiceTest extends DatabaseSessionServiceContract {

  private static final AtomicInteger FILES = new AtomicInteger();

  @TempDir Path dir;

  @Override
  protected String newStoreUrl() {
    // A folder that does not exist yet: the service creates it.
    return "jdbc:sqlite:" + dir.resolve("store" + FILES.incrementAndGet()).resolve("sessions.db");
  }

  /** A copy of a file migrated once per test JVM (each test's own folder, created here). */
  @Override
  protected String newMigratedStoreUrl() throws Exception {
    Path file = dir.resolve("store" + FILES.incrementAndGet()).resolve("sessions.db");
    Files.createDirectories(file.getParent());
    Files.copy(migratedTemplate(), file);
    return "jdbc:sqlite:" + file;
  }

  private static Path template;

  /** A SQLite file the service migrated and closed (so its WAL is checkpointed into it). */
  private static synchronized Path migratedTemplate() throws Exception {
    if (template == null) {
      Path file =
          Files.createTempDirectory(Path.of("target"), "sqlite-template").resolve("sessions.db");
      new DatabaseSessionService("jdbc:sqlite:" + file).close();
      if (Files.exists(Path.of(file + "-wal"))) {
        throw new IllegalStateException("the template's WAL was not checkpointed: " + file);
      }
      template = file;
    }
    return template;
  }

  @Override
  protected String jsonParameter() {
    return "?";
  }

  @Override
  protected Optional<String> malformedJson() {
    return Optional.of("{not json");
  }

  @Override
  protected void installFailingTrigger(Connection c, String key) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "CREATE TRIGGER adk_test_fail BEFORE INSERT ON adk_user_state WHEN NEW.state_key = '"
                + key.replace("'", "''")
                + "' BEGIN SELECT RAISE(ABORT, 'injected failure'); END")) {
      ps.execute();
    }
  }

  @Override
  protected void bulkInsertEvents(Connection c, long pk, int n) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
                + " INSERT INTO adk_events (session_pk, seq, event_id, event_time, event)"
                + " SELECT ?, i, 'e' || i, i,"
                + " '{\"id\":\"e' || i || '\",\"author\":\"bulk\",\"timestamp\":' || i || '}'"
                + " FROM n")) {
      ps.setInt(1, n);
      ps.setLong(2, pk);
      ps.executeUpdate();
    }
  }

  @Override
  protected void assertReadsLast20ThroughTheIndex(List<String> plan) {
    // One search of the primary key index in order, no sort step: SQLite stops after LIMIT rows.
    assertThat(plan).hasSize(1);
    assertThat(plan.get(0)).startsWith("SEARCH adk_events USING").contains("session_pk=?");
    assertThat(String.join("\n", plan)).doesNotContain("TEMP B-TREE");
  }

  @Override
  protected boolean plansIgnoreTableSizes() {
    return true;
  }

  @Override
  protected void bulkInsertSessions(Connection c, String user, int from, int to)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
                + " INSERT INTO adk_sessions"
                + " (app_name, user_id, session_id, revision, update_seconds, update_nanos)"
                + " SELECT ?, ?, printf('b%06d', i), 0, i, 0 FROM n")) {
      ps.setInt(1, from);
      ps.setInt(2, to);
      ps.setString(3, APP);
      ps.setString(4, user);
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO adk_session_state (session_pk, state_key, state_value)"
                + " SELECT pk, 'n', CAST(update_seconds AS TEXT) FROM adk_sessions"
                + " WHERE app_name = ? AND user_id = ? AND update_seconds BETWEEN ? AND ?")) {
      ps.setString(1, APP);
      ps.setString(2, user);
      ps.setInt(3, from);
      ps.setInt(4, to);
      ps.executeUpdate();
    }
  }

  @Override
  protected void assertReadsSessionPageThroughTheIndex(List<String> plan, int rows) {
    // One search of the index from the token's update time, in its order: no sort step, so SQLite
    // stops after LIMIT rows.
    assertThat(plan).hasSize(1);
    assertThat(plan.get(0))
        .startsWith(
            "SEARCH adk_sessions USING INDEX adk_sessions_by_update"
                + " (app_name=? AND user_id=? AND update_seconds");
    assertThat(String.join("\n", plan)).doesNotContain("TEMP B-TREE");
  }

  @Override
  protected void assertReadsThroughAnIndex(List<String> plan, String table) {
    assertThat(plan).anySatisfy(line -> assertThat(line).startsWith("SEARCH " + table + " USING"));
    assertThat(plan).noneSatisfy(line -> assertThat(line).startsWith("SCAN " + table));
  }

  @Override
  protected void assertReadsEventsFromSeqThroughTheKey(List<String> plan, int rows) {
    assertThat(plan).hasSize(1);
    assertThat(plan.get(0))
        .startsWith("SEARCH adk_events USING")
        .contains("(session_pk=? AND seq>?)")
        .doesNotContain("event_time");
    assertThat(String.join("\n", plan)).doesNotContain("TEMP B-TREE");
  }

  @Test
  void file_usesWalJournal_inAFolderCreatedForIt() throws Exception {
    assertThat(Files.isRegularFile(Path.of(url.substring("jdbc:sqlite:".length())))).isTrue();
    try (Connection c = raw();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualToIgnoringCase("wal");
    }
  }

  @Test
  void inMemoryUrl_isRefused() {
    for (String memory :
        List.of("jdbc:sqlite::memory:", "jdbc:sqlite:", "jdbc:sqlite:file:x?mode=memory")) {
      assertThatThrownBy(() -> new DatabaseSessionService(memory))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("In-memory");
    }
  }

  @Test
  void dataSource_isUsedAsGiven_andLeftOpenOnClose() throws Exception {
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl(url);
    create("alice", "s1", java.util.Map.of("k", 1));
    try (DatabaseSessionService viaDataSource =
        new DatabaseSessionService(dataSource, DatabaseSessionConfig.defaults())) {
      assertThat(viaDataSource.databaseProduct()).isEqualTo("SQLite");
      Session s = viaDataSource.getSession(APP, "alice", "s1").blockingGet();
      viaDataSource.appendEvent(s, event(java.util.Map.of("k", 2))).blockingGet();
      viaDataSource.deleteSession(APP, "alice", "s1").blockingAwait();
    }
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM adk_events")) {
      rs.next();
      assertThat(rs.getInt(1)).isZero();
    }
  }

  // ---- start: the file itself ----

  private Path file() {
    return Path.of(url.substring("jdbc:sqlite:".length()));
  }

  /**
   * Makes {@code path} unwritable for this process until the returned handle is closed: by its
   * permissions, or where they do not bind (root) by the immutable attribute; skips the test where
   * neither works.
   */
  private static AutoCloseable unwritable(Path path) throws Exception {
    Set<PosixFilePermission> before = Files.getPosixFilePermissions(path);
    Set<PosixFilePermission> readOnly = new java.util.HashSet<>(before);
    readOnly.removeAll(
        Set.of(
            PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.OTHERS_WRITE));
    Files.setPosixFilePermissions(path, readOnly);
    if (!Files.isWritable(path)) {
      return () -> Files.setPosixFilePermissions(path, before);
    }
    Files.setPosixFilePermissions(path, before);
    boolean immutable = chattr("+i", path) && !Files.isWritable(path);
    assumeTrue(immutable, path + " can be made unwritable here (chmod, chattr)");
    return () -> chattr("-i", path);
  }

  private static boolean chattr(String flag, Path path) throws Exception {
    try {
      Process p =
          new ProcessBuilder("chattr", flag, path.toString()).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (java.io.IOException e) {
      return false; // no chattr
    }
  }

  @Test
  void readOnlyFile_isRefusedAtStart_namingThePath() throws Exception {
    create("alice", "s1", java.util.Map.of("k", 1));
    ((DatabaseSessionService) service).close();
    String path = file().toString();

    // Opened read-only on purpose: through the URL, and through a DataSource.
    assertThatThrownBy(() -> new DatabaseSessionService(url + "?open_mode=1").close())
        .isInstanceOf(SessionException.class)
        .hasMessageContaining(path)
        .hasMessageContaining("read-only");
    SQLiteConfig readOnlyConfig = new SQLiteConfig();
    readOnlyConfig.setReadOnly(true);
    SQLiteDataSource readOnly = new SQLiteDataSource(readOnlyConfig);
    readOnly.setUrl(url);
    assertThatThrownBy(
            () -> new DatabaseSessionService(readOnly, DatabaseSessionConfig.defaults()).close())
        .isInstanceOf(SessionException.class)
        .hasMessageContaining(path)
        .hasMessageContaining("read-only");

    // A file this process may not write.
    try (AutoCloseable undo = unwritable(file())) {
      assertThatThrownBy(() -> new DatabaseSessionService(url).close())
          .isInstanceOf(SessionException.class)
          .hasMessageContaining(path)
          .hasMessageContaining("read-only")
          .hasMessageContaining("not writable");
    }
    try (DatabaseSessionService writable = open()) {
      assertThat(writable.getSession(APP, "alice", "s1").blockingGet().state())
          .containsEntry("k", 1);
    }
  }

  @Test
  void unwritableFolder_isRefusedAtStart_namingIt() throws Exception {
    create("alice", "s1", java.util.Map.of("k", 1));
    ((DatabaseSessionService) service).close();
    Path folder = file().getParent();
    try (AutoCloseable undo = unwritable(folder)) {
      assertThatThrownBy(() -> new DatabaseSessionService(url).close())
          .isInstanceOf(SessionException.class)
          .hasMessageContaining(file().toString())
          .hasMessageContaining("folder " + folder + " is not writable")
          .hasMessageContaining("-wal");
    }
    try (DatabaseSessionService writable = open()) {
      assertThat(writable.getSession(APP, "alice", "s1").blockingGet().state())
          .containsEntry("k", 1);
    }
  }

  @Test
  void fileThatIsNotADatabase_failsAtOnce_withAShortMessageNamingIt() throws Exception {
    Path garbage = dir.resolve("garbage.db");
    Files.writeString(garbage, "not a database, only text; ".repeat(200));
    assertFailsAtOnce("jdbc:sqlite:" + garbage, garbage, "is not a SQLite database");

    SQLiteDataSource viaDataSource = new SQLiteDataSource();
    viaDataSource.setUrl("jdbc:sqlite:" + garbage);
    assertThatThrownBy(
            () ->
                new DatabaseSessionService(viaDataSource, DatabaseSessionConfig.defaults()).close())
        .isInstanceOf(SessionException.class)
        .hasMessageContaining(garbage.toString())
        .hasMessageContaining("is not a SQLite database")
        // at once: no earlier attempt (a retried start carries its failed attempts as suppressed)
        .satisfies(t -> assertThat(t.getSuppressed()).isEmpty());
  }

  @Test
  void corruptDatabaseFile_failsAtOnce_withAShortMessageNamingIt() throws Exception {
    create("alice", "s1", java.util.Map.of("k", 1));
    ((DatabaseSessionService) service).close();
    // Keep SQLite's 100-byte header, overwrite the rest: the schema page is garbage.
    byte[] bytes = Files.readAllBytes(file());
    java.util.Arrays.fill(bytes, 100, bytes.length, (byte) 0x5A);
    Files.write(file(), bytes);
    assertFailsAtOnce(url, file(), "is corrupt");
  }

  @Test
  void corruptSchemaHistory_failsTheMigrationAtOnce_withAShortMessageNamingTheFile()
      throws Exception {
    create("alice", "s1", java.util.Map.of("k", 1));
    int pageSize;
    int historyPage;
    try (Connection c = raw();
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("PRAGMA page_size")) {
        rs.next();
        pageSize = rs.getInt(1);
      }
      try (ResultSet rs =
          s.executeQuery("SELECT rootpage FROM sqlite_master WHERE name = 'adk_schema_history'")) {
        assertThat(rs.next()).isTrue();
        historyPage = rs.getInt(1);
      }
    }
    ((DatabaseSessionService) service).close();
    // The file opens and its schema table reads; only the migration history is garbage, so the
    // failure comes from the migration, which used to retry it 9 times as a start-up race.
    byte[] bytes = Files.readAllBytes(file());
    int from = (historyPage - 1) * pageSize;
    java.util.Arrays.fill(bytes, from, from + pageSize, (byte) 0x5A);
    Files.write(file(), bytes);
    assertFailsAtOnce(url, file(), "is corrupt");
  }

  private static void assertFailsAtOnce(String storeUrl, Path path, String what) {
    long start = System.nanoTime();
    Throwable thrown = null;
    try {
      new DatabaseSessionService(storeUrl).close();
    } catch (Throwable t) {
      thrown = t;
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    System.out.println(
        "[figures] " + path.getFileName() + ": start failed after " + millis + " ms");
    assertThat(thrown)
        .isInstanceOf(SessionException.class)
        .hasMessageContaining(path.toString())
        .hasMessageContaining(what)
        .hasMessageNotContaining("-----");
    assertThat(thrown.getMessage().length()).as(thrown.getMessage()).isLessThan(400);
    // At once, not retried as a start-up race: a retried start carries its earlier attempts as
    // suppressed exceptions and counts them in its message.
    assertThat(thrown.getSuppressed()).as("earlier attempts").isEmpty();
    assertThat(thrown.getMessage()).doesNotContain("attempts)");
  }
}
