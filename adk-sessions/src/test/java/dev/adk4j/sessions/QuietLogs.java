package dev.adk4j.sessions;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns logging down to warnings for the database tests and their child JVMs: HikariCP, Flyway and
 * the embedded PostgreSQL server log every connection and line of server output at debug and info
 * level, which would bury test failures.
 */
final class QuietLogs {
  private QuietLogs() {}

  static void apply() {
    if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof Logger) {
      ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
    }
  }
}
