package dev.adk4j.workflows;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The workflow contract on PostgreSQL (one embedded server, a fresh database per test). */
class PostgresWorkflowTest extends WorkflowContract {
  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  @Override
  protected BaseSessionService newSessions() throws Exception {
    return new DatabaseSessionService(POSTGRES.newDatabase());
  }

  @Override
  protected void close(BaseSessionService sessions) {
    ((DatabaseSessionService) sessions).close();
  }
}
