package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.testsupport.ChildJvm;
import java.io.File;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A library user's application with no SLF4J provider: the service's libraries (Flyway, HikariCP,
 * the SQLite and PostgreSQL drivers) must not fall back to {@code java.util.logging} and print to
 * stderr. Only SLF4J's own notice that it has no provider may appear.
 */
class LoggingWithoutBackendTest {

  @Test
  void aServiceStartedWithoutAnSlf4jProvider_printsNothingButSlf4jsOwnNotice(@TempDir Path dir)
      throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    String classpath =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(entry -> !entry.contains("logback"))
            .collect(Collectors.joining(File.pathSeparator));
    Process p =
        new ProcessBuilder(
                ChildJvm.command(
                    "-cp",
                    classpath,
                    StartWithoutLoggingBackend.class.getName(),
                    "jdbc:sqlite:" + dir.resolve("s.db"),
                    "jdbc:postgresql://127.0.0.1:" + closedPort + "/none"))
            .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    List<String> err =
        new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();

    assertThat(out).contains("refused: SessionException");
    assertThat(p.exitValue()).isZero();
    assertThat(err)
        .as("stderr of a service started without an SLF4J provider")
        .allMatch(line -> line.startsWith("SLF4J"));
  }
}
