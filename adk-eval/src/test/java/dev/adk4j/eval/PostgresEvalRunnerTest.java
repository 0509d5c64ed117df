package dev.adk4j.eval;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.EmbeddedPostgresExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The eval runner on PostgreSQL (adk-sessions' embedded server, one per run). */
class PostgresEvalRunnerTest extends EvalRunnerContract {
  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  @Override
  BaseSessionService sessions() throws Exception {
    return new DatabaseSessionService(POSTGRES.newMigratedDatabase());
  }

  @AfterAll
  static void drop() throws Exception {
    POSTGRES.dropDatabases();
  }
}
