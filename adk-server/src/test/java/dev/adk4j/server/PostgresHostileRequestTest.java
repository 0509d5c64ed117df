package dev.adk4j.server;

import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.EmbeddedPostgresExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The hostile requests against a server keeping its sessions in PostgreSQL (embedded). */
class PostgresHostileRequestTest extends HostileRequestTest {
  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  @Override
  DatabaseSessionService openStore(Path dir) throws Exception {
    return new DatabaseSessionService(POSTGRES.newMigratedDatabase());
  }
}
