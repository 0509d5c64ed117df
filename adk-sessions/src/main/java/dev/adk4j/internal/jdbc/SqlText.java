package dev.adk4j.internal.jdbc;

/**
 * Every statement the store runs, for one dialect. All values are bound as parameters; the only
 * thing that varies by dialect is how a JSON parameter is written ({@code ?} or {@code CAST(? AS
 * jsonb)}).
 */
final class SqlText {

  /** Inserts a session: app, user, id, seconds, nanos, ttl ms (or null), expire_at (or null). */
  final String insertSession =
      "INSERT INTO adk_sessions (app_name, user_id, session_id, revision, update_seconds,"
          + " update_nanos, ttl_millis, expire_at) VALUES (?, ?, ?, 0, ?, ?, ?, ?)"
          + " ON CONFLICT (app_name, user_id, session_id) DO NOTHING RETURNING pk";

  /** Deletes the session of that key if it has expired (app, user, id, now ms), freeing its id. */
  final String deleteExpiredSession =
      "DELETE FROM adk_sessions WHERE app_name = ? AND user_id = ? AND session_id = ?"
          + " AND expire_at <= ? RETURNING pk";

  /** The session row; its expire_at (column 6) is compared with the clock by the reader. */
  final String selectSession =
      "SELECT pk, revision, update_seconds, update_nanos, last_compaction_seq, expire_at"
          + " FROM adk_sessions WHERE app_name = ? AND user_id = ? AND session_id = ?";

  /** A user's sessions that have not expired: app, user, now ms. */
  final String listSessions =
      "SELECT pk, session_id, revision, update_seconds, update_nanos FROM adk_sessions"
          + " WHERE app_name = ? AND user_id = ? AND (expire_at IS NULL OR expire_at > ?)";

  /**
   * Deletes up to a batch of expired sessions (now ms, limit), the soonest expired first through
   * the index adk_sessions_by_expiry; on PostgreSQL rows another transaction holds are skipped.
   */
  final String deleteExpiredBatch;

  /**
   * Idle sessions with more events than kept (idle-before seconds, keep, limit), oldest first
   * through adk_sessions_by_idle: pk, revision.
   */
  final String selectTrimmable;

  /** Deletes the events of a session up to a sequence number: session pk, seq. */
  final String trimEvents = "DELETE FROM adk_events WHERE session_pk = ? AND seq <= ?";

  /** Records how far a session was trimmed: seq, pk. */
  final String markTrimmed = "UPDATE adk_sessions SET trimmed_seq = ? WHERE pk = ?";

  /**
   * The first page of a user's sessions (app, user, limit), in the order of the index {@code
   * adk_sessions_by_update}: most recently updated first, ties by id in code point order.
   */
  final String listSessionsPage;

  /**
   * The page after a position (app, user, seconds, seconds, nanos, nanos, id, limit). The bound
   * {@code update_seconds <= ?} starts the index scan at the position; the rest of the keyset
   * condition only filters the sessions updated in that same second.
   */
  final String listSessionsPageAfter;

  /**
   * Bumps the revision of a session that is at the expected one and not leased to another owner
   * (parameter 11; an expired lease, by parameter 12, counts as none); no row if stale, leased or
   * missing. Parameter 3 is 1 if the appended event is a compaction event: its revision becomes the
   * session's {@code last_compaction_seq}. The holder's lease is extended to parameter 6 (for owner
   * parameter 5): each write of the holder renews its lease, so a late renewal round cannot lose it
   * while the turn is writing.
   */
  final String bumpRevision;

  /**
   * {@link #bumpRevision} for an append that takes the lease of its owner (a lease on first
   * append), with the same parameters: the lease becomes parameter 5's until parameter 6 if nobody
   * holds it and no live waiter (by parameter 12) queues for it, or if parameter 11 (the same
   * owner) already holds it; no row otherwise (and if stale or missing).
   */
  final String bumpRevisionTakingLease;

  /** The session's lease: pk, owner, until. */
  final String selectLease;

  /** The session's lease, locking the row on PostgreSQL. */
  final String selectLeaseForUpdate;

  /** The session's waiters, first come first: seq, owner, wait_until. Parameter: pk. */
  final String selectWaiters =
      "SELECT seq, owner, wait_until FROM adk_session_waiters WHERE session_pk = ? ORDER BY seq";

  /** Takes the lease: owner, until, pk. */
  final String takeLease = "UPDATE adk_sessions SET lease_owner = ?, lease_until = ? WHERE pk = ?";

  /**
   * Takes the lease of a session that nobody holds and nobody waits for, in one statement: owner,
   * until, app, user, id, now. Returns pk, or no row if the lease is held (even expired: taking
   * over goes through the checks of {@link #selectLeaseForUpdate}), a live waiter queues for it, or
   * the session is missing.
   */
  final String takeFreeLease =
      "UPDATE adk_sessions SET lease_owner = ?, lease_until = ?"
          + " WHERE app_name = ? AND user_id = ? AND session_id = ? AND lease_owner IS NULL"
          + " AND NOT EXISTS (SELECT 1 FROM adk_session_waiters w"
          + " WHERE w.session_pk = adk_sessions.pk AND w.wait_until >= ?) RETURNING pk";

  /**
   * Queues a waiter behind the session's others: pk, owner, wait_until, pk. Run with the session's
   * row locked (PostgreSQL) or the file's write lock (SQLite), so that seq follows arrival.
   */
  final String insertWaiter =
      "INSERT INTO adk_session_waiters (session_pk, seq, owner, wait_until)"
          + " SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ? FROM adk_session_waiters"
          + " WHERE session_pk = ?";

  /** Keeps a waiter's place: wait_until, pk, owner. */
  final String refreshWaiter =
      "UPDATE adk_session_waiters SET wait_until = ? WHERE session_pk = ? AND owner = ?";

  /** Removes a waiter (served, or given up): pk, owner. */
  final String deleteWaiter = "DELETE FROM adk_session_waiters WHERE session_pk = ? AND owner = ?";

  /** Removes the waiters that stopped waiting without leaving: pk, now. */
  final String deleteLapsedWaiters =
      "DELETE FROM adk_session_waiters WHERE session_pk = ? AND wait_until < ?";

  /**
   * Extends many held leases at once: {@code renewLeasesPrefix + "?, ..., ?) AND lease_owner IN (?,
   * ..., ?) RETURNING pk, lease_owner"}, with the new until, the pks, then the owners. A lease no
   * longer held returns no row.
   */
  final String renewLeasesPrefix = "UPDATE adk_sessions SET lease_until = ? WHERE pk IN (";

  /** Releases a held lease: pk, owner. */
  final String releaseLease =
      "UPDATE adk_sessions SET lease_owner = NULL, lease_until = NULL"
          + " WHERE pk = ? AND lease_owner = ?";

  /**
   * Gives a held lease up unfinished: it expires at once but keeps its owner, so that the next
   * holder takes it over (and closes the turn left open). Parameters: pk, owner.
   */
  final String abandonLease =
      "UPDATE adk_sessions SET lease_until = 0 WHERE pk = ? AND lease_owner = ?";

  /** Lease columns of a session by natural key, for diagnosing a refused append. */
  final String selectLeaseByKey;

  final String deleteSession =
      "DELETE FROM adk_sessions WHERE app_name = ? AND user_id = ? AND session_id = ?"
          + " RETURNING pk";

  final String deleteEvents = "DELETE FROM adk_events WHERE session_pk = ?";

  final String deleteSessionState = "DELETE FROM adk_session_state WHERE session_pk = ?";

  final String insertEvent;

  /**
   * Inserts an event unless the session holds its id already (index adk_events_by_id, V4): session
   * pk, seq, event id, time, JSON, then session pk and event id again. One row inserted, or none
   * for a duplicate id. The index is not unique (a store written before V4 may hold duplicates), so
   * the check is this statement's, after the revision update that orders the session's appends.
   */
  final String insertNewEvent;

  /** Whether a session holds an event id (session pk, event id): index adk_events_by_id (V4). */
  final String selectEventId =
      "SELECT 1 FROM adk_events WHERE session_pk = ? AND event_id = ? LIMIT 1";

  final String selectEvents = "SELECT seq, event FROM adk_events WHERE session_pk = ? ORDER BY seq";

  final String selectEventsAfter =
      "SELECT seq, event FROM adk_events WHERE session_pk = ? AND event_time >= ? ORDER BY seq";

  /** Newest first, so that the primary key is read backwards and the scan stops after N rows. */
  final String selectLastEvents =
      "SELECT seq, event FROM adk_events WHERE session_pk = ? ORDER BY seq DESC LIMIT ?";

  final String selectLastEventsAfter =
      "SELECT seq, event FROM adk_events WHERE session_pk = ? AND event_time >= ?"
          + " ORDER BY seq DESC LIMIT ?";

  /**
   * The events of a session after sequence number ?, all or the last N: {@code seq > ?} makes the
   * scan of the primary key start (or stop, read backwards) there. Indexed by [with time][last].
   */
  private final String[][] selectEventsFrom = {
    {
      "SELECT seq, event FROM adk_events WHERE session_pk = ? AND seq > ? ORDER BY seq",
      "SELECT seq, event FROM adk_events WHERE session_pk = ? AND seq > ? ORDER BY seq DESC LIMIT ?"
    },
    {
      "SELECT seq, event FROM adk_events WHERE session_pk = ? AND seq > ? AND event_time >= ?"
          + " ORDER BY seq",
      "SELECT seq, event FROM adk_events WHERE session_pk = ? AND seq > ? AND event_time >= ?"
          + " ORDER BY seq DESC LIMIT ?"
    }
  };

  /** One page of events oldest first: session pk, after seq, limit. */
  final String selectEventsPage =
      "SELECT seq, event FROM adk_events WHERE session_pk = ? AND seq > ? ORDER BY seq LIMIT ?";

  /** One page of events newest first: session pk, before seq, limit. */
  final String selectEventsPageBackward =
      "SELECT seq, event FROM adk_events WHERE session_pk = ? AND seq < ?"
          + " ORDER BY seq DESC LIMIT ?";

  /**
   * The query that reads a session's events: with a lower sequence bound ({@code seq > ?}) or not,
   * with {@code event_time >= ?} or not, all or the last N (newest first).
   */
  String selectEvents(boolean fromSeq, boolean afterTime, boolean last) {
    if (fromSeq) {
      return selectEventsFrom[afterTime ? 1 : 0][last ? 1 : 0];
    }
    if (last) {
      return afterTime ? selectLastEventsAfter : selectLastEvents;
    }
    return afterTime ? selectEventsAfter : selectEvents;
  }

  /** The session state of the given sessions (n pks): (session pk, key, value) rows. */
  String selectSessionsState(int n) {
    StringBuilder b =
        new StringBuilder(
            "SELECT session_pk, state_key, state_value FROM adk_session_state WHERE session_pk IN (");
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "?" : ", ?");
    }
    return b.append(")").toString();
  }

  /** App, user and session state of one session: (key, value) rows. */
  final String selectState =
      "SELECT state_key, state_value FROM adk_app_state WHERE app_name = ?"
          + " UNION ALL SELECT state_key, state_value FROM adk_user_state"
          + " WHERE app_name = ? AND user_id = ?"
          + " UNION ALL SELECT state_key, state_value FROM adk_session_state WHERE session_pk = ?";

  /** App and user state: (key, value) rows. */
  final String selectSharedState =
      "SELECT state_key, state_value FROM adk_app_state WHERE app_name = ?"
          + " UNION ALL SELECT state_key, state_value FROM adk_user_state"
          + " WHERE app_name = ? AND user_id = ?";

  /** The session state of all of a user's sessions: (session pk, key, value) rows. */
  final String selectUserSessionsState =
      "SELECT st.session_pk, st.state_key, st.state_value FROM adk_session_state st"
          + " JOIN adk_sessions s ON s.pk = st.session_pk"
          + " WHERE s.app_name = ? AND s.user_id = ?";

  final String upsertAppState;
  final String deleteAppState = "DELETE FROM adk_app_state WHERE app_name = ? AND state_key = ?";

  final String upsertUserState;
  final String deleteUserState =
      "DELETE FROM adk_user_state WHERE app_name = ? AND user_id = ? AND state_key = ?";

  final String upsertSessionState;
  final String deleteSessionStateKey =
      "DELETE FROM adk_session_state WHERE session_pk = ? AND state_key = ?";

  /** The value of one key, per scope, locked on PostgreSQL: owner columns, key. */
  final String selectAppValue;

  final String selectUserValue;
  final String selectSessionValue;

  /** Plain updates of one existing key: value, owner columns, key. */
  final String updateAppValue;

  final String updateUserValue;
  final String updateSessionValue;

  /**
   * Inserts of a key that must still be absent (no row if it exists): owner columns, key, value.
   */
  final String insertAppValue;

  final String insertUserValue;
  final String insertSessionValue;

  SqlText(Dialect dialect) {
    String json = dialect.jsonParameter();
    String lock = dialect.forUpdate();
    String byCodePoint = dialect.codePointCollation();
    String sessionColumns =
        "SELECT pk, session_id, revision, update_seconds, update_nanos FROM adk_sessions"
            + " WHERE app_name = ? AND user_id = ? AND (expire_at IS NULL OR expire_at > ?)";
    deleteExpiredBatch =
        "DELETE FROM adk_sessions WHERE pk IN (SELECT pk FROM adk_sessions"
            + " WHERE expire_at <= ? ORDER BY expire_at LIMIT ?"
            + (dialect == Dialect.POSTGRESQL ? " FOR UPDATE SKIP LOCKED" : "")
            + ") RETURNING pk, app_name, user_id, session_id";
    selectTrimmable =
        "SELECT pk, revision FROM adk_sessions WHERE update_seconds < ?"
            + " AND revision > trimmed_seq AND revision - ? > trimmed_seq"
            + " ORDER BY update_seconds LIMIT ?"
            + (dialect == Dialect.POSTGRESQL ? " FOR UPDATE SKIP LOCKED" : "");
    String pageOrder =
        " ORDER BY update_seconds DESC, update_nanos DESC, session_id" + byCodePoint + " LIMIT ?";
    listSessionsPage = sessionColumns + pageOrder;
    listSessionsPageAfter =
        sessionColumns
            + " AND update_seconds <= ? AND (update_seconds < ? OR update_nanos < ?"
            + " OR (update_nanos = ? AND session_id"
            + byCodePoint
            + " > ?))"
            + pageOrder;
    // In SET, revision is the value before the update: revision + 1 is the new revision. An
    // expired session matches no row; a live one with a time to live has its expiry pushed back.
    bumpRevision =
        "UPDATE adk_sessions SET revision = revision + 1, update_seconds = ?, update_nanos = ?,"
            + " last_compaction_seq = CASE WHEN ? = 1 THEN revision + 1"
            + " ELSE last_compaction_seq END,"
            + " expire_at = CASE WHEN ttl_millis IS NULL THEN NULL ELSE ? + ttl_millis END,"
            + " lease_until = CASE WHEN lease_owner = ? THEN ? ELSE lease_until END"
            + " WHERE app_name = ? AND user_id = ? AND session_id = ? AND revision = ?"
            + " AND (lease_owner IS NULL OR lease_owner = ? OR lease_until < ?)"
            + " AND (expire_at IS NULL OR expire_at > ?) RETURNING pk, revision";
    bumpRevisionTakingLease =
        "UPDATE adk_sessions SET revision = revision + 1, update_seconds = ?, update_nanos = ?,"
            + " last_compaction_seq = CASE WHEN ? = 1 THEN revision + 1"
            + " ELSE last_compaction_seq END,"
            + " expire_at = CASE WHEN ttl_millis IS NULL THEN NULL ELSE ? + ttl_millis END,"
            + " lease_owner = ?, lease_until = ?"
            + " WHERE app_name = ? AND user_id = ? AND session_id = ? AND revision = ?"
            + " AND (lease_owner = ? OR (lease_owner IS NULL"
            + " AND NOT EXISTS (SELECT 1 FROM adk_session_waiters w"
            + " WHERE w.session_pk = adk_sessions.pk AND w.wait_until >= ?)))"
            + " AND (expire_at IS NULL OR expire_at > ?) RETURNING pk, revision";
    String leaseColumns =
        "SELECT pk, lease_owner, lease_until"
            + " FROM adk_sessions WHERE app_name = ? AND user_id = ? AND session_id = ?";
    selectLease = leaseColumns;
    selectLeaseForUpdate = leaseColumns + lock;
    selectLeaseByKey =
        "SELECT revision, lease_owner, lease_until, expire_at"
            + " FROM adk_sessions WHERE app_name = ? AND user_id = ? AND session_id = ?";
    selectAppValue =
        "SELECT state_value FROM adk_app_state WHERE app_name = ? AND state_key = ?" + lock;
    selectUserValue =
        "SELECT state_value FROM adk_user_state WHERE app_name = ? AND user_id = ?"
            + " AND state_key = ?"
            + lock;
    selectSessionValue =
        "SELECT state_value FROM adk_session_state WHERE session_pk = ? AND state_key = ?" + lock;
    updateAppValue =
        "UPDATE adk_app_state SET state_value = " + json + " WHERE app_name = ? AND state_key = ?";
    updateUserValue =
        "UPDATE adk_user_state SET state_value = "
            + json
            + " WHERE app_name = ? AND user_id = ? AND state_key = ?";
    updateSessionValue =
        "UPDATE adk_session_state SET state_value = "
            + json
            + " WHERE session_pk = ? AND state_key = ?";
    insertAppValue =
        "INSERT INTO adk_app_state (app_name, state_key, state_value) VALUES (?, ?, "
            + json
            + ") ON CONFLICT (app_name, state_key) DO NOTHING";
    insertUserValue =
        "INSERT INTO adk_user_state (app_name, user_id, state_key, state_value)"
            + " VALUES (?, ?, ?, "
            + json
            + ") ON CONFLICT (app_name, user_id, state_key) DO NOTHING";
    insertSessionValue =
        "INSERT INTO adk_session_state (session_pk, state_key, state_value) VALUES (?, ?, "
            + json
            + ") ON CONFLICT (session_pk, state_key) DO NOTHING";
    insertEvent =
        "INSERT INTO adk_events (session_pk, seq, event_id, event_time, event)"
            + " VALUES (?, ?, ?, ?, "
            + json
            + ")";
    insertNewEvent =
        "INSERT INTO adk_events (session_pk, seq, event_id, event_time, event) SELECT ?, ?, ?, ?, "
            + json
            + " WHERE NOT EXISTS (SELECT 1 FROM adk_events WHERE session_pk = ? AND event_id = ?)";
    upsertAppState =
        "INSERT INTO adk_app_state (app_name, state_key, state_value) VALUES (?, ?, "
            + json
            + ") ON CONFLICT (app_name, state_key) DO UPDATE SET state_value = excluded.state_value";
    upsertUserState =
        "INSERT INTO adk_user_state (app_name, user_id, state_key, state_value)"
            + " VALUES (?, ?, ?, "
            + json
            + ") ON CONFLICT (app_name, user_id, state_key)"
            + " DO UPDATE SET state_value = excluded.state_value";
    upsertSessionState =
        "INSERT INTO adk_session_state (session_pk, state_key, state_value) VALUES (?, ?, "
            + json
            + ") ON CONFLICT (session_pk, state_key) DO UPDATE SET state_value = excluded.state_value";
  }
}
