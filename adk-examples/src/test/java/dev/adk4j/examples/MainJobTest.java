package dev.adk4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
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
        .contains("user:visits = 2")
        .contains("1 of 1 cases passed");
    // The durable workflow: killed in 'ship' in a second JVM, resumed here without running the
    // finished nodes again; the order was charged once.
    assertThat(section(first, "durable-workflow"))
        .contains("node charge runs in the second JVM")
        .contains("node ship runs in the second JVM")
        .contains("second JVM killed inside 'ship'")
        .contains("node ship runs in this process")
        .contains("node confirm runs in this process")
        .doesNotContain("node reserve runs in this process")
        .doesNotContain("node charge runs in this process")
        .contains("charges: 1");

    String second = runMain(dir);
    assertThat(second)
        .doesNotContain("Exception")
        .contains("user:visits = 3")
        .contains("user:visits = 4");
    assertThat(dir.resolve("examples.db")).exists();

    // Each example starts afresh: a second run prints the same transcript, except where the
    // content is meant to change (persisted counters and new session ids, the clock, and the
    // order in which parallel branches finish). Nothing leaks from one example into another.
    Set<String> varying =
        Set.of("persistence", "manual-update", "pipeline", "eval", "a2a", "durable-workflow");
    for (String name : Examples.all().keySet()) {
      if (!varying.contains(name)) {
        assertThat(section(second, name)).as(name).isEqualTo(section(first, name));
      }
    }
    assertThat(section(second, "manual-update").lines().count())
        .isEqualTo(section(first, "manual-update").lines().count());
    // the eval example's table differs only in its measured durations
    assertThat(section(second, "eval").replaceAll("duration_v1 .*", ""))
        .isEqualTo(section(first, "eval").replaceAll("duration_v1 .*", ""));
    // the durable workflow's log line on taking over the killed process's lease names that process
    assertThat(section(second, "durable-workflow").replaceAll(".*Took over the lease.*\n", ""))
        .isEqualTo(section(first, "durable-workflow").replaceAll(".*Took over the lease.*\n", ""));
    // the A2A example's servers get new ports, and its remote conversation a new context id
    String hexId = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    assertThat(section(second, "a2a").replaceAll(":[0-9]+/", ":PORT/").replaceAll(hexId, "ID"))
        .isEqualTo(section(first, "a2a").replaceAll(":[0-9]+/", ":PORT/").replaceAll(hexId, "ID"));
    // Plain text, also into a pipe or a file: no terminal escape sequences.
    assertThat(first + second).doesNotContain("\u001b");
  }

  /** The transcript of one example: from its "=== name ===" heading to the next heading. */
  private static String section(String transcript, String name) {
    int start = transcript.indexOf("=== " + name + " ===");
    assertThat(start).as("section " + name).isNotNegative();
    int end = transcript.indexOf("\n=== ", start + 1);
    return end < 0 ? transcript.substring(start) : transcript.substring(start, end);
  }

  @Test
  void oneExampleRunsAloneByName(@TempDir Path dir) throws Exception {
    String out = runMain(dir, "greeting");
    assertThat(out).contains("=== greeting ===").doesNotContain("=== pipeline ===");
  }
}
