package dev.adk4j.workflows;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The workflow contract on PostgreSQL: the module's one embedded server, one database for the class
 * (each test uses its own sessions), so the schema is migrated once.
 */
class PostgresWorkflowTest extends WorkflowContract {
  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  private static DatabaseSessionService service;

  @Override
  protected BaseSessionService newSessions() throws Exception {
    if (service == null) {
      service = new DatabaseSessionService(POSTGRES.newMigratedDatabase());
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
