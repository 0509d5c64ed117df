package dev.adk4j.server;

import dev.adk4j.sessions.DatabaseSessionService;
import java.nio.file.Path;

/** The hostile requests against a server keeping its sessions in a SQLite file. */
class SqliteHostileRequestTest extends HostileRequestTest {
  @Override
  DatabaseSessionService openStore(Path dir) {
    return new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("hostile.db"));
  }
}
