package dev.adk4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The main job: every example on one SQLite file, twice; the persisted counters advance. */
class MainJobTest {

  private static String runMain(Path dataDir, String... args) throws Exception {
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream capture = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    String before = System.getProperty("adk4j.data");
    System.setProperty("adk4j.data", dataDir.toString());
    System.setOut(capture);
    System.setErr(capture);
    try {
      Examples.main(args);
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
      if (before == null) {
        System.clearProperty("adk4j.data");
      } else {
        System.setProperty("adk4j.data", before);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void allExamplesRun_twice_withoutErrors_andCountersAdvance(@TempDir Path dir) throws Exception {
    String first = runMain(dir);
    for (String name : Examples.all().keySet()) {
      assertThat(first).contains("=== " + name + " ===");
    }
    assertThat(first)
        .contains("built-in demo model")
        .contains("State scoping works correctly!")
        .doesNotContain("Exception")
        .doesNotContain("\tat ")
        .contains("user:visits = 1")
        .contains("user:visits = 2");

    String second = runMain(dir);
    assertThat(second)
        .doesNotContain("Exception")
        .contains("user:visits = 3")
        .contains("user:visits = 4");
    assertThat(dir.resolve("examples.db")).exists();
  }

  @Test
  void oneExampleRunsAloneByName(@TempDir Path dir) throws Exception {
    String out = runMain(dir, "greeting");
    assertThat(out).contains("=== greeting ===").doesNotContain("=== pipeline ===");
  }
}
