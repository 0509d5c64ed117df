package dev.adk4j.internal.jdbc;

import dev.adk4j.sessions.LeaseStats;
import java.time.Duration;

/**
 * The renewal counters of one store's leases, read as {@link LeaseStats}. A round's counts and
 * whether it was on time change together under this object's lock, so a reader never sees a failed
 * round counted while the latest round still reads as on time (a health check did, between the two
 * writes, when they were separate atomics). Written once per renewal round, read by health checks.
 */
final class LeaseCounters {
  private long renewals;
  private long late;
  private long failedRounds;
  private long lost;
  private boolean lastRoundOnTime = true;

  synchronized void round(long renewed, long lateInRound, long lostInRound) {
    renewals += renewed;
    late += lateInRound;
    lost += lostInRound;
    lastRoundOnTime = lateInRound == 0;
  }

  synchronized void failedRound() {
    failedRounds++;
    lastRoundOnTime = false;
  }

  /** Nothing is held: nothing can be late. */
  synchronized void idle() {
    lastRoundOnTime = true;
  }

  synchronized LeaseStats stats(int held, Duration leaseDuration) {
    return new LeaseStats(
        held, renewals, late, failedRounds, lost, held == 0 || lastRoundOnTime, leaseDuration);
  }
}
