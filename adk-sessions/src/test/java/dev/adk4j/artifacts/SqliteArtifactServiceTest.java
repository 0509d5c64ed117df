package dev.adk4j.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Part;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/** {@link DatabaseArtifactService} on a SQLite file: the contract, and life beside the sessions. */
class SqliteArtifactServiceTest extends ArtifactServiceContract {

  private static final AtomicInteger FILES = new AtomicInteger();

  @TempDir Path dir;

  private String newUrl() {
    return "jdbc:sqlite:" + dir.resolve("store" + FILES.incrementAndGet()).resolve("sessions.db");
  }

  @Override
  protected BaseArtifactService createService() {
    return new DatabaseArtifactService(newUrl());
  }

  @Test
  void artifactsSurviveARestart_andTheirSessionsDeletion() {
    String url = newUrl();
    try (DatabaseSessionService sessions = new DatabaseSessionService(url);
        DatabaseArtifactService files = new DatabaseArtifactService(url)) {
      Session s = sessions.createSession("app", "alice", null, "s1").blockingGet();
      files.saveArtifact("app", "alice", s.id(), "a.txt", Part.fromText("one")).blockingGet();
      files.saveArtifact("app", "alice", s.id(), "a.txt", Part.fromText("two")).blockingGet();
      sessions.deleteSession("app", "alice", "s1").blockingAwait();
      assertThat(files.databaseProduct()).isEqualTo("SQLite");
    }
    try (DatabaseArtifactService reopened = new DatabaseArtifactService(url)) {
      assertThat(reopened.loadArtifact("app", "alice", "s1", "a.txt").blockingGet().text())
          .contains("two");
      assertThat(
              reopened
                  .saveArtifact("app", "alice", "s1", "a.txt", Part.fromText("three"))
                  .blockingGet())
          .isEqualTo(2);
    }
  }

  @Test
  void aDataSourceSharedWithTheSessionService_staysOpenAfterClose() throws Exception {
    SQLiteDataSource ds = new SQLiteDataSource();
    ds.setUrl("jdbc:sqlite:" + dir.resolve("shared.db"));
    try (DatabaseSessionService sessions =
            new DatabaseSessionService(ds, DatabaseSessionConfig.defaults());
        DatabaseArtifactService files =
            new DatabaseArtifactService(ds, DatabaseSessionConfig.defaults())) {
      Session s = sessions.createSession("app", "u").blockingGet();
      files.saveArtifact("app", "u", s.id(), "user:cv.md", Part.fromText("cv")).blockingGet();
    }
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT session_id, filename, version FROM adk_artifacts")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEmpty(); // a user's file belongs to no session
      assertThat(rs.getString(2)).isEqualTo("user:cv.md");
      assertThat(rs.getInt(3)).isZero();
    }
  }

  @Test
  void aClosedService_refusesWork_namingTheArtifact() {
    DatabaseArtifactService files = new DatabaseArtifactService(newUrl());
    files.close();
    assertThatThrownBy(
            () ->
                files.saveArtifact("app", "alice", "s1", "a.txt", Part.fromText("x")).blockingGet())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("save artifact 'a.txt' of session 's1' of user 'alice' in app 'app'");
  }
}
