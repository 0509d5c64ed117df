package dev.adk4j.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.events.Event;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/** {@link DatabaseMemoryService} on a SQLite file: the contract, and life beside the sessions. */
class SqliteMemoryServiceTest extends MemoryServiceContract {

  private static final AtomicInteger FILES = new AtomicInteger();

  @TempDir Path dir;

  private String newUrl() {
    return "jdbc:sqlite:" + dir.resolve("store" + FILES.incrementAndGet()).resolve("sessions.db");
  }

  @Override
  protected BaseMemoryService createService(int maxResults) {
    return new DatabaseMemoryService(newUrl(), DatabaseSessionConfig.defaults(), maxResults);
  }

  @Test
  void memoriesLiveInTheSessionsDatabase_surviveARestart_andTheSessionsDeletion() {
    String url = newUrl();
    Session stored;
    try (DatabaseSessionService sessions = new DatabaseSessionService(url);
        DatabaseMemoryService memory = new DatabaseMemoryService(url)) {
      Session s = sessions.createSession("app", "alice", null, "s1").blockingGet();
      sessions.appendEvent(s, said("user", "my dog is called Pixel")).blockingGet();
      stored = sessions.getSession("app", "alice", "s1").blockingGet();
      memory.addSessionToMemory(stored).blockingAwait();
      sessions.deleteSession("app", "alice", "s1").blockingAwait();
      assertThat(memory.databaseProduct()).isEqualTo("SQLite");
    }
    try (DatabaseMemoryService reopened = new DatabaseMemoryService(url)) {
      SearchMemoryResponse found = reopened.searchMemory("app", "alice", "dog").blockingGet();
      assertThat(texts(found)).containsExactly("my dog is called Pixel");
      assertThat(found.memories().get(0).content())
          .isEqualTo(stored.events().get(0).content().orElseThrow());
      // Adding the session again after the restart duplicates nothing.
      reopened.addSessionToMemory(stored).blockingAwait();
      assertThat(reopened.searchMemory("app", "alice", "pixel").blockingGet().memories())
          .hasSize(1);
    }
  }

  @Test
  void aDataSourceSharedWithTheSessionService_staysOpenAfterClose() throws Exception {
    SQLiteDataSource ds = new SQLiteDataSource();
    ds.setUrl("jdbc:sqlite:" + dir.resolve("shared.db"));
    try (DatabaseSessionService sessions =
            new DatabaseSessionService(ds, DatabaseSessionConfig.defaults());
        DatabaseMemoryService memory =
            new DatabaseMemoryService(ds, DatabaseSessionConfig.defaults(), 10)) {
      Session s = sessions.createSession("app", "u").blockingGet();
      sessions.appendEvent(s, said("user", "tea with lemon")).blockingGet();
      memory
          .addSessionToMemory(sessions.getSession("app", "u", s.id()).blockingGet())
          .blockingAwait();
    }
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT m.text FROM adk_memories_fts JOIN adk_memories m"
                    + " ON m.pk = adk_memories_fts.rowid WHERE adk_memories_fts MATCH 'lemon'")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("tea with lemon");
    }
  }

  @Test
  void search_usesTheFullTextIndex() throws Exception {
    String url = newUrl();
    try (DatabaseMemoryService memory = new DatabaseMemoryService(url)) {
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        events.add(said("user", "filler line " + i));
      }
      memory.addSessionToMemory(session("app", "u", "s", events)).blockingAwait();
    }
    SQLiteDataSource ds = new SQLiteDataSource();
    ds.setUrl(url);
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "EXPLAIN QUERY PLAN SELECT m.author FROM adk_memories_fts f"
                    + " JOIN adk_memories m ON m.pk = f.rowid"
                    + " WHERE adk_memories_fts MATCH '\"line\"' AND m.app_name = 'app'"
                    + " AND m.user_id = 'u' ORDER BY m.event_time DESC, m.pk DESC LIMIT 5")) {
      StringBuilder plan = new StringBuilder();
      while (rs.next()) {
        plan.append(rs.getString("detail")).append('\n');
      }
      assertThat(plan.toString()).contains("VIRTUAL TABLE INDEX").doesNotContain("SCAN m");
    }
  }
}
