package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@link DatabaseSessionService} on PostgreSQL (embedded binaries, one server for the run, a fresh
 * database per test): the session service contract, the database service contract, and what is
 * particular to PostgreSQL (JSONB, NUL characters, credentials, a DataSource).
 */
class PostgresSessionServiceTest extends DatabaseSessionServiceContract {

  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  @Override
  protected String newStoreUrl() throws SQLException {
    return POSTGRES.newDatabase();
  }

  @Override
  protected String newMigratedStoreUrl() throws SQLException {
    return POSTGRES.newMigratedDatabase();
  }

  @Override
  protected void closeService(BaseSessionService service) throws Exception {
    super.closeService(service);
    POSTGRES.dropDatabases();
  }

  @Override
  protected String jsonParameter() {
    return "CAST(? AS jsonb)";
  }

  @Override
  protected Optional<String> malformedJson() {
    return Optional
        .empty(); // JSONB refuses it: only well-formed JSON of the wrong shape is possible
  }

  @Override
  protected void installFailingTrigger(Connection c, String key) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(
          "CREATE FUNCTION adk_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
              + " IF NEW.state_key = '"
              + key.replace("'", "''")
              + "' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$");
      s.execute(
          "CREATE TRIGGER adk_test_fail BEFORE INSERT ON adk_user_state"
              + " FOR EACH ROW EXECUTE FUNCTION adk_test_fail()");
    }
  }

  @Override
  protected void bulkInsertEvents(Connection c, long pk, int n) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO adk_events (session_pk, seq, event_id, event_time, event)"
                + " SELECT ?, i, 'e' || i, i,"
                + " jsonb_build_object('id', 'e' || i, 'author', 'bulk', 'timestamp', i)"
                + " FROM generate_series(1, ?) AS i")) {
      ps.setLong(1, pk);
      ps.setInt(2, n);
      ps.executeUpdate();
    }
    try (Statement s = c.createStatement()) {
      s.execute("ANALYZE adk_events");
    }
  }

  @Override
  protected void assertReadsLast20ThroughTheIndex(List<String> plan) {
    String text = String.join("\n", plan);
    // A backward scan of the primary key under the LIMIT that produced exactly 20 rows.
    assertThat(text).contains("Limit").contains("Index Scan Backward using adk_events_pkey");
    assertThat(text).doesNotContain("Sort").doesNotContain("Seq Scan");
    String scan =
        plan.stream().filter(l -> l.contains("Index Scan Backward")).findFirst().orElseThrow();
    assertThat(scan).containsPattern("actual rows=20(\\.00)? ");
  }

  @Override
  protected void bulkInsertSessions(Connection c, String user, int from, int to)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO adk_sessions"
                + " (app_name, user_id, session_id, revision, update_seconds, update_nanos)"
                + " SELECT ?, ?, 'b' || lpad(i::text, 6, '0'), 0, i, 0"
                + " FROM generate_series(?, ?) AS i")) {
      ps.setString(1, APP);
      ps.setString(2, user);
      ps.setInt(3, from);
      ps.setInt(4, to);
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO adk_session_state (session_pk, state_key, state_value)"
                + " SELECT pk, 'n', to_jsonb(update_seconds) FROM adk_sessions"
                + " WHERE app_name = ? AND user_id = ? AND update_seconds BETWEEN ? AND ?")) {
      ps.setString(1, APP);
      ps.setString(2, user);
      ps.setInt(3, from);
      ps.setInt(4, to);
      ps.executeUpdate();
    }
    try (Statement s = c.createStatement()) {
      s.execute("ANALYZE");
    }
  }

  @Override
  protected void assertReadsSessionPageThroughTheIndex(List<String> plan, int rows) {
    String text = String.join("\n", plan);
    // A scan of the index in its order, started at the token's update time (an index condition,
    // not a filter), under the LIMIT: it produced exactly the page's rows.
    assertThat(text).contains("Limit").contains("Index Scan using adk_sessions_by_update");
    assertThat(text).doesNotContain("Sort").doesNotContain("Seq Scan");
    assertThat(text).containsPattern("Index Cond: .*update_seconds <=");
    String scan =
        plan.stream().filter(l -> l.contains("adk_sessions_by_update")).findFirst().orElseThrow();
    assertThat(scan).containsPattern("actual rows=" + rows + "(\\.00)? ");
  }

  @Override
  protected void assertReadsThroughAnIndex(List<String> plan, String table) {
    String text = String.join("\n", plan);
    assertThat(text).doesNotContain("Seq Scan on " + table + " ");
    assertThat(plan).anySatisfy(line -> assertThat(line).contains("Index").contains(table + "_"));
  }

  @Override
  protected void assertReadsEventsFromSeqThroughTheKey(List<String> plan, int rows) {
    String text = String.join("\n", plan);
    assertThat(text).contains("Index Scan using adk_events_pkey");
    assertThat(text).containsPattern("Index Cond: .*seq >");
    assertThat(text).doesNotContain("Seq Scan").doesNotContain("Bitmap");
    String scan =
        plan.stream().filter(l -> l.contains("adk_events_pkey")).findFirst().orElseThrow();
    assertThat(scan).containsPattern("actual rows=" + rows + "(\\.00)? ");
  }

  @Test
  void jsonValues_areStoredAsJsonb() throws Exception {
    Session s = create("alice", "s1", Map.of("k", Map.of("nested", List.of(1, 2))));
    append(s, Map.of("user:u", 1, "app:a", "x"));
    try (Connection c = raw();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT table_name, column_name FROM information_schema.columns"
                    + " WHERE table_name LIKE 'adk\\_%' AND data_type = 'jsonb'"
                    + " ORDER BY table_name, column_name")) {
      List<String> columns = new ArrayList<>();
      while (rs.next()) {
        columns.add(rs.getString(1) + "." + rs.getString(2));
      }
      assertThat(columns)
          .containsExactly(
              "adk_app_state.state_value",
              "adk_events.event",
              "adk_memories.content",
              "adk_session_state.state_value",
              "adk_user_state.state_value");
    }
    try (Connection c = raw();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT state_value -> 'nested' ->> 1 FROM adk_session_state WHERE state_key = 'k'")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("2");
    }
  }

  @Test
  void nulCharacters_areRefusedAsIllegalArguments_andNothingIsStored() {
    Session s = create("alice", "s1", Map.of());
    assertThatThrownBy(() -> append(s, Map.of("k", "a\u0000b", "user:u", 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'s1'");
    assertThatThrownBy(() -> create("alice", "nul\u0000id", Map.of()))
        .isInstanceOf(IllegalArgumentException.class);
    Session reloaded = get("alice", "s1");
    assertThat(reloaded.events()).isEmpty();
    assertThat(reloaded.state()).isEmpty();
    assertThat(s.revision()).isZero();
  }

  /**
   * Issue 33: PostgreSQL's errors quote the failing statement, its parameters and the rows they
   * would have written; an adk4j exception (and every cause under it) names app, user, session and
   * key, never a value, which may be a secret or personal data.
   */
  @Test
  void databaseErrors_carryNoValues_inTheMessageOrAnyCause() throws Exception {
    String card = "4111-1111-1111-1111";
    Session s = create("alice", "s1", Map.of());
    Throwable nul =
        catchThrowable(() -> append(s, Map.of("k", "card " + card + "\u0000", "user:u", 1)));
    assertThat(nul).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'s1'");
    assertNoValueIn(nul, card);

    try (Connection c = raw()) {
      installFailingTrigger(c, "user:boom");
    }
    Session t = get("alice", "s1");
    Throwable batch = catchThrowable(() -> append(t, Map.of("user:boom", "card " + card)));
    assertThat(batch).isInstanceOf(SessionException.class).hasMessageContaining("'s1'");
    assertNoValueIn(batch, card);
    assertThat(get("alice", "s1").events()).isEmpty();
  }

  private static void assertNoValueIn(Throwable thrown, String value) {
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      assertThat(String.valueOf(t.getMessage()))
          .as("message of %s", t.getClass().getName())
          .doesNotContain(value)
          .hasSizeLessThan(2_000);
      for (Throwable suppressed : t.getSuppressed()) {
        assertThat(String.valueOf(suppressed.getMessage())).doesNotContain(value);
      }
      if (t instanceof SQLException sql && sql.getNextException() != null) {
        assertThat(String.valueOf(sql.getNextException().getMessage())).doesNotContain(value);
      }
    }
  }

  @Test
  void credentialsAndDataSource_constructors() throws Exception {
    create("alice", "s1", Map.of("k", 1));
    String withoutUser = url.replace("?user=postgres", "");
    try (DatabaseSessionService withCredentials =
        new DatabaseSessionService(withoutUser, "postgres", "", DatabaseSessionConfig.defaults())) {
      assertThat(withCredentials.databaseProduct()).isEqualTo("PostgreSQL");
      assertThat(withCredentials.getSession(APP, "alice", "s1").blockingGet().state())
          .containsEntry("k", 1);
    }
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(url);
    try (DatabaseSessionService viaDataSource =
        new DatabaseSessionService(dataSource, DatabaseSessionConfig.defaults())) {
      Session s = viaDataSource.getSession(APP, "alice", "s1").blockingGet();
      viaDataSource.appendEvent(s, event(Map.of("k", 2))).blockingGet();
    }
    try (Connection c = dataSource.getConnection()) {
      assertThat(c.isValid(1)).isTrue();
    }
    assertThat(get("alice", "s1").state()).containsEntry("k", 2);
  }
}
