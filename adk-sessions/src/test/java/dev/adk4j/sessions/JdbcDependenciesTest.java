package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.testsupport.ChildJvm;
import java.io.File;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dependency boundary: HikariCP, Flyway and the JDBC drivers are optional dependencies of
 * adk-sessions. An application without them runs {@link InMemorySessionService}, and a {@link
 * DatabaseSessionService} refuses to start with a message naming the dependency to add. Each case
 * runs {@link StartWithoutJdbcLibraries} in a child JVM whose classpath lacks some of the jars.
 */
class JdbcDependenciesTest {

  @TempDir Path dir;

  @Test
  void withoutTheJdbcLibraries_inMemoryWorks_andTheDatabaseServiceNamesTheStarter()
      throws Exception {
    String sqlite = "jdbc:sqlite:" + dir.resolve("sessions.db");
    String postgres = "jdbc:postgresql://127.0.0.1:" + closedPort() + "/none";

    List<String> out =
        runWithout(
            Set.of("HikariCP-", "flyway-", "sqlite-jdbc-", "postgresql-"),
            sqlite,
            postgres,
            "datasource");

    assertThat(out).contains("in-memory: dark 1");
    assertThat(line(out, "refused: " + sqlite))
        .contains(IllegalStateException.class.getName())
        .contains("HikariCP (com.zaxxer:HikariCP)")
        .contains("Flyway (org.flywaydb:flyway-core)")
        .contains("the SQLite JDBC driver (org.xerial:sqlite-jdbc)")
        .contains("Add the dependency dev.adk4j:adk-sessions-jdbc")
        .doesNotContain("org.postgresql:postgresql");
    assertThat(line(out, "refused: " + postgres))
        .contains("Flyway's PostgreSQL support (org.flywaydb:flyway-database-postgresql)")
        .contains("Add the dependency dev.adk4j:adk-sessions-jdbc")
        .contains("for PostgreSQL, org.postgresql:postgresql");
    // The memory service on the same database libraries says the same, in its own name.
    assertThat(line(out, "memory refused: " + sqlite))
        .contains(IllegalStateException.class.getName())
        .contains("DatabaseMemoryService cannot start")
        .contains("Add the dependency dev.adk4j:adk-sessions-jdbc");
    // A caller's DataSource brings its own driver: only the starter's libraries are named.
    assertThat(line(out, "refused: DataSource"))
        .contains(IllegalStateException.class.getName())
        .contains("HikariCP (com.zaxxer:HikariCP)")
        .contains("Add the dependency dev.adk4j:adk-sessions-jdbc")
        .doesNotContain("org.xerial:sqlite-jdbc")
        .doesNotContain("org.postgresql");
    assertThat(dir.resolve("sessions.db")).doesNotExist();
  }

  @Test
  void withTheStarterButNoPostgresDriver_sqliteStarts_andPostgresNamesTheDriver() throws Exception {
    String sqlite = "jdbc:sqlite:" + dir.resolve("sessions.db");
    String postgres = "jdbc:postgresql://127.0.0.1:" + closedPort() + "/none";

    List<String> out = runWithout(Set.of("postgresql-"), sqlite, postgres);

    assertThat(out).contains("in-memory: dark 1", "started: " + sqlite);
    assertThat(line(out, "refused: " + postgres))
        .contains("the PostgreSQL JDBC driver (org.postgresql.Driver) is not on the classpath")
        .contains("Add the dependency org.postgresql:postgresql")
        .doesNotContain("adk-sessions-jdbc");
  }

  /** Runs the program on this JVM's classpath minus the jars whose file names start so. */
  private static List<String> runWithout(Set<String> jarPrefixes, String... args) throws Exception {
    List<String> entries =
        Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
    List<String> kept =
        entries.stream()
            .filter(
                e ->
                    jarPrefixes.stream().noneMatch(Path.of(e).getFileName().toString()::startsWith))
            .toList();
    // Every jar meant to be left out was there to begin with, so the case means something.
    for (String prefix : jarPrefixes) {
      assertThat(entries)
          .as("a jar %s* on the test classpath", prefix)
          .anyMatch(e -> Path.of(e).getFileName().toString().startsWith(prefix));
    }
    List<String> command =
        ChildJvm.command(
            "-cp",
            String.join(File.pathSeparator, kept),
            StartWithoutJdbcLibraries.class.getName());
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String text = new String(output, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as("exit code; output:%n%s", text).isZero();
    return text.lines().toList();
  }

  private static String line(List<String> out, String prefix) {
    return out.stream()
        .filter(l -> l.startsWith(prefix))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line '" + prefix + "...' in " + out));
  }

  private static int closedPort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
