package dev.adk4j.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Sends the {@code java.util.logging} records of a library adk4j drives (the PostgreSQL driver, the
 * google-genai client) to SLF4J, where adk4j logs, instead of the JVM's console handler (stderr).
 * Only the named logger and its children are touched: the application's own {@code
 * java.util.logging} setup is left as it is.
 *
 * <p>Internal to adk4j: not part of its API, may change in any release.
 */
public final class JulToSlf4j {
  private JulToSlf4j() {}

  /** Routed loggers, kept strongly reachable: {@code java.util.logging} holds loggers weakly. */
  private static final Map<String, Logger> ROUTED = new HashMap<>();

  /** Routes the records of the {@code java.util.logging} logger {@code name}; idempotent. */
  public static synchronized void route(String name) {
    if (ROUTED.containsKey(name)) {
      return;
    }
    Logger logger = Logger.getLogger(name);
    logger.addHandler(new SLF4JBridgeHandler());
    logger.setUseParentHandlers(false);
    ROUTED.put(name, logger);
  }
}
