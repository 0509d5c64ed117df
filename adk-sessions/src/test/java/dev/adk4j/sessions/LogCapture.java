package dev.adk4j.sessions;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Captures what one logger (and its children) logs while open, without printing it: the logger is
 * set to {@code DEBUG} and detached from its parents' appenders until {@link #close()}.
 */
public final class LogCapture implements AutoCloseable {
  private final Logger logger;
  private final Level level;
  private final boolean additive;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private LogCapture(String name) {
    logger = (Logger) LoggerFactory.getLogger(name);
    level = logger.getLevel();
    additive = logger.isAdditive();
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.DEBUG);
    logger.setAdditive(false);
  }

  public static LogCapture of(String loggerName) {
    return new LogCapture(loggerName);
  }

  /** Every line logged so far, formatted, with its level first ({@code ERROR Left key ...}). */
  public synchronized List<String> lines() {
    return appender.list.stream().map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
  }

  /** The lines logged at ERROR so far, formatted. */
  public List<String> errors() {
    return appender.list.stream()
        .filter(e -> e.getLevel() == Level.ERROR)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    logger.setAdditive(additive);
    logger.setLevel(level);
  }
}
