package dev.adk4j.history;

import dev.adk4j.history.Checker.Anomaly;
import dev.adk4j.history.Checker.Report;
import dev.adk4j.sessions.DatabaseSessionService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Checks a kept SQLite run again, from its folder ({@code target/history/sqlite-<seed>}): its
 * history files and its database. Prints every anomaly. Arguments: the folder. The skewed worker's
 * times are not moved back here, so read its stale-read reports with care.
 */
public final class Recheck {
  private Recheck() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    List<Path> files;
    try (var list = Files.list(dir)) {
      files = list.filter(p -> p.getFileName().toString().startsWith("history-")).sorted().toList();
    }
    List<Entry> history = HistoryLog.read(files);
    Report report;
    try (DatabaseSessionService sessions =
        new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("history.db"))) {
      report = Checker.check(history, HistoryRun.read(sessions));
    }
    System.out.println(report.counts());
    for (Anomaly a : report.anomalies()) {
      System.out.println(a);
    }
  }
}
