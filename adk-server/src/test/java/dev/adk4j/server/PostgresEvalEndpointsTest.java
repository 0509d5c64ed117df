package dev.adk4j.server;

import dev.adk4j.sessions.EmbeddedPostgresExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The evaluation endpoints on a server keeping sessions, eval sets and results in PostgreSQL (the
 * module's one embedded server, a database of its own).
 */
class PostgresEvalEndpointsTest extends EvalEndpointsTest {
  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  @BeforeAll
  static void startServer() throws Exception {
    start(POSTGRES.newMigratedDatabase());
  }
}
