package dev.adk4j.internal.jdbc;

import static dev.adk4j.internal.jdbc.SessionRows.describe;

import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.SessionNotFoundException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The lease columns of a session row and the session's queue of waiters ({@code
 * adk_session_waiters}), each change one transaction: an attempt to take the lease (or to queue for
 * it, or keep a place in the queue), renewal, release. Times are epoch ms by the service's clock
 * ({@link DatabaseSessionConfig#clock()}). {@link Leases} waits, renews and releases with these.
 *
 * <p>The lease goes to waiters in the order they arrived: a waiter takes its place (a {@code seq}
 * one above the session's last) in the transaction of its first attempt, which holds the session
 * row's lock (PostgreSQL) or the file's write lock (SQLite); the lease is then taken only by the
 * first live waiter. A waiter keeps its place by refreshing it while it waits; a place not
 * refreshed for a lease duration (its process stopped, or stalled that long) lapses.
 */
final class LeaseRows {

  private final Transactions tx;
  private final SqlText sql;
  private final DatabaseSessionConfig config;
  private final Clock clock;

  /** How renewals of this store's leases went. */
  final LeaseCounters counters = new LeaseCounters();

  /** Leases on first append not taken yet, by owner (see {@link Leases#onFirstAppend}). */
  final Map<String, Leases.DbLease> pending = new java.util.concurrent.ConcurrentHashMap<>();

  /** Notified when a lease of this store is released in this process: its waiters look again. */
  final Object released = new Object();

  LeaseRows(Transactions tx, SqlText sql, DatabaseSessionConfig config) {
    this.tx = tx;
    this.sql = sql;
    this.config = config;
    this.clock = config.clock();
  }

  /** How long a lease lasts unless renewed. */
  long leaseMillis() {
    return config.leaseDuration().toMillis();
  }

  /**
   * How long after its expiry an unreleased lease is still left to its holder: a third of the lease
   * (a renewal round that is late by less than that, or a clock that is behind by less, costs the
   * holder nothing).
   */
  long graceMillis() {
    return leaseMillis() / 3;
  }

  /** How long a waiter's place lasts unless refreshed: a lease duration. */
  long placeMillis() {
    return leaseMillis();
  }

  Clock clock() {
    return clock;
  }

  DatabaseSessionConfig config() {
    return config;
  }

  /** Whether the store was closed: a lease still held then lapses when it expires. */
  boolean isClosed() {
    return tx.isClosed();
  }

  /** A place in a session's queue. */
  record Waiter(long seq, String owner, long until) {}

  /** The lease of a session and its queue as one look found them. */
  record LeaseState(
      long pk, @Nullable String owner, long until, List<Waiter> waiters, long now, long grace) {

    /**
     * Whether the lease itself may go to {@code me}: nobody holds it, or the holder's lease expired
     * more than the grace ago (or was given up unfinished), or the holder is {@code me}, or a
     * process on this host that is gone ({@link LeaseOwners#isGone}).
     */
    boolean leaseFreeFor(String me) {
      return owner == null
          || until == 0
          || until + grace < now
          || owner.equals(me)
          || LeaseOwners.isGone(owner);
    }

    /** The first live waiter, or null if none waits. */
    @Nullable Waiter head() {
      for (Waiter w : waiters) {
        if (w.until() >= now && !LeaseOwners.isGone(w.owner())) {
          return w;
        }
      }
      return null;
    }

    /** {@code me}'s place, or null. */
    @Nullable Waiter placeOf(String me) {
      for (Waiter w : waiters) {
        if (w.owner().equals(me)) {
          return w;
        }
      }
      return null;
    }

    /** Whether {@code me} may take the lease now: it is free and nobody waits before {@code me}. */
    boolean turnOf(String me) {
      if (!leaseFreeFor(me)) {
        return false;
      }
      Waiter head = head();
      return head == null || head.owner().equals(me);
    }

    /** How many live waiters are ahead of {@code me} (all of them if {@code me} has no place). */
    int ahead(String me) {
      int n = 0;
      for (Waiter w : waiters) {
        if (w.owner().equals(me)) {
          return n;
        }
        if (w.until() >= now) {
          n++;
        }
      }
      return n;
    }
  }

  /**
   * The outcome of one attempt to take a lease: taken (with who held it before, if it was taken
   * over), or not (then {@code seen} says who holds it and who waits).
   */
  record LeaseAttempt(boolean taken, long pk, @Nullable String previousOwner, LeaseState seen) {}

  /**
   * One attempt to take the lease of a session for {@code owner}. The {@code first} attempt is a
   * write transaction: one statement takes a lease that nobody holds and nobody waits for; else,
   * with the row locked, it takes the lease if it is {@code owner}'s turn, or queues {@code owner}
   * behind the session's waiters. Later attempts look first (a read) and write only when it is
   * {@code owner}'s turn or its place needs refreshing.
   *
   * @throws SessionNotFoundException if there is no such session
   */
  LeaseAttempt tryLease(String app, String user, String id, String owner, boolean first) {
    String context = describe(app, user, id);
    if (!first) {
      // While waiting, look before writing: most looks find the session still busy.
      LeaseState seen =
          tx.run(false, "read the lease of " + context, c -> leaseState(c, app, user, id, false));
      Waiter mine = seen.placeOf(owner);
      boolean refresh = mine == null || mine.until() - seen.now() < placeMillis() * 2 / 3;
      if (!seen.turnOf(owner) && !refresh) {
        return new LeaseAttempt(false, seen.pk(), seen.owner(), seen);
      }
    }
    return tx.run(
        true,
        "lease " + context,
        c -> {
          long now = clock.millis();
          if (first) {
            // Nobody holds it and nobody waits (the usual case): one statement takes it.
            try (PreparedStatement ps = c.prepareStatement(sql.takeFreeLease)) {
              ps.setString(1, owner);
              ps.setLong(2, now + leaseMillis());
              ps.setString(3, app);
              ps.setString(4, user);
              ps.setString(5, id);
              ps.setLong(6, now);
              try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                  long pk = rs.getLong(1);
                  return new LeaseAttempt(
                      true, pk, null, new LeaseState(pk, null, 0, List.of(), now, graceMillis()));
                }
              }
            }
          }
          LeaseState state = leaseState(c, app, user, id, true);
          long pk = state.pk();
          if (state.waiters().stream().anyMatch(w -> w.until() < state.now())) {
            try (PreparedStatement ps = c.prepareStatement(sql.deleteLapsedWaiters)) {
              ps.setLong(1, pk);
              ps.setLong(2, state.now());
              ps.executeUpdate();
            }
          }
          Waiter mine = state.placeOf(owner);
          if (state.turnOf(owner)) {
            try (PreparedStatement ps = c.prepareStatement(sql.takeLease)) {
              ps.setString(1, owner);
              ps.setLong(2, state.now() + leaseMillis());
              ps.setLong(3, pk);
              ps.executeUpdate();
            }
            if (mine != null) {
              deleteWaiter(c, pk, owner);
            }
            String previous =
                state.owner() != null && !state.owner().equals(owner) ? state.owner() : null;
            return new LeaseAttempt(true, pk, previous, state);
          }
          if (mine == null || mine.until() < state.now()) {
            // A place at the end of the queue (again, if the one it had lapsed).
            if (mine != null) {
              deleteWaiter(c, pk, owner);
            }
            try (PreparedStatement ps = c.prepareStatement(sql.insertWaiter)) {
              ps.setLong(1, pk);
              ps.setString(2, owner);
              ps.setLong(3, state.now() + placeMillis());
              ps.setLong(4, pk);
              ps.executeUpdate();
            }
          } else {
            try (PreparedStatement ps = c.prepareStatement(sql.refreshWaiter)) {
              ps.setLong(1, state.now() + placeMillis());
              ps.setLong(2, pk);
              ps.setString(3, owner);
              ps.executeUpdate();
            }
          }
          return new LeaseAttempt(false, pk, state.owner(), state);
        });
  }

  private void deleteWaiter(Connection c, long pk, String owner) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.deleteWaiter)) {
      ps.setLong(1, pk);
      ps.setString(2, owner);
      ps.executeUpdate();
    }
  }

  private LeaseState leaseState(Connection c, String app, String user, String id, boolean lock)
      throws SQLException {
    long pk;
    String owner;
    long until;
    try (PreparedStatement ps =
        c.prepareStatement(lock ? sql.selectLeaseForUpdate : sql.selectLease)) {
      ps.setString(1, app);
      ps.setString(2, user);
      ps.setString(3, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SessionNotFoundException(app, user, id);
        }
        pk = rs.getLong(1);
        owner = rs.getString(2);
        until = rs.getLong(3);
      }
    }
    List<Waiter> waiters = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql.selectWaiters)) {
      ps.setLong(1, pk);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          waiters.add(new Waiter(rs.getLong(1), rs.getString(2), rs.getLong(3)));
        }
      }
    }
    return new LeaseState(pk, owner, until, waiters, clock.millis(), graceMillis());
  }

  /**
   * Renews the leases {@code held} (pk to owner) in one transaction, a statement per {@value
   * #RENEW_BATCH} leases; returns the pks whose lease {@code held}'s owner still had (and now has
   * for another lease duration). A pk missing from the answer was taken over.
   */
  Set<Long> renewLeases(Map<Long, String> held) {
    List<Map.Entry<Long, String>> all = List.copyOf(held.entrySet());
    return tx.run(
        true,
        "renew " + all.size() + " leases",
        c -> {
          long until = clock.millis() + leaseMillis();
          Set<Long> renewed = new HashSet<>();
          for (int from = 0; from < all.size(); from += RENEW_BATCH) {
            List<Map.Entry<Long, String>> batch =
                all.subList(from, Math.min(all.size(), from + RENEW_BATCH));
            String marks = String.join(", ", Collections.nCopies(batch.size(), "?"));
            String statement =
                sql.renewLeasesPrefix
                    + marks
                    + ") AND lease_owner IN ("
                    + marks
                    + ") RETURNING pk, lease_owner";
            try (PreparedStatement ps = c.prepareStatement(statement)) {
              int i = 1;
              ps.setLong(i++, until);
              for (Map.Entry<Long, String> e : batch) {
                ps.setLong(i++, e.getKey());
              }
              for (Map.Entry<Long, String> e : batch) {
                ps.setString(i++, e.getValue());
              }
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  long pk = rs.getLong(1);
                  if (rs.getString(2).equals(held.get(pk))) {
                    renewed.add(pk);
                  }
                }
              }
            }
          }
          return renewed;
        });
  }

  /** The most leases one renewal statement names (each takes two parameters). */
  static final int RENEW_BATCH = 200;

  /** Releases a lease {@code owner} holds ({@code finished}), or gives it up unfinished. */
  void releaseLease(long pk, String owner, String context, boolean finished) {
    tx.runVoid(
        true,
        "release the lease of " + context,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(finished ? sql.releaseLease : sql.abandonLease)) {
            ps.setLong(1, pk);
            ps.setString(2, owner);
            ps.executeUpdate();
          }
        });
  }

  /** Leaves the queue of a session (a waiter that gave up). */
  void leaveQueue(long pk, String owner, String context) {
    tx.runVoid(
        true,
        "leave the lease queue of " + context,
        c -> {
          deleteWaiter(c, pk, owner);
        });
  }
}
