package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DatabaseSessionService#leaseStats()} on a SQLite file: held leases are counted, renewals
 * are counted, a round the database refuses (another connection holds the write lock longer than
 * the busy timeout) is counted failed, and the renewal after it, with less than a third of the
 * lease left, late; the next round is on time again.
 */
class SqliteLeaseStatsTest {

  @TempDir Path dir;

  @Test
  void renewals_failedRounds_andLateRenewals_areCounted() throws Exception {
    String url = "jdbc:sqlite:" + dir.resolve("sessions.db");
    // Renewed every 200 ms; late after 400 ms; a write waits 100 ms for the lock per attempt.
    DatabaseSessionConfig config =
        DatabaseSessionConfig.builder()
            .leaseDuration(Duration.ofMillis(600))
            .busyTimeout(Duration.ofMillis(100))
            .build();
    try (LogCapture logs = LogCapture.everything(Level.INFO);
        DatabaseSessionService service = new DatabaseSessionService(url, config)) {
      service.createSession("app", "u", null, "s").blockingGet();
      LeaseStats before = service.leaseStats();
      assertThat(before.held()).isZero();
      assertThat(before.lastRoundOnTime()).isTrue();
      assertThat(before.leaseDuration()).isEqualTo(Duration.ofMillis(600));

      try (SessionLease lease =
          service.acquireLease("app", "u", "s", Duration.ofSeconds(5)).blockingGet()) {
        assertThat(service.leaseStats().held()).isEqualTo(1);
        LeaseStats renewed = await(service, s -> s.renewals() >= 1);
        assertThat(renewed.failedRounds()).isZero();

        try (Connection blocker = DriverManager.getConnection(url);
            Statement st = blocker.createStatement()) {
          st.execute("BEGIN IMMEDIATE");
          LeaseStats failed = await(service, s -> s.failedRounds() >= 1);
          assertThat(failed.lastRoundOnTime()).isFalse();
          assertThat(failed.held()).isEqualTo(1);
          st.execute("ROLLBACK");
        }
        // The next round comes an interval after the failed one, itself an interval after the
        // last extension and slower than the busy timeout: more than two thirds of the lease.
        LeaseStats late = await(service, s -> s.lateRenewals() >= 1);
        assertThat(late.lostLeases()).isZero();
        assertThat(lease.isHeld()).isTrue();
        await(service, LeaseStats::lastRoundOnTime);
      }
      LeaseStats after = service.leaseStats();
      assertThat(after.held()).isZero();
      assertThat(after.lastRoundOnTime()).isTrue();
      assertThat(logs.lines()).anyMatch(l -> l.startsWith("WARN Could not renew 1 leases"));
    }
  }

  private static LeaseStats await(DatabaseSessionService service, Predicate<LeaseStats> done)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (true) {
      LeaseStats s = service.leaseStats();
      if (done.test(s)) {
        return s;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("lease stats never matched: " + s);
      }
      Thread.sleep(20);
    }
  }
}
