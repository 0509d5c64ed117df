package dev.adk4j.sessions;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Captures what one logger (and its children) logs while open, without printing it: the logger is
 * set to {@code DEBUG} (or the level given), its own appenders are set aside, and it is detached
 * from its parents' appenders until {@link #close()}. On the root logger it captures everything.
 */
public final class LogCapture implements AutoCloseable {
  private final Logger logger;
  private final Level level;
  private final boolean additive;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final List<Appender<ILoggingEvent>> setAside = new ArrayList<>();

  private LogCapture(String name, Level capture) {
    logger = (Logger) LoggerFactory.getLogger(name);
    level = logger.getLevel();
    additive = logger.isAdditive();
    logger.iteratorForAppenders().forEachRemaining(setAside::add);
    setAside.forEach(logger::detachAppender);
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(capture);
    logger.setAdditive(false);
  }

  public static LogCapture of(String loggerName) {
    return new LogCapture(loggerName, Level.DEBUG);
  }

  /** Captures everything logged at {@code level} or above, printing none of it. */
  public static LogCapture everything(Level level) {
    return new LogCapture(org.slf4j.Logger.ROOT_LOGGER_NAME, level);
  }

  /** Every event captured so far. */
  public synchronized List<ILoggingEvent> events() {
    return List.copyOf(appender.list);
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
    setAside.forEach(logger::addAppender);
    logger.setAdditive(additive);
    logger.setLevel(level);
  }
}
