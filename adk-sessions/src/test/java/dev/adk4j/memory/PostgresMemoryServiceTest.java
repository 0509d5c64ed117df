package dev.adk4j.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.EmbeddedPostgresExtension;
import dev.adk4j.sessions.Session;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link DatabaseMemoryService} on PostgreSQL (embedded, a fresh database per service): the
 * contract, life beside the sessions, and the GIN index at work.
 */
class PostgresMemoryServiceTest extends MemoryServiceContract {

  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  @Override
  protected BaseMemoryService createService(int maxResults) throws Exception {
    return new DatabaseMemoryService(
        POSTGRES.newMigratedDatabase(), DatabaseSessionConfig.defaults(), maxResults);
  }

  @AfterEach
  void dropDatabases() throws Exception {
    closeServices();
    POSTGRES.dropDatabases();
  }

  @Test
  void memoriesLiveInTheSessionsDatabase_andSurviveTheSessionsDeletion() throws Exception {
    String url = POSTGRES.newMigratedDatabase();
    try (DatabaseSessionService sessions = new DatabaseSessionService(url);
        DatabaseMemoryService memory = new DatabaseMemoryService(url)) {
      Session s = sessions.createSession("app", "alice", null, "s1").blockingGet();
      sessions.appendEvent(s, said("user", "my dog is called Pixel")).blockingGet();
      memory
          .addSessionToMemory(sessions.getSession("app", "alice", "s1").blockingGet())
          .blockingAwait();
      sessions.deleteSession("app", "alice", "s1").blockingAwait();
      assertThat(texts(memory.searchMemory("app", "alice", "DOG").blockingGet()))
          .containsExactly("my dog is called Pixel");
      assertThat(memory.databaseProduct()).isEqualTo("PostgreSQL");
    }
  }

  @Test
  void search_usesTheIndexes_notAScanOfEveryonesMemories() throws Exception {
    String url = POSTGRES.newMigratedDatabase();
    try (DatabaseMemoryService memory = new DatabaseMemoryService(url)) {
      memory
          .addSessionToMemory(session("app", "alice", "s", List.of(said("user", "rare zebra"))))
          .blockingAwait();
    }
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      // 20,000 memories of other users that share a word with the query.
      st.execute(
          "INSERT INTO adk_memories (app_name, user_id, session_id, event_id, event_time,"
              + " content, text) SELECT 'app', 'user' || (i % 500), 's', 'e' || i, i,"
              + " '{\"parts\":[{\"text\":\"common words\"}]}', 'common words ' || i"
              + " FROM generate_series(1, 20000) AS i");
      st.execute("ANALYZE adk_memories");
      StringBuilder plan = new StringBuilder();
      try (ResultSet rs =
          st.executeQuery(
              "EXPLAIN SELECT author, event_time, content FROM adk_memories"
                  + " WHERE app_name = 'app' AND user_id = 'alice'"
                  + " AND words @@ to_tsquery('simple', '''zebra'' | ''common''')"
                  + " ORDER BY event_time DESC, pk DESC LIMIT 100")) {
        while (rs.next()) {
          plan.append(rs.getString(1)).append('\n');
        }
      }
      assertThat(plan.toString()).doesNotContain("Seq Scan");
    }
    try (DatabaseMemoryService memory = new DatabaseMemoryService(url)) {
      assertThat(texts(memory.searchMemory("app", "alice", "zebra common").blockingGet()))
          .containsExactly("rare zebra");
    }
  }
}
