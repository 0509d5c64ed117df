package dev.adk4j.sessions;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link DatabaseSessionService}'s session leases are being renewed, for health checks and
 * monitoring ({@link DatabaseSessionService#leaseStats()}). A held lease is renewed every third of
 * {@link #leaseDuration()}, all of the service's leases in one transaction (a renewal round); a
 * renewal is <em>late</em> when less than a third of the lease was left when it completed (the
 * renewal thread or the database was slow), and a round <em>fails</em> when the database refuses it
 * (it is tried again at the next interval). The counters count since the service started.
 *
 * @param held the leases the service holds now (invocations running on its sessions)
 * @param renewals lease renewals that succeeded (one per lease per round)
 * @param lateRenewals of those, the ones completed with less than a third of the lease left
 * @param failedRounds renewal rounds that failed with a database error
 * @param lostLeases leases a round found taken over by another instance (their invocations' further
 *     appends are refused)
 * @param lastRoundOnTime whether the latest round renewed every lease on time: it did not fail and
 *     no renewal in it was late. True before the first round, and again once no lease is held
 * @param leaseDuration how long a lease lasts unless renewed
 */
public record LeaseStats(
    int held,
    long renewals,
    long lateRenewals,
    long failedRounds,
    long lostLeases,
    boolean lastRoundOnTime,
    Duration leaseDuration) {

  public LeaseStats {
    Objects.requireNonNull(leaseDuration, "leaseDuration");
  }
}
