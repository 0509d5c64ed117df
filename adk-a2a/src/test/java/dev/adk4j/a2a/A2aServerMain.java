package dev.adk4j.a2a;

import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.testsupport.ChildJvm;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * A child JVM for {@link A2aSecondJvmTest}: serves {@link A2aFixtures#helper()} over A2A on
 * 127.0.0.1 with its sessions in the SQLite file named by the first argument, prints {@code
 * listening <url>} on stdout, and stops when its stdin ends.
 */
public final class A2aServerMain {
  private A2aServerMain() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    System.setOut(System.err);
    try (DatabaseSessionService sessions = new DatabaseSessionService("jdbc:sqlite:" + args[0]);
        A2aServer server =
            A2aServer.builder()
                .runner(new Runner(A2aFixtures.helper(), "remote-app", null, sessions))
                .build()) {
      out.println("listening " + server.start("127.0.0.1", 0));
      out.flush();
      System.in.readAllBytes(); // until the parent closes our stdin (or dies)
    }
  }

  /** The command line that starts this class with the test classpath. */
  static List<String> command(Path sqliteFile) {
    return ChildJvm.command(
        "-Dadk4j.test.log=OFF",
        "-cp",
        System.getProperty("java.class.path"),
        A2aServerMain.class.getName(),
        sqliteFile.toString());
  }
}
