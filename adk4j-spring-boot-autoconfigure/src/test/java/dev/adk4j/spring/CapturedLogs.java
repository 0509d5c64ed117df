package dev.adk4j.spring;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Keeps what the named loggers write while open (for assertions) instead of printing it: the
 * warnings a test provokes on purpose.
 */
final class CapturedLogs implements AutoCloseable {
  private final List<Logger> loggers = new ArrayList<>();
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  CapturedLogs(String... names) {
    appender.start();
    for (String name : names) {
      Logger l = (Logger) LoggerFactory.getLogger(name);
      l.addAppender(appender);
      l.setAdditive(false);
      loggers.add(l);
    }
  }

  /** The formatted messages captured so far, each with its level. */
  synchronized List<String> messages() {
    List<String> out = new ArrayList<>();
    for (ILoggingEvent e : List.copyOf(appender.list)) {
      out.add(e.getLevel() + " " + e.getFormattedMessage());
    }
    return out;
  }

  @Override
  public void close() {
    for (Logger l : loggers) {
      l.detachAppender(appender);
      l.setAdditive(true);
    }
    appender.stop();
  }
}
