package dev.adk4j.internal.jdbc;

import dev.adk4j.sessions.LeaseStats;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** The renewal counters of one store's leases, read as {@link LeaseStats}. */
final class LeaseCounters {
  private final AtomicLong renewals = new AtomicLong();
  private final AtomicLong late = new AtomicLong();
  private final AtomicLong failedRounds = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();
  private volatile boolean lastRoundOnTime = true;

  void round(long renewed, long lateInRound, long lostInRound) {
    renewals.addAndGet(renewed);
    late.addAndGet(lateInRound);
    lost.addAndGet(lostInRound);
    lastRoundOnTime = lateInRound == 0;
  }

  void failedRound() {
    failedRounds.incrementAndGet();
    lastRoundOnTime = false;
  }

  /** Nothing is held: nothing can be late. */
  void idle() {
    lastRoundOnTime = true;
  }

  LeaseStats stats(int held, Duration leaseDuration) {
    return new LeaseStats(
        held,
        renewals.get(),
        late.get(),
        failedRounds.get(),
        lost.get(),
        held == 0 || lastRoundOnTime,
        leaseDuration);
  }
}
