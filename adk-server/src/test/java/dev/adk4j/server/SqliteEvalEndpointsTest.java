package dev.adk4j.server;

import org.junit.jupiter.api.BeforeAll;

/** The evaluation endpoints on a server keeping sessions, eval sets and results in SQLite. */
class SqliteEvalEndpointsTest extends EvalEndpointsTest {
  @BeforeAll
  static void startServer() {
    start("jdbc:sqlite:" + dir.resolve("eval.db"));
  }
}
