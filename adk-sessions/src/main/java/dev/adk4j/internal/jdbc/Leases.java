package dev.adk4j.internal.jdbc;

import dev.adk4j.sessions.LeaseStats;
import dev.adk4j.sessions.SessionBusyException;
import dev.adk4j.sessions.SessionLease;
import dev.adk4j.sessions.SessionWait;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Session leases stored in the database: acquisition with a bounded wait (a place in the session's
 * queue, so that waiters in any number of processes are served in the order they arrived, polling
 * with backoff and woken at once by a release in this process), renewal in the background while
 * held (all of a store's leases in one transaction per interval, on the configured scheduler),
 * release. Time is the configured clock's.
 */
final class Leases {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Leases.class);

  /** The longest pause between two looks at a busy lease. */
  private static final long MAX_POLL_MILLIS = 50;

  /** The leases this process holds, by store. */
  private static final Map<LeaseRows, Renewer> RENEWERS = new ConcurrentHashMap<>();

  private Leases() {}

  /**
   * The leases this process holds in one store, renewed together: one transaction per interval (a
   * third of the lease duration) whatever their number, so that a slow database delays one renewal,
   * not one per lease in turn. A round that comes late costs no lease: a waiter takes an unreleased
   * lease only a grace (a third of the lease) after it expired, and every append of the holder
   * extends its lease in the append's own statement.
   */
  private static final class Renewer {
    private final LeaseRows rows;
    private final Set<DbLease> held = ConcurrentHashMap.newKeySet();
    private final ScheduledFuture<?> task;

    Renewer(LeaseRows rows) {
      this.rows = rows;
      long every = Math.max(10, rows.leaseMillis() / 3);
      this.task =
          rows.config()
              .scheduler()
              .scheduleWithFixedDelay(this::renewAll, every, every, TimeUnit.MILLISECONDS);
    }

    static void add(DbLease lease) {
      RENEWERS.computeIfAbsent(lease.rows, Renewer::new).held.add(lease);
    }

    static void remove(DbLease lease) {
      Renewer r = RENEWERS.get(lease.rows);
      if (r != null) {
        r.held.remove(lease);
      }
    }

    private void renewAll() {
      if (rows.isClosed()) {
        // The store was closed with leases still held: they lapse when they expire.
        for (DbLease lease : held) {
          lease.held = false;
        }
        held.clear();
        task.cancel(false);
        RENEWERS.remove(rows, this);
        return;
      }
      List<DbLease> leases = List.copyOf(held);
      if (leases.isEmpty()) {
        rows.counters.idle();
        return;
      }
      Map<Long, String> owners = new HashMap<>();
      for (DbLease lease : leases) {
        owners.put(lease.pk, lease.owner);
      }
      long start = rows.clock().millis();
      Set<Long> renewed;
      try {
        renewed = rows.renewLeases(owners);
      } catch (RuntimeException e) {
        rows.counters.failedRound();
        log.warn("Could not renew {} leases; will retry: {}", leases.size(), e.toString());
        return;
      }
      long end = rows.clock().millis();
      // Late: less than a third of the lease was left when its renewal completed.
      long lateAfter = rows.leaseMillis() * 2 / 3;
      long renewedCount = 0;
      long late = 0;
      long lost = 0;
      for (DbLease lease : leases) {
        if (renewed.contains(lease.pk)) {
          renewedCount++;
          if (end - lease.extendedAt > lateAfter) {
            late++;
          }
          lease.extendedAt = start;
        } else if (lease.held) {
          lease.held = false;
          held.remove(lease);
          lost++;
          log.warn(
              "Lost the lease of {} held as '{}': it expired and another instance took it over;"
                  + " this invocation's further appends will be refused",
              lease.context,
              lease.owner);
        }
      }
      rows.counters.round(renewedCount, late, lost);
    }
  }

  /** How the leases of {@code rows}' store are being renewed. */
  static LeaseStats stats(LeaseRows rows) {
    Renewer r = RENEWERS.get(rows);
    return rows.counters.stats(
        r == null ? 0 : r.held.size(), Duration.ofMillis(rows.leaseMillis()));
  }

  static SessionLease acquire(
      LeaseRows rows,
      String app,
      String user,
      String id,
      Duration maxWait,
      Consumer<SessionWait> onWait)
      throws InterruptedException {
    String owner = LeaseOwners.newOwner();
    String context = SessionRows.describe(app, user, id);
    long start = rows.clock().millis();
    long deadline = start + maxWait.toMillis();
    long pause = 1;
    LeaseRows.LeaseAttempt attempt;
    for (boolean first = true; ; first = false) {
      attempt = rows.tryLease(app, user, id, owner, first);
      if (attempt.taken()) {
        break;
      }
      LeaseRows.LeaseState seen = attempt.seen();
      if (first) {
        long heldFor = Math.max(0, seen.until() - seen.now());
        int ahead = seen.ahead(owner);
        log.info(
            "Waiting up to {} ms for the lease of {}: '{}' holds it for {} ms more{}",
            maxWait.toMillis(),
            context,
            attempt.previousOwner(),
            heldFor,
            ahead == 0 ? "" : ", and " + ahead + " waiting turns come before this one");
        onWait.accept(
            new SessionWait(
                app, user, id, attempt.previousOwner(), Duration.ofMillis(heldFor), maxWait));
      }
      long left = deadline - rows.clock().millis();
      if (left <= 0) {
        try {
          rows.leaveQueue(attempt.pk(), owner, context);
        } catch (RuntimeException e) {
          log.debug("Could not leave the lease queue of {}: {}", context, e.toString());
        }
        throw new SessionBusyException(
            app,
            user,
            id,
            attempt.previousOwner(),
            Instant.ofEpochMilli(seen.until()),
            "another invocation still held the session after waiting "
                + maxWait.toMillis()
                + " ms for it");
      }
      long sleep =
          Math.min(pause + ThreadLocalRandom.current().nextLong(pause + 1), MAX_POLL_MILLIS);
      synchronized (rows.released) {
        // A release in this process wakes its waiters at once; others are seen at the next look.
        rows.released.wait(Math.max(1, Math.min(sleep, left)));
      }
      pause = Math.min(pause * 2, MAX_POLL_MILLIS);
    }
    if (attempt.previousOwner() != null) {
      LeaseRows.LeaseState seen = attempt.seen();
      if (seen.until() >= seen.now()) {
        log.warn(
            "Took over the lease of {} from '{}' before it expired: that process, on this host, is"
                + " no longer running",
            context,
            attempt.previousOwner());
      } else {
        log.warn(
            "Took over the lease of {} from '{}', which expired without being released (its"
                + " holder probably stopped)",
            context,
            attempt.previousOwner());
      }
    }
    long waited = rows.clock().millis() - start;
    log.debug("Leased {} as '{}' after {} ms", context, owner, waited);
    DbLease lease =
        new DbLease(rows, attempt.pk(), owner, context, attempt.previousOwner() != null, true);
    Renewer.add(lease);
    return lease;
  }

  /**
   * A lease that the first append through a copy attached to it takes, in that append's statement
   * that bumps the revision ({@link SqlText#bumpRevisionTakingLease}): no transaction of its own.
   * Registered as pending under its owner until then, so that the store's append knows to take it.
   */
  static SessionLease onFirstAppend(LeaseRows rows, String app, String user, String id) {
    DbLease lease =
        new DbLease(
            rows, 0, LeaseOwners.newOwner(), SessionRows.describe(app, user, id), false, false);
    rows.pending.put(lease.owner, lease);
    return lease;
  }

  /**
   * What an append by {@code owner} must do to take its lease: give the session's pk, once the
   * append committed, to the returned consumer; null if {@code owner} has no lease waiting for its
   * first append in this store.
   */
  static java.util.function.@Nullable LongConsumer pendingTake(
      LeaseRows rows, @Nullable String owner) {
    if (owner == null) {
      return null;
    }
    DbLease lease = rows.pending.get(owner);
    return lease == null ? null : lease::taken;
  }

  static final class DbLease implements SessionLease {
    private final LeaseRows rows;

    /** The session's pk; known once taken. */
    private volatile long pk;

    private final String owner;
    private final String context;
    private final boolean tookOver;
    private volatile boolean held = true;

    /** Whether the lease is in the database: taken when made, or by its first append. */
    private boolean taken;

    /** When the lease was last extended (taken, or the start of the round that renewed it). */
    private volatile long extendedAt;

    DbLease(
        LeaseRows rows, long pk, String owner, String context, boolean tookOver, boolean taken) {
      this.rows = rows;
      this.pk = pk;
      this.owner = owner;
      this.context = context;
      this.tookOver = tookOver;
      this.taken = taken;
      this.extendedAt = rows.clock().millis();
    }

    /** The first append took this lease in the database: it is renewed from now on. */
    synchronized void taken(long sessionPk) {
      rows.pending.remove(owner);
      if (taken) {
        return;
      }
      pk = sessionPk;
      taken = true;
      extendedAt = rows.clock().millis();
      log.debug("Leased {} as '{}' with its first append", context, owner);
      if (held) {
        Renewer.add(this);
      } else {
        // Closed while its first append ran: the lease is in the database, release it now.
        held = true;
        release(true);
      }
    }

    @Override
    public String owner() {
      return owner;
    }

    @Override
    public boolean isHeld() {
      return held;
    }

    @Override
    public boolean tookOver() {
      return tookOver;
    }

    @Override
    public void close() {
      release(true);
    }

    @Override
    public void closeUnfinished() {
      release(false);
    }

    private synchronized void release(boolean finished) {
      Renewer.remove(this);
      if (!held) {
        return;
      }
      held = false;
      if (!taken) {
        // No append took it: there is nothing in the database to release.
        rows.pending.remove(owner);
        return;
      }
      try {
        rows.releaseLease(pk, owner, context, finished);
      } catch (RuntimeException e) {
        log.warn(
            "Could not release the lease of {}; it lapses when it expires: {}",
            context,
            e.toString());
      }
      synchronized (rows.released) {
        rows.released.notifyAll();
      }
    }

    @Override
    public String toString() {
      return "SessionLease{" + context + ", owner=" + owner + ", held=" + held + "}";
    }
  }
}
