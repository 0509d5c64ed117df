package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link StateHistoryContract} on PostgreSQL (embedded), and its index at work. */
class PostgresStateHistoryTest extends StateHistoryContract {

  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  private String url;

  @Override
  protected BaseSessionService createService() throws Exception {
    if (url == null) {
      url = POSTGRES.newMigratedDatabase();
    }
    return new DatabaseSessionService(url);
  }

  @Override
  protected void closeService(BaseSessionService service) throws Exception {
    super.closeService(service);
  }

  @org.junit.jupiter.api.AfterEach
  void dropDatabases() throws Exception {
    POSTGRES.dropDatabases();
  }

  @Test
  void history_readsThroughTheIndex_notTheSessionsEvents() throws Exception {
    create("alice", "s1");
    create("alice", "s2");
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      // 20,000 events and changes of other keys in the two sessions.
      st.execute(
          "INSERT INTO adk_events (session_pk, seq, event_id, event_time, event)"
              + " SELECT s.pk, 1000 + i, 'bulk' || i, i, jsonb_build_object('id', 'bulk' || i,"
              + " 'timestamp', i, 'actions', jsonb_build_object('stateDelta',"
              + " jsonb_build_object('noise', i))) FROM adk_sessions s,"
              + " generate_series(1, 10000) AS i");
      st.execute(
          "INSERT INTO adk_state_history (session_pk, seq, app_name, user_id, state_key)"
              + " SELECT session_pk, seq, 'app', 'alice', 'noise' FROM adk_events");
      st.execute("ANALYZE");
    }
    append("alice", "s1", Map.of("k", 1, "user:u", 1, "app:a", 1));
    assertThat(history("alice", "s1", "k")).isEqualTo(replay("alice", "s1", "k")).hasSize(1);
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      for (String where :
          List.of(
              "h.session_pk = (SELECT pk FROM adk_sessions WHERE session_id = 's1')"
                  + " AND h.state_key = 'k' ORDER BY h.seq",
              "h.app_name = 'app' AND h.state_key = 'user:u' AND h.user_id = 'alice'"
                  + " ORDER BY h.pk",
              "h.app_name = 'app' AND h.state_key = 'app:a' ORDER BY h.pk")) {
        StringBuilder plan = new StringBuilder();
        try (ResultSet rs =
            st.executeQuery(
                "EXPLAIN SELECT s.user_id, s.session_id, e.seq, e.event"
                    + " FROM adk_state_history h"
                    + " JOIN adk_events e ON e.session_pk = h.session_pk AND e.seq = h.seq"
                    + " JOIN adk_sessions s ON s.pk = h.session_pk WHERE "
                    + where)) {
          while (rs.next()) {
            plan.append(rs.getString(1)).append('\n');
          }
        }
        assertThat(plan.toString())
            .as(where)
            .contains("adk_state_history_by_")
            .doesNotContain("Seq Scan on adk_events")
            .doesNotContain("Seq Scan on adk_state_history");
      }
    }
  }

  @Test
  void eventsStoredBeforeTheIndex_areIndexedByTheMigration() throws Exception {
    randomWorkload(5);
    List<String> before = history("alice", "s1", "user:u");
    closeService(service);
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      st.execute("DROP TABLE adk_state_history");
      st.execute("DROP TABLE adk_eval_sets"); // versions 13 and 14, above them
      st.execute("DROP TABLE adk_eval_results");
      st.execute("DROP TABLE adk_artifacts");
      st.execute("DROP TABLE adk_session_waiters"); // version 15
      st.execute("DELETE FROM adk_schema_history WHERE version IN ('11', '12', '13', '14', '15')");
    }
    service = createService();
    assertThat(history("alice", "s1", "k")).isEqualTo(replay("alice", "s1", "k")).isNotEmpty();
    assertThat(history("alice", "s1", "user:u")).containsExactlyInAnyOrderElementsOf(before);
  }

  /** Version 12 rebuilds the index, so increments stored before it have their history too. */
  @Test
  void incrementsIndexedBeforeVersion12_gainTheirHistoryFromTheMigration() throws Exception {
    create("alice", "s1");
    append("alice", "s1", "agent", Map.of("k", "v"), Map.of("user:n", 1L), 1_000L);
    append("alice", "s1", "agent", Map.of(), Map.of("user:n", 2L), 2_000L);
    List<String> expected = replay("alice", "s1", "user:n");
    assertThat(expected).hasSize(2);
    closeService(service);
    // What a store written before version 12 holds: no rows for keys only incremented.
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      st.execute("DELETE FROM adk_state_history WHERE state_key = 'user:n'");
      st.execute("DROP TABLE adk_eval_sets"); // versions 13 and 14, above it
      st.execute("DROP TABLE adk_eval_results");
      st.execute("DROP TABLE adk_artifacts");
      st.execute("DROP TABLE adk_session_waiters"); // version 15
      st.execute("DELETE FROM adk_schema_history WHERE version IN ('12', '13', '14', '15')");
    }
    service = createService();
    assertThat(history("alice", "s1", "user:n")).isEqualTo(expected);
    assertThat(history("alice", "s1", "k")).isEqualTo(replay("alice", "s1", "k")).hasSize(1);
  }
}
