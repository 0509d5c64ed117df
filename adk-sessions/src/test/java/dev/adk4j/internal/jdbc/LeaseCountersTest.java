package dev.adk4j.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.sessions.LeaseStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A reader of {@link LeaseCounters} sees each renewal round whole: the counts and whether the
 * latest round was on time come from the same round. A health check once read a failed round
 * counted while the latest round still read as on time (UP where DOWN was due).
 */
class LeaseCountersTest {

  @Test
  void aSnapshot_neverMixesOneRoundsCountsWithAnotherRoundsOnTime() throws Exception {
    LeaseCounters counters = new LeaseCounters();
    Duration lease = Duration.ofSeconds(3);
    AtomicBoolean stop = new AtomicBoolean();
    // Rounds alternate: renewed on time, failed, renewed on time, failed... So after a renewal the
    // renewals are one more than the failed rounds and the round is on time; after a failure they
    // are equal and it is not; before the first round both are 0 and it is on time.
    Thread writer =
        new Thread(
            () -> {
              while (!stop.get()) {
                counters.round(1, 0, 0);
                counters.failedRound();
              }
            },
            "renewer");
    writer.start();
    List<LeaseStats> torn = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
    long reads = 0;
    try {
      while (System.nanoTime() < deadline && torn.size() < 5) {
        LeaseStats s = counters.stats(1, lease);
        reads++;
        boolean afterRenewal = s.renewals() == s.failedRounds() + 1;
        boolean afterFailure = s.renewals() == s.failedRounds() && s.renewals() > 0;
        boolean beforeAny = s.renewals() == 0 && s.failedRounds() == 0;
        if (!(afterRenewal && s.lastRoundOnTime())
            && !(afterFailure && !s.lastRoundOnTime())
            && !(beforeAny && s.lastRoundOnTime())) {
          torn.add(s);
        }
      }
    } finally {
      stop.set(true);
      writer.join();
    }
    assertThat(reads).isPositive();
    assertThat(torn).as("snapshots mixing two rounds, of %d read", reads).isEmpty();
  }

  @Test
  void noLeaseHeld_isOnTime_whateverTheLatestRound() {
    LeaseCounters counters = new LeaseCounters();
    counters.failedRound();
    assertThat(counters.stats(1, Duration.ofSeconds(3)).lastRoundOnTime()).isFalse();
    assertThat(counters.stats(0, Duration.ofSeconds(3)).lastRoundOnTime()).isTrue();
    counters.idle();
    assertThat(counters.stats(1, Duration.ofSeconds(3)).lastRoundOnTime()).isTrue();
  }
}
