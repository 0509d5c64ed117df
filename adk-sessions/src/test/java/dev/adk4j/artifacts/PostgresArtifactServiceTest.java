package dev.adk4j.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Part;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.EmbeddedPostgresExtension;
import dev.adk4j.sessions.Session;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link DatabaseArtifactService} on PostgreSQL (embedded, shared by the run; one database for the
 * class, emptied before each test): the contract, life beside the sessions, and two instances
 * saving one file.
 */
class PostgresArtifactServiceTest extends ArtifactServiceContract {

  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  /** One database for the class (migrated once), emptied before each test. */
  private static String url;

  private static synchronized String url() throws Exception {
    if (url == null) {
      url = POSTGRES.newMigratedDatabase();
    }
    return url;
  }

  @Override
  protected BaseArtifactService createService() throws Exception {
    DatabaseArtifactService service = new DatabaseArtifactService(url());
    try (Connection c = DriverManager.getConnection(url());
        Statement st = c.createStatement()) {
      st.execute("TRUNCATE adk_artifacts");
    }
    return service;
  }

  @AfterAll
  static void dropDatabase() throws Exception {
    POSTGRES.dropDatabases();
    url = null;
  }

  @Test
  void artifactsLiveInTheSessionsDatabase_andTwoInstancesShareTheVersions() throws Exception {
    String url = url();
    try (DatabaseSessionService sessions = new DatabaseSessionService(url);
        DatabaseArtifactService one = new DatabaseArtifactService(url);
        DatabaseArtifactService two = new DatabaseArtifactService(url)) {
      Session s = sessions.createSession("app", "alice", null, "s1").blockingGet();
      assertThat(
              one.saveArtifact("app", "alice", s.id(), "a.txt", Part.fromText("0")).blockingGet())
          .isZero();
      assertThat(
              two.saveArtifact("app", "alice", s.id(), "a.txt", Part.fromText("1")).blockingGet())
          .isEqualTo(1);
      assertThat(one.loadArtifact("app", "alice", "s1", "a.txt").blockingGet().text())
          .contains("1");
      assertThat(two.databaseProduct()).isEqualTo("PostgreSQL");
    }
  }

  @Test
  void aFailedSave_namesTheArtifactSessionUserAndApp_notTheData() throws Exception {
    String url = POSTGRES.newMigratedDatabase();
    try (DatabaseArtifactService files = new DatabaseArtifactService(url)) {
      try (Connection c = DriverManager.getConnection(url);
          Statement st = c.createStatement()) {
        st.execute("ALTER TABLE adk_artifacts ADD CONSTRAINT small CHECK (length(part) < 100)");
      }
      assertThatThrownBy(
              () ->
                  files
                      .saveArtifact("app", "alice", "s1", "big.txt", Part.fromText("x".repeat(200)))
                      .blockingGet())
          .hasMessageContaining(
              "Cannot save artifact 'big.txt' of session 's1' of user 'alice' in app 'app'")
          .hasMessageNotContaining("xxxxx");
      assertThat(files.listVersions("app", "alice", "s1", "big.txt").blockingGet()).isEmpty();
    } finally {
      try (Connection c = DriverManager.getConnection(url());
          Statement st = c.createStatement()) {
        st.execute("ALTER TABLE adk_artifacts DROP CONSTRAINT IF EXISTS small");
      }
    }
  }
}
