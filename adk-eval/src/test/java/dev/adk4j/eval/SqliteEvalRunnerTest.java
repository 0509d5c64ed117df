package dev.adk4j.eval;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

/** The eval runner on SQLite files. */
class SqliteEvalRunnerTest extends EvalRunnerContract {
  @TempDir static Path dir;
  private static final AtomicInteger FILES = new AtomicInteger();

  @Override
  BaseSessionService sessions() {
    return new DatabaseSessionService(
        "jdbc:sqlite:" + dir.resolve("eval" + FILES.incrementAndGet() + ".db"));
  }
}
