package dev.adk4j.testsupport;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The logging of every test JVM and of the JVMs the tests start: warnings and errors on the
 * console, each exception (and its causes) with one frame; {@code -Dadk4j.test.log=DEBUG} shows
 * everything. Logback finds it through {@code META-INF/services}, both in adk-core's test-jar.
 *
 * <p>In code rather than in {@code logback-test.xml}: reading the XML file loads Logback's
 * configuration interpreter and the JDK's XML parser, about 500 classes and 0.15 s of CPU in each
 * of the 60-odd JVMs of a test run. Spring Boot sets Logback up again from {@code logback-test.xml}
 * (it ignores this class), so that file says the same for the Spring tests.
 */
public final class TestLogging extends ContextAwareBase implements Configurator {

  /** The pattern of {@code logback-test.xml}. */
  static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{36} - %msg%n%ex{short}";

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("CONSOLE");
    console.setEncoder(encoder);
    console.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(System.getProperty("adk4j.test.log", "WARN"), Level.WARN));
    root.addAppender(console);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
