package dev.adk4j.sessions;

import java.time.Duration;

/**
 * Run in a child JVM without any SLF4J provider by {@link LoggingWithoutBackendTest}: starts a
 * service on a SQLite file (args[0]), uses and closes it, tries a PostgreSQL server that does not
 * answer (args[1]) and creates a Gemini model, as a library user's application would.
 */
public final class StartWithoutLoggingBackend {
  private StartWithoutLoggingBackend() {}

  public static void main(String[] args) {
    try (DatabaseSessionService s = new DatabaseSessionService(args[0])) {
      Session session = s.createSession("app", "user").blockingGet();
      s.getSession("app", "user", session.id()).blockingGet();
    }
    try (DatabaseSessionService s =
        new DatabaseSessionService(
            args[1],
            DatabaseSessionConfig.builder().connectionTimeout(Duration.ofMillis(500)).build())) {
      System.out.println("unexpected: connected to " + args[1] + " " + s);
    } catch (SessionException expected) {
      System.out.println("refused: " + expected.getClass().getSimpleName());
    }
    // What the driver and the model client log through java.util.logging goes to SLF4J (here:
    // nowhere), not to stderr.
    java.util.logging.Logger.getLogger("org.postgresql.core.v3.QueryExecutorImpl")
        .warning("a driver warning");
    dev.adk4j.models.Gemini.builder()
        .modelName("gemini-test")
        .apiKey("test-key")
        .baseUrl("http://127.0.0.1:9")
        .build()
        .close();
    java.util.logging.Logger.getLogger("com.google.genai.Client").warning("a client warning");
  }
}
