package dev.adk4j.internal.jdbc;

import static dev.adk4j.internal.jdbc.SessionRows.describe;

import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.SessionNotFoundException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The lease columns of a session row, each change one transaction: an attempt to take the lease (or
 * claim the next turn), renewal, release. Times are the database's clock, in epoch ms, so that
 * instances on several machines agree. {@link Leases} waits, renews and releases with these.
 */
final class LeaseRows {

  private final Transactions tx;
  private final SqlText sql;
  private final DatabaseSessionConfig config;

  /** How renewals of this store's leases went. */
  final LeaseCounters counters = new LeaseCounters();

  LeaseRows(Transactions tx, SqlText sql, DatabaseSessionConfig config) {
    this.tx = tx;
    this.sql = sql;
    this.config = config;
  }

  /** How long a lease lasts unless renewed. */
  long leaseMillis() {
    return config.leaseDuration().toMillis();
  }

  /** Whether the store was closed: a lease still held then lapses when it expires. */
  boolean isClosed() {
    return tx.isClosed();
  }

  /** The lease columns of a session as one look at them found. */
  record LeaseState(
      long pk,
      @Nullable String owner,
      long until,
      @Nullable String nextOwner,
      long nextUntil,
      long now) {

    /**
     * Whether {@code me} may take the lease now: nobody holds it (or claims the next turn), or the
     * holder's lease expired, or the holder is a process on this host that is gone ({@link
     * LeaseOwners#isGone}).
     */
    boolean freeFor(String me) {
      boolean leaseFree =
          owner == null || until < now || owner.equals(me) || LeaseOwners.isGone(owner);
      boolean nextFree =
          nextOwner == null
              || nextUntil < now
              || nextOwner.equals(me)
              || LeaseOwners.isGone(nextOwner);
      return leaseFree && nextFree;
    }

    /**
     * Whether {@code me} should (re)claim the next turn: it is free, or its claim runs out soon.
     */
    boolean shouldClaim(String me, long claimMillis) {
      if (nextOwner == null || nextUntil < now) {
        return true;
      }
      return nextOwner.equals(me) && nextUntil - now < claimMillis / 2;
    }
  }

  /** The outcome of one attempt to take a lease: taken (with who held it before), or busy. */
  record LeaseAttempt(
      boolean taken, long pk, long until, @Nullable String previousOwner, LeaseState seen) {}

  /** How long a waiting owner's claim on the next turn lasts unless refreshed. */
  private static final long CLAIM_MILLIS = 1_000;

  /**
   * One attempt to take the lease of a session for {@code owner}: a write transaction that checks
   * and takes it (after the {@code first} attempt, only once a read finds it looking free). A
   * waiter that finds it busy claims the next turn, so that the holder cannot take it straight
   * back.
   *
   * @throws SessionNotFoundException if there is no such session
   */
  LeaseAttempt tryLease(String app, String user, String id, String owner, boolean first) {
    String context = describe(app, user, id);
    if (!first) {
      // While waiting, look before writing: most looks find the session still busy.
      LeaseState seen =
          tx.run(false, "read the lease of " + context, c -> leaseState(c, app, user, id, false));
      if (!seen.freeFor(owner) && !seen.shouldClaim(owner, CLAIM_MILLIS)) {
        return new LeaseAttempt(false, seen.pk(), seen.until(), seen.owner(), seen);
      }
    }
    return tx.run(
        true,
        "lease " + context,
        c -> {
          if (first) {
            // Nobody holds it and nobody waits (the usual case): one statement takes it.
            try (PreparedStatement ps = c.prepareStatement(sql.takeFreeLease)) {
              ps.setString(1, owner);
              ps.setLong(2, config.leaseDuration().toMillis());
              ps.setString(3, app);
              ps.setString(4, user);
              ps.setString(5, id);
              try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                  long pk = rs.getLong(1);
                  long until = rs.getLong(2);
                  LeaseState seen =
                      new LeaseState(
                          pk, null, 0, null, 0, until - config.leaseDuration().toMillis());
                  return new LeaseAttempt(true, pk, until, null, seen);
                }
              }
            }
          }
          LeaseState now = leaseState(c, app, user, id, true);
          if (now.freeFor(owner)) {
            long until;
            try (PreparedStatement ps = c.prepareStatement(sql.takeLease)) {
              ps.setString(1, owner);
              ps.setLong(2, config.leaseDuration().toMillis());
              ps.setLong(3, now.pk());
              try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                until = rs.getLong(1);
              }
            }
            String previous =
                now.owner() != null && !now.owner().equals(owner) ? now.owner() : null;
            return new LeaseAttempt(true, now.pk(), until, previous, now);
          }
          if (now.shouldClaim(owner, CLAIM_MILLIS)) {
            try (PreparedStatement ps = c.prepareStatement(sql.claimNext)) {
              ps.setString(1, owner);
              ps.setLong(2, CLAIM_MILLIS);
              ps.setLong(3, now.pk());
              ps.executeUpdate();
            }
          }
          return new LeaseAttempt(false, now.pk(), now.until(), now.owner(), now);
        });
  }

  private LeaseState leaseState(Connection c, String app, String user, String id, boolean lock)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(lock ? sql.selectLeaseForUpdate : sql.selectLease)) {
      ps.setString(1, app);
      ps.setString(2, user);
      ps.setString(3, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SessionNotFoundException(app, user, id);
        }
        return new LeaseState(
            rs.getLong(1),
            rs.getString(2),
            rs.getLong(3),
            rs.getString(4),
            rs.getLong(5),
            rs.getLong(6));
      }
    }
  }

  /**
   * Renews the leases {@code held} (pk to owner) in one transaction, a statement per {@value
   * #RENEW_BATCH} leases; returns the pks whose lease {@code held}'s owner still had (and now has
   * for another lease duration). A pk missing from the answer was taken over.
   */
  java.util.Set<Long> renewLeases(java.util.Map<Long, String> held) {
    List<java.util.Map.Entry<Long, String>> all = List.copyOf(held.entrySet());
    return tx.run(
        true,
        "renew " + all.size() + " leases",
        c -> {
          java.util.Set<Long> renewed = new java.util.HashSet<>();
          for (int from = 0; from < all.size(); from += RENEW_BATCH) {
            List<java.util.Map.Entry<Long, String>> batch =
                all.subList(from, Math.min(all.size(), from + RENEW_BATCH));
            String marks = String.join(", ", java.util.Collections.nCopies(batch.size(), "?"));
            String statement =
                sql.renewLeasesPrefix
                    + marks
                    + ") AND lease_owner IN ("
                    + marks
                    + ") RETURNING pk, lease_owner";
            try (PreparedStatement ps = c.prepareStatement(statement)) {
              int i = 1;
              ps.setLong(i++, config.leaseDuration().toMillis());
              for (java.util.Map.Entry<Long, String> e : batch) {
                ps.setLong(i++, e.getKey());
              }
              for (java.util.Map.Entry<Long, String> e : batch) {
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

  /** Releases a lease {@code owner} holds, and any claim it left on the next turn. */
  void releaseLease(long pk, String owner, String context, boolean finished) {
    tx.runVoid(
        true,
        "release the lease of " + context,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(finished ? sql.releaseLeaseAndClaim : sql.abandonLeaseAndClaim)) {
            int i = 1;
            for (int n = finished ? 4 : 3; n > 0; n--) {
              ps.setString(i++, owner);
            }
            ps.setLong(i++, pk);
            ps.setString(i++, owner);
            ps.setString(i, owner);
            ps.executeUpdate();
          }
        });
  }

  /** Drops a claim on the next turn that a waiter gave up. */
  void dropClaim(long pk, String owner, String context) {
    tx.runVoid(
        true,
        "drop the lease claim on " + context,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql.dropClaim)) {
            ps.setLong(1, pk);
            ps.setString(2, owner);
            ps.executeUpdate();
          }
        });
  }
}
