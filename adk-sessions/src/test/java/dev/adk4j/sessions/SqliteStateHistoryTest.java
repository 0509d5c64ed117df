package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link StateHistoryContract} on a SQLite file, and its index at work. */
class SqliteStateHistoryTest extends StateHistoryContract {

  @TempDir Path dir;

  private String url() {
    return "jdbc:sqlite:" + dir.resolve("history.db");
  }

  @Override
  protected BaseSessionService createService() {
    return new DatabaseSessionService(url());
  }

  @Test
  void history_readsThroughTheIndex_notTheSessionsEvents() throws Exception {
    create("alice", "s1");
    for (int i = 0; i < 200; i++) {
      append("alice", "s1", Map.of("noise", i));
    }
    append("alice", "s1", Map.of("k", 1, "user:u", 1, "app:a", 1));
    assertThat(history("alice", "s1", "k")).hasSize(1);
    try (Connection c = DriverManager.getConnection(url());
        Statement st = c.createStatement()) {
      for (String[] q :
          List.of(
              new String[] {
                "session", "WHERE h.session_pk = 1 AND h.state_key = 'k' ORDER BY h.seq"
              },
              new String[] {
                "user",
                "WHERE h.app_name = 'app' AND h.state_key = 'user:u' AND h.user_id = 'alice'"
                    + " ORDER BY h.pk"
              },
              new String[] {
                "app", "WHERE h.app_name = 'app' AND h.state_key = 'app:a' ORDER BY h.pk"
              })) {
        List<String> plan = new ArrayList<>();
        try (ResultSet rs =
            st.executeQuery(
                "EXPLAIN QUERY PLAN SELECT s.user_id, s.session_id, e.seq, e.event"
                    + " FROM adk_state_history h"
                    + " JOIN adk_events e ON e.session_pk = h.session_pk AND e.seq = h.seq"
                    + " JOIN adk_sessions s ON s.pk = h.session_pk "
                    + q[1])) {
          while (rs.next()) {
            plan.add(rs.getString("detail"));
          }
        }
        assertThat(String.join("\n", plan))
            .as(q[0])
            .contains("adk_state_history_by_")
            .contains("SEARCH e USING")
            .doesNotContain("SCAN e")
            .doesNotContain("SCAN h");
      }
    }
  }

  @Test
  void eventsStoredBeforeTheIndex_areIndexedByTheMigration() throws Exception {
    randomWorkload(5);
    List<String> before = history("alice", "s1", "user:u");
    closeService(service);
    try (Connection c = DriverManager.getConnection(url());
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
    assertThat(history("bob", "s3", "app:a").size()).isEqualTo(replay("bob", "s3", "app:a").size());
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
    try (Connection c = DriverManager.getConnection(url());
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
