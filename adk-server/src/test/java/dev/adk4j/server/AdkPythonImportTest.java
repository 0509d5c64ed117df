package dev.adk4j.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.AdkPythonImporter;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.EmbeddedPostgresExtension;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionException;
import dev.adk4j.testing.ScriptedLlm;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * ADK for Python's session database, built by the test from that schema's facts (its tables and
 * columns, as ADK for Python's {@code DatabaseSessionService} creates them, in SQLite and
 * PostgreSQL; the DDL is this test's own): refused at start by default, copied on request with a
 * report, idempotently, and continued by an adk4j agent with the same state.
 */
class AdkPythonImportTest {
  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  @TempDir Path dir;

  static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', (byte) 0xfb, (byte) 0xff, (byte) 0xbf};

  /** ADK for Python's current schema: events as JSON. */
  static List<String> jsonSchema(boolean postgres) {
    String json = postgres ? "JSONB" : "TEXT";
    String time = postgres ? "TIMESTAMP" : "DATETIME";
    return List.of(
        "CREATE TABLE adk_internal_metadata (key VARCHAR(128) PRIMARY KEY, value VARCHAR(256))",
        "INSERT INTO adk_internal_metadata VALUES ('schema_version', '1')",
        "CREATE TABLE sessions (app_name VARCHAR(128) NOT NULL, user_id VARCHAR(128) NOT NULL,"
            + " id VARCHAR(128) NOT NULL, state "
            + json
            + ", create_time "
            + time
            + ", update_time "
            + time
            + ", event_sequence INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (app_name, user_id, id))",
        "CREATE TABLE events (id VARCHAR(128) NOT NULL, app_name VARCHAR(128) NOT NULL, user_id"
            + " VARCHAR(128) NOT NULL, session_id VARCHAR(128) NOT NULL, invocation_id"
            + " VARCHAR(256), timestamp "
            + time
            + ", event_data "
            + json
            + ", PRIMARY KEY (id, app_name, user_id, session_id), FOREIGN KEY (app_name, user_id,"
            + " session_id) REFERENCES sessions (app_name, user_id, id) ON DELETE CASCADE)",
        "CREATE TABLE app_states (app_name VARCHAR(128) PRIMARY KEY, state "
            + json
            + ", update_time "
            + time
            + ")",
        "CREATE TABLE user_states (app_name VARCHAR(128) NOT NULL, user_id VARCHAR(128) NOT NULL,"
            + " state "
            + json
            + ", update_time "
            + time
            + ", PRIMARY KEY (app_name, user_id))");
  }

  /** ADK for Python's older schema: an event's fields in columns, its actions pickled. */
  static List<String> pickledSchema() {
    return List.of(
        "CREATE TABLE sessions (app_name VARCHAR(128) NOT NULL, user_id VARCHAR(128) NOT NULL,"
            + " id VARCHAR(128) NOT NULL, state TEXT, create_time DATETIME, update_time DATETIME,"
            + " PRIMARY KEY (app_name, user_id, id))",
        "CREATE TABLE events (id VARCHAR(128) NOT NULL, app_name VARCHAR(128) NOT NULL, user_id"
            + " VARCHAR(128) NOT NULL, session_id VARCHAR(128) NOT NULL, invocation_id"
            + " VARCHAR(256), author VARCHAR(256), actions BLOB, long_running_tool_ids_json TEXT,"
            + " branch VARCHAR(256), timestamp DATETIME, content TEXT, grounding_metadata TEXT,"
            + " custom_metadata TEXT, usage_metadata TEXT, citation_metadata TEXT, partial"
            + " BOOLEAN, turn_complete BOOLEAN, error_code VARCHAR(256), error_message TEXT,"
            + " interrupted BOOLEAN, input_transcription TEXT, output_transcription TEXT, PRIMARY"
            + " KEY (id, app_name, user_id, session_id))",
        "CREATE TABLE app_states (app_name VARCHAR(128) PRIMARY KEY, state TEXT, update_time"
            + " DATETIME)",
        "CREATE TABLE user_states (app_name VARCHAR(128) NOT NULL, user_id VARCHAR(128) NOT NULL,"
            + " state TEXT, update_time DATETIME, PRIMARY KEY (app_name, user_id))");
  }

  /** The conversation ADK for Python stored (its JSON: snake_case, bytes in URL-safe base64). */
  static void fillJson(String url, boolean postgres) throws Exception {
    String cast = postgres ? "CAST(? AS JSONB)" : "?";
    String png = Base64.getUrlEncoder().withoutPadding().encodeToString(PNG);
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      for (String ddl : jsonSchema(postgres)) {
        s.execute(ddl);
      }
      insert(
          c,
          "INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time) VALUES"
              + " ('helpdesk', 'ann', 's1', "
              + cast
              + ", '2025-06-01 10:00:00', '2025-06-01 10:00:05')",
          "{\"topic\": \"printer\", \"ticket\": \"T-1\", \"note\": \"vip\"}");
      insert(
          c,
          "INSERT INTO app_states (app_name, state, update_time) VALUES ('helpdesk', "
              + cast
              + ", '2025-06-01 10:00:05')",
          "{\"motd\": \"hello\"}");
      insert(
          c,
          "INSERT INTO user_states (app_name, user_id, state, update_time) VALUES ('helpdesk',"
              + " 'ann', "
              + cast
              + ", '2025-06-01 10:00:05')",
          "{\"lang\": \"fr\"}");
      insert(
          c,
          "INSERT INTO events (id, app_name, user_id, session_id, invocation_id, timestamp,"
              + " event_data) VALUES ('e1', 'helpdesk', 'ann', 's1', 'inv-1', '2025-06-01"
              + " 10:00:01.250000', "
              + cast
              + ")",
          "{\"author\": \"user\", \"content\": {\"role\": \"user\", \"parts\": [{\"text\": \"my"
              + " printer jams\"}]}, \"actions\": {\"state_delta\": {\"topic\": \"printer\"},"
              + " \"artifact_delta\": {}, \"requested_auth_configs\": {},"
              + " \"requested_tool_confirmations\": {}}, \"invocation_id\": \"inv-1\", \"id\":"
              + " \"e1\", \"timestamp\": 1748772001.25}");
      insert(
          c,
          "INSERT INTO events (id, app_name, user_id, session_id, invocation_id, timestamp,"
              + " event_data) VALUES ('e2', 'helpdesk', 'ann', 's1', 'inv-1', '2025-06-01"
              + " 10:00:02.500000', "
              + cast
              + ")",
          "{\"author\": \"helper\", \"content\": {\"role\": \"model\", \"parts\": [{\"text\":"
              + " \"Ticket T-1 opened\"}, {\"inline_data\": {\"mime_type\": \"image/png\","
              + " \"data\": \""
              + png
              + "\"}}]}, \"cache_metadata\": {\"cache_name\": \"printer jam\"},"
              + " \"actions\": {\"state_delta\": {\"ticket\": \"T-1\", \"user:lang\": \"fr\","
              + " \"app:motd\": \"hello\"}, \"artifact_delta\": {}, \"requested_auth_configs\":"
              + " {}, \"requested_tool_confirmations\": {}}, \"turn_complete\": true,"
              + " \"invocation_id\": \"inv-1\", \"id\": \"e2\", \"timestamp\": 1748772002.5}");
    }
  }

  private static void insert(Connection c, String sql, String json) throws Exception {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      p.setString(1, json);
      p.executeUpdate();
    }
  }

  @Test
  void aJsonSchemaSqliteFile_isRefused_thenImported_andContinuedByAnAdk4jAgent() throws Exception {
    String source = "jdbc:sqlite:" + dir.resolve("adk_python.db");
    fillJson(source, false);

    assertThatThrownBy(() -> new DatabaseSessionService(source))
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("ADK for Python's session tables")
        .hasMessageContaining("current schema, events as JSON")
        .hasMessageContaining("1 session(s)")
        .hasMessageContaining("AdkPythonImporter")
        .hasMessageContaining("allowAdkPythonTables(true)");
    // allowed on purpose, the store starts beside ADK's tables
    new DatabaseSessionService(
            source, DatabaseSessionConfig.builder().allowAdkPythonTables(true).build())
        .close();

    String target = "jdbc:sqlite:" + dir.resolve("adk4j.db");
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    int status =
        AdkPythonImport.run(
            new String[] {"--from", source, "--to", target},
            new PrintStream(printed, true, StandardCharsets.UTF_8));
    String report = printed.toString(StandardCharsets.UTF_8);
    assertThat(report)
        .contains("copied 1 session(s) with 2 event(s); 0 already there; 1 problem(s)")
        .contains("session 's1' of user 'ann' in app 'helpdesk', event 'e2'")
        .contains("cacheMetadata")
        .doesNotContain("printer jam"); // field names, never values
    assertThat(status).isEqualTo(1);

    try (DatabaseSessionService sessions = new DatabaseSessionService(target)) {
      Session s = sessions.getSession("helpdesk", "ann", "s1").blockingGet();
      assertThat(s.events()).extracting(Event::id).containsExactly("e1", "e2");
      assertThat(s.events().get(0).invocationId()).isEqualTo("inv-1");
      assertThat(s.events().get(1).author()).isEqualTo("helper");
      assertThat(s.events().get(1).timestamp() - s.events().get(0).timestamp()).isEqualTo(1250);
      assertThat(
              s.events()
                  .get(1)
                  .content()
                  .orElseThrow()
                  .parts()
                  .orElseThrow()
                  .get(1)
                  .inlineData()
                  .orElseThrow()
                  .data()
                  .orElseThrow())
          .isEqualTo(PNG);
      assertThat(s.state())
          .containsEntry("topic", "printer")
          .containsEntry("ticket", "T-1")
          .containsEntry("note", "vip")
          .containsEntry("user:lang", "fr")
          .containsEntry("app:motd", "hello");

      // idempotent: a second run copies nothing and changes nothing
      AdkPythonImporter.Report again = AdkPythonImporter.copy(source, sessions);
      assertThat(again.sessionsCopied()).isZero();
      assertThat(again.sessionsSkipped()).isEqualTo(1);
      assertThat(sessions.getSession("helpdesk", "ann", "s1").blockingGet().events()).hasSize(2);

      // an adk4j agent continues the conversation with the same state and history
      List<String> seen = new ArrayList<>();
      LlmAgent helper =
          LlmAgent.builder()
              .name("helper")
              .instruction("Ticket {ticket} about {topic}; answer in {user:lang}.")
              .model(
                  ScriptedLlm.answering(
                      req -> {
                        seen.add(ScriptedLlm.instruction(req));
                        seen.add(req.contents().toString());
                        return ScriptedLlm.textResponse("Still on T-1");
                      }))
              .outputKey("last_answer")
              .build();
      Runner runner = new Runner(helper, "helpdesk", null, sessions);
      runner
          .runAsync("ann", "s1", Content.fromParts(Part.fromText("any news?")))
          .blockingSubscribe();
      assertThat(seen.get(0)).contains("Ticket T-1 about printer; answer in fr.");
      assertThat(seen.get(1)).contains("my printer jams").contains("Ticket T-1 opened");
      Session after = sessions.getSession("helpdesk", "ann", "s1").blockingGet();
      assertThat(after.state()).containsEntry("last_answer", "Still on T-1");
      assertThat(after.events()).hasSize(4);
    }
  }

  @Test
  void aPickledSchemaSqliteFile_isImportedWithoutItsActions_andReportsThem() throws Exception {
    String source = "jdbc:sqlite:" + dir.resolve("old.db");
    try (Connection c = DriverManager.getConnection(source);
        Statement s = c.createStatement()) {
      for (String ddl : pickledSchema()) {
        s.execute(ddl);
      }
      s.execute(
          "INSERT INTO sessions VALUES ('shop', 'bob', 'old', '{\"cart\": 2}', '2025-01-01"
              + " 09:00:00', '2025-01-01 09:00:03')");
      s.execute("INSERT INTO user_states VALUES ('shop', 'bob', '{\"tier\": \"gold\"}', NULL)");
      s.execute(
          "INSERT INTO events (id, app_name, user_id, session_id, invocation_id, author,"
              + " actions, timestamp, content, turn_complete) VALUES ('o1', 'shop', 'bob', 'old',"
              + " 'i1', 'user', X'80049500', '2025-01-01 09:00:01', '{\"role\": \"user\","
              + " \"parts\": [{\"text\": \"add two\"}]}', NULL)");
      s.execute(
          "INSERT INTO events (id, app_name, user_id, session_id, invocation_id, author,"
              + " actions, timestamp, content, turn_complete) VALUES ('o2', 'shop', 'bob', 'old',"
              + " 'i1', 'clerk', NULL, '2025-01-01 09:00:02.5', '{\"role\": \"model\","
              + " \"parts\": [{\"text\": \"done\"}]}', 1)");
    }
    assertThatThrownBy(() -> new DatabaseSessionService(source))
        .hasMessageContaining("older schema, event actions pickled by Python");

    String target = "jdbc:sqlite:" + dir.resolve("new.db");
    try (DatabaseSessionService sessions = new DatabaseSessionService(target)) {
      AdkPythonImporter.Report r = AdkPythonImporter.copy(source, sessions);
      assertThat(r.sessionsCopied()).isEqualTo(1);
      assertThat(r.eventsCopied()).isEqualTo(2);
      assertThat(r.problems())
          .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
          .contains("event 'o1'")
          .contains("pickled by Python");
      Session s = sessions.getSession("shop", "bob", "old").blockingGet();
      assertThat(s.events()).extracting(Event::author).containsExactly("user", "clerk");
      assertThat(s.events().get(1).turnComplete()).contains(true);
      assertThat(s.state()).containsEntry("cart", 2).containsEntry("user:tier", "gold");
    }
  }

  @Test
  void aPostgresDatabase_isRefused_andImported() throws Exception {
    String source = POSTGRES.newDatabase();
    fillJson(source, true);
    assertThatThrownBy(() -> new DatabaseSessionService(source))
        .hasMessageContaining("ADK for Python's session tables");
    try (DatabaseSessionService sessions = new DatabaseSessionService(POSTGRES.newDatabase())) {
      AdkPythonImporter.Report r = AdkPythonImporter.copy(source, sessions);
      assertThat(r.sessionsCopied()).isEqualTo(1);
      assertThat(r.eventsCopied()).isEqualTo(2);
      Session s = sessions.getSession("helpdesk", "ann", "s1").blockingGet();
      assertThat(s.events()).extracting(Event::id).containsExactly("e1", "e2");
      assertThat(s.state()).containsEntry("ticket", "T-1").containsEntry("app:motd", "hello");
    }
  }
}
