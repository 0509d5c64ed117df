package dev.adk4j.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.history.Checker.Anomaly;
import dev.adk4j.history.Checker.Kind;
import dev.adk4j.history.HistoryRun.Backend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * The history checker's run (docs/reliability.md): four worker JVMs doing random turns on shared
 * sessions and keys of one SQLite file or one PostgreSQL database under faults, then the {@link
 * Checker} over what they recorded and what is stored. The two backends' runs go on at the same
 * time.
 *
 * <p>{@code -Dhistory.seconds=N} sets the workload's length; without it (the short run of {@code
 * verify}) the workload lasts until every fault kind of the backend has been injected once and the
 * workers have acknowledged {@value HistoryRun#MIN_ACKNOWLEDGED} operations, about 10 s. {@code
 * -Dhistory.seed=N} replays a run's seed (its workload and fault schedule; the timing of processes
 * is not replayable); {@code -Dhistory.backend=sqlite|postgres} runs one backend. Each run prints a
 * {@code HISTORY} line with its seed and figures and keeps its files (histories, worker logs, the
 * SQLite file) under {@code target/history/}.
 */
class HistoryCheckerTest {

  static {
    if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
        instanceof ch.qos.logback.classic.Logger root) {
      root.setLevel(ch.qos.logback.classic.Level.ERROR);
    }
  }

  /** The workload's length, or null for one fault of each kind. */
  static @Nullable Duration workload() {
    String s = System.getProperty("history.seconds", "");
    return s.isBlank() ? null : Duration.ofSeconds(Long.parseLong(s.trim()));
  }

  static long seed() {
    String s = System.getProperty("history.seed", "");
    return s.isBlank()
        ? ThreadLocalRandom.current().nextLong(1, 1_000_000)
        : Long.parseLong(s.trim());
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  @Execution(ExecutionMode.CONCURRENT) // the backends' runs at once (junit-platform.properties)
  @Timeout(value = 2, unit = TimeUnit.HOURS)
  void randomTurnsUnderFaults_leaveAHistoryWithNoAnomaly(Backend backend) throws Exception {
    List<Anomaly> anomalies = run(backend);
    assertThat(anomalies).as("anomalies (replay with the seed printed above)").isEmpty();
  }

  private static List<Anomaly> run(Backend backend) throws Exception {
    String only = System.getProperty("history.backend", "");
    Assumptions.assumeTrue(
        only.isBlank() || only.equalsIgnoreCase(backend.name()), "-Dhistory.backend=" + only);
    long seed = seed();
    @Nullable Duration workload = workload();
    Path dir = Path.of("target", "history", backend.name().toLowerCase() + "-" + seed);
    System.out.println(
        "HISTORY start backend="
            + backend
            + " seed="
            + seed
            + " (replay: -Dhistory.seed="
            + seed
            + ")");
    HistoryRun.Result result;
    try (HistoryRun run = new HistoryRun(backend, seed, workload, 4, dir)) {
      result = run.run();
    }
    System.out.println(result.summary(backend, seed));
    Map<Kind, Integer> kinds = new TreeMap<>();
    for (Anomaly a : result.report().anomalies()) {
      kinds.merge(a.kind(), 1, Integer::sum);
    }
    System.out.println("HISTORY anomalies by kind: " + kinds);
    result.report().anomalies().forEach(a -> System.out.println("ANOMALY " + a));
    Map<String, Long> okByProcess = new TreeMap<>();
    for (Entry e : result.history()) {
      if (e.type().equals(Entry.OK)) {
        okByProcess.merge(e.process(), 1L, Long::sum);
      }
    }
    System.out.println("HISTORY acknowledged operations by process: " + okByProcess);
    if (WorkerProcess.fakeTimeLibrary() == null) {
      System.out.println(
          "HISTORY clock skew not injected: libfaketime is missing (apt-get install faketime)");
    } else {
      // The skewed worker's wall clock was an hour ahead, and it completed operations.
      assertThat(result.skewMillis()).containsOnlyKeys("w0_0");
      assertThat(result.skewMillis().get("w0_0")).isBetween(3_590_000L, 3_610_000L);
      assertThat(okByProcess).containsKey("w0_0");
    }
    assertThat(result.report().counts().getOrDefault("ops.turn.ok", 0))
        .as("acknowledged turns")
        .isGreaterThan(20);
    return result.report().anomalies();
  }
}
