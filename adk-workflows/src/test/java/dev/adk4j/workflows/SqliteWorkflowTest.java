package dev.adk4j.workflows;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The workflow contract on SQLite, one real file per test. */
class SqliteWorkflowTest extends WorkflowContract {
  @TempDir Path dir;

  @Override
  protected BaseSessionService newSessions() {
    return new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("sessions.db"));
  }

  @Override
  protected void close(BaseSessionService sessions) {
    ((DatabaseSessionService) sessions).close();
  }
}
