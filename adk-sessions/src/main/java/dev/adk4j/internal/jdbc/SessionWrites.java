package dev.adk4j.internal.jdbc;

import static dev.adk4j.internal.jdbc.SessionRows.describe;

import dev.adk4j.events.Event;
import dev.adk4j.internal.jdbc.StateWrites.StateOp;
import dev.adk4j.sessions.PendingAppend;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionAlreadyExistsException;
import dev.adk4j.sessions.SessionBusyException;
import dev.adk4j.sessions.SessionException;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.sessions.SessionStore.Appended;
import dev.adk4j.sessions.SessionStore.SessionRef;
import dev.adk4j.sessions.SessionStore.Trimmed;
import dev.adk4j.sessions.StaleSessionException;
import dev.adk4j.state.Scope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The store's writes of sessions and events, each one write transaction: create a session, delete
 * one, append an event.
 */
final class SessionWrites {

  private final Transactions tx;
  private final SqlText sql;
  private final Dialect dialect;
  private final SessionRows rows;
  private final StateWrites state;
  private final java.time.Clock clock;

  /** How long a lease lasts from a write of its holder (which extends it). */
  private final long leaseMillis;

  SessionWrites(
      Transactions tx, SqlText sql, SessionRows rows, java.time.Clock clock, long leaseMillis) {
    this.clock = clock;
    this.leaseMillis = leaseMillis;
    this.tx = tx;
    this.sql = sql;
    this.dialect = tx.dialect();
    this.rows = rows;
    this.state = new StateWrites(sql, tx.dialect());
  }

  /**
   * Creates a session at revision 0 with {@code initial} applied to its scopes, and returns it with
   * its merged state.
   *
   * @throws SessionAlreadyExistsException if the id is taken for that app and user
   */
  Session create(
      String app, String user, String id, Scope.Split initial, @Nullable Duration timeToLive) {
    String context = describe(app, user, id);
    List<List<StateOp>> ops = state.encode(initial, Map.of(), Map.of());
    return tx.run(
        true,
        "create " + context,
        c -> {
          Instant now = clock.instant();
          // An expired session of this id is as if deleted: delete it for good, freeing the id.
          try (PreparedStatement ps = c.prepareStatement(sql.deleteExpiredSession)) {
            ps.setString(1, app);
            ps.setString(2, user);
            ps.setString(3, id);
            ps.setLong(4, now.toEpochMilli());
            List<Long> expired = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                expired.add(rs.getLong(1));
              }
            }
            deleteOwnRows(c, expired);
          }
          long pk;
          try (PreparedStatement ps = c.prepareStatement(sql.insertSession)) {
            ps.setString(1, app);
            ps.setString(2, user);
            ps.setString(3, id);
            ps.setLong(4, now.getEpochSecond());
            ps.setInt(5, now.getNano());
            if (timeToLive == null) {
              ps.setNull(6, Types.BIGINT);
              ps.setNull(7, Types.BIGINT);
            } else {
              ps.setLong(6, timeToLive.toMillis());
              ps.setLong(7, now.toEpochMilli() + timeToLive.toMillis());
            }
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                throw new SessionAlreadyExistsException(app, user, id);
              }
              pk = rs.getLong(1);
            }
          }
          Pipeline pipeline = new Pipeline(c, dialect);
          state.applyState(pipeline, c, app, user, pk, ops, null, new HashMap<>());
          pipeline.run();
          Map<String, Object> merged = rows.readState(c, app, user, pk, context);
          return Session.builder(id)
              .appName(app)
              .userId(user)
              .state(merged)
              .lastUpdateTime(now)
              .revision(0)
              .build();
        });
  }

  /** Deletes a session, its state and its events, if it exists. App and user state stay. */
  void delete(String app, String user, String id) {
    tx.runVoid(
        true,
        "delete " + describe(app, user, id),
        c -> {
          Long pk = null;
          // The session row goes first: on PostgreSQL this waits for an append in progress on it,
          // and makes later appends find no session.
          try (PreparedStatement ps = c.prepareStatement(sql.deleteSession)) {
            ps.setString(1, app);
            ps.setString(2, user);
            ps.setString(3, id);
            try (ResultSet rs = ps.executeQuery()) {
              if (rs.next()) {
                pk = rs.getLong(1);
              }
            }
          }
          if (pk != null) {
            deleteOwnRows(c, List.of(pk));
          }
        });
  }

  /**
   * Deletes the events and session state of deleted sessions. Foreign keys cascade; this also
   * cleans up where they are not enforced (a SQLite DataSource opened without foreign_keys).
   */
  private void deleteOwnRows(Connection c, List<Long> pks) throws SQLException {
    if (pks.isEmpty()) {
      return;
    }
    for (String delete :
        List.of(sql.deleteEvents, sql.deleteSessionState, StateHistoryRows.DELETE_SESSION)) {
      try (PreparedStatement ps = c.prepareStatement(delete)) {
        for (long pk : pks) {
          ps.setLong(1, pk);
          ps.addBatch();
        }
        ps.executeBatch();
      }
    }
  }

  /** Deletes up to {@code limit} expired sessions, soonest expired first; one transaction. */
  List<SessionRef> deleteExpired(int limit) {
    return tx.run(
        true,
        "delete expired sessions",
        c -> {
          List<SessionRef> deleted = new ArrayList<>();
          List<Long> pks = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement(sql.deleteExpiredBatch)) {
            ps.setLong(1, clock.millis());
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                pks.add(rs.getLong(1));
                deleted.add(new SessionRef(rs.getString(2), rs.getString(3), rs.getString(4)));
              }
            }
          }
          deleteOwnRows(c, pks);
          return deleted;
        });
  }

  /** Trims up to {@code limit} idle sessions to their last {@code keepLast} events; one tx. */
  Trimmed trimIdleSessions(Duration idleFor, int keepLast, int limit) {
    return tx.run(
        true,
        "trim the events of idle sessions",
        c -> {
          long idleBefore = clock.instant().minus(idleFor).getEpochSecond();
          List<long[]> found = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement(sql.selectTrimmable)) {
            ps.setLong(1, idleBefore);
            ps.setLong(2, keepLast);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                found.add(new long[] {rs.getLong(1), rs.getLong(2)});
              }
            }
          }
          long events = 0;
          for (long[] row : found) {
            long upTo = row[1] - keepLast;
            try (PreparedStatement ps = c.prepareStatement(sql.trimEvents)) {
              ps.setLong(1, row[0]);
              ps.setLong(2, upTo);
              events += ps.executeUpdate();
            }
            // Their changes leave the state history with them (history reads stored events).
            try (PreparedStatement ps = c.prepareStatement(StateHistoryRows.DELETE_UP_TO)) {
              ps.setLong(1, row[0]);
              ps.setLong(2, upTo);
              ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement(sql.markTrimmed)) {
              ps.setLong(1, upTo);
              ps.setLong(2, row[0]);
              ps.executeUpdate();
            }
          }
          return new Trimmed(found.size(), events);
        });
  }

  /**
   * Appends an event as {@link dev.adk4j.sessions.SessionStore#append} says, in one transaction:
   * the revision bump ({@code UPDATE ... WHERE revision = ? AND lease ...}, which orders appends to
   * the session and refuses stale copies and other lease holders), the event row with the new
   * revision as its sequence number, inserted only if the session does not hold its id, then the
   * state writes with their conditions, and the state history rows. With increments, whose results
   * the stored event records, the id is checked first and the event row written after the state. If
   * the event is a compaction, the session's {@code last_compaction_seq} becomes its sequence
   * number in the statement that bumps the revision.
   *
   * <p>With {@code takes} (a lease on first append whose owner is {@code leaseOwner}), the same
   * statement takes the lease if it is free and nobody waits for it, and {@code takes} is given the
   * session's pk once the transaction committed; if the lease is not free, nothing is stored and
   * {@link SessionBusyException} is thrown.
   */
  Appended append(
      PendingAppend append,
      long expectedRevision,
      @Nullable String leaseOwner,
      @Nullable LongConsumer takes) {
    String app = append.appName();
    String user = append.userId();
    String id = append.sessionId();
    Event stored = append.event();
    String context = append.describe();
    List<List<StateOp>> ops = state.encode(append.delta(), append.expected(), append.increments());
    String plainJson = append.increments().isEmpty() ? JsonText.write(dialect, stored) : null;
    Instant updated = Instant.ofEpochMilli(append.timestamp());
    boolean compaction = append.isCompaction();
    long[] sessionPk = new long[1];
    Appended appended =
        tx.run(
            true,
            "append event '" + stored.id() + "' to " + context,
            c -> {
              long pk;
              long revision;
              long now = clock.millis();
              try (PreparedStatement ps =
                  c.prepareStatement(
                      takes == null ? sql.bumpRevision : sql.bumpRevisionTakingLease)) {
                ps.setLong(1, updated.getEpochSecond());
                ps.setInt(2, updated.getNano());
                ps.setInt(3, compaction ? 1 : 0);
                ps.setLong(4, now);
                ps.setString(5, leaseOwner);
                ps.setLong(6, now + leaseMillis);
                ps.setString(7, app);
                ps.setString(8, user);
                ps.setString(9, id);
                ps.setLong(10, expectedRevision);
                ps.setString(11, leaseOwner);
                ps.setLong(12, now);
                ps.setLong(13, now);
                try (ResultSet rs = ps.executeQuery()) {
                  if (!rs.next()) {
                    throw refused(c, app, user, id, expectedRevision, takes != null);
                  }
                  pk = rs.getLong(1);
                  revision = rs.getLong(2);
                }
              }
              sessionPk[0] = pk;
              // The id checks come after the revision bump, which orders appends to the session: no
              // concurrent append can store the same id between a check and the insert.
              Map<String, Object> resolved = new HashMap<>();
              // The writes that need no answer one by one go out together (PostgreSQL: in one round
              // trip, with the history rows, before the commit).
              Pipeline pipeline = new Pipeline(c, dialect);
              if (plainJson != null) {
                // The event's JSON is known: its insert checks the id too, before the state writes
                // (a condition's read runs the pipeline first, so a duplicate is refused as such).
                pipeline.add(
                    sql.insertNewEvent,
                    (ps, first) -> {
                      ps.setLong(first, pk);
                      ps.setLong(first + 1, revision);
                      ps.setString(first + 2, stored.id());
                      ps.setLong(first + 3, stored.timestamp());
                      ps.setString(first + 4, plainJson);
                      ps.setLong(first + 5, pk);
                      ps.setString(first + 6, stored.id());
                      return first + 7;
                    },
                    append::duplicateEvent);
                state.applyState(pipeline, c, app, user, pk, ops, append, resolved);
              } else {
                // Increments: the stored event records their results, known after the state writes.
                try (PreparedStatement ps = c.prepareStatement(sql.selectEventId)) {
                  ps.setLong(1, pk);
                  ps.setString(2, stored.id());
                  try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                      throw append.duplicateEvent();
                    }
                  }
                }
                state.applyState(pipeline, c, app, user, pk, ops, append, resolved);
                String json = JsonText.write(dialect, append.eventWith(resolved));
                pipeline.add(
                    sql.insertEvent,
                    (ps, first) -> {
                      ps.setLong(first, pk);
                      ps.setLong(first + 1, revision);
                      ps.setString(first + 2, stored.id());
                      ps.setLong(first + 3, stored.timestamp());
                      ps.setString(first + 4, json);
                      return first + 5;
                    });
              }
              StateHistoryRows.record(
                  pipeline, pk, revision, app, user, append.delta(), append.increments());
              pipeline.run();
              return new Appended(revision, resolved);
            });
    if (takes != null) {
      takes.accept(sessionPk[0]);
    }
    return appended;
  }

  /** Why the revision bump matched no row: no session, a stale copy, or another's lease. */
  private SessionException refused(
      Connection c, String app, String user, String id, long expectedRevision, boolean taking)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.selectLeaseByKey)) {
      ps.setString(1, app);
      ps.setString(2, user);
      ps.setString(3, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return new SessionNotFoundException(app, user, id);
        }
        long expireAt = rs.getLong(4);
        if (!rs.wasNull() && expireAt <= clock.millis()) {
          return new SessionNotFoundException(app, user, id); // expired: as if deleted
        }
        long revision = rs.getLong(1);
        if (revision != expectedRevision) {
          return new StaleSessionException(app, user, id, expectedRevision, revision);
        }
        String holder = rs.getString(2);
        long until = rs.getLong(3);
        return new SessionBusyException(
            app,
            user,
            id,
            holder,
            holder == null ? null : Instant.ofEpochMilli(until),
            taking
                ? "the append that was to take the session's lease was refused: another"
                    + " invocation holds the lease or waits for it"
                : "an append from outside the invocation that holds the session's lease was"
                    + " refused");
      }
    }
  }
}
