package dev.adk4j.workflows;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workflow contract on SQLite: one real database file for the class (each test uses its own
 * sessions), so the schema is migrated once.
 */
class SqliteWorkflowTest extends WorkflowContract {
  @TempDir static Path dir;

  private static DatabaseSessionService service;

  @Override
  protected BaseSessionService newSessions() {
    if (service == null) {
      service = new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("sessions.db"));
    }
    return service;
  }

  @AfterAll
  static void closeService() {
    if (service != null) {
      service.close();
      service = null;
    }
  }
}
