package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
}
