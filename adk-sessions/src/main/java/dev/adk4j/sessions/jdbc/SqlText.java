package dev.adk4j.sessions.jdbc;

/**
 * Every statement the store runs, for one dialect. All values are bound as parameters; the only
 * thing that varies by dialect is how a JSON parameter is written ({@code ?} or {@code CAST(? AS
 * jsonb)}).
 */
final class SqlText {

  final String insertSession =
      "INSERT INTO adk_sessions (app_name, user_id, session_id, revision, update_seconds,"
          + " update_nanos) VALUES (?, ?, ?, 0, ?, ?)"
          + " ON CONFLICT (app_name, user_id, session_id) DO NOTHING RETURNING pk";

  final String selectSession =
      "SELECT pk, revision, update_seconds, update_nanos FROM adk_sessions"
          + " WHERE app_name = ? AND user_id = ? AND session_id = ?";

  final String listSessions =
      "SELECT pk, session_id, revision, update_seconds, update_nanos FROM adk_sessions"
          + " WHERE app_name = ? AND user_id = ?";

  /**
   * Bumps the revision of a session that is at the expected one and not leased to another owner
   * (parameter 7; an expired lease counts as none); no row if stale, leased or missing.
   */
  final String bumpRevision;

  /** The session's lease: pk, owner, until, next owner, next until, the database's now. */
  final String selectLease;

  /** The session's lease, locking the row on PostgreSQL. */
  final String selectLeaseForUpdate;

  /** Takes the lease: owner, duration ms, pk. */
  final String takeLease;

  /** Claims the next turn for a waiting owner: owner, claim ms, pk. */
  final String claimNext;

  /** Extends a held lease: duration ms, pk, owner; no row if no longer held. */
  final String renewLease;

  /** Releases a held lease: pk, owner. */
  final String releaseLease =
      "UPDATE adk_sessions SET lease_owner = NULL, lease_until = NULL"
          + " WHERE pk = ? AND lease_owner = ?";

  /** Drops a waiter's claim on the next turn: pk, owner. */
  final String dropClaim =
      "UPDATE adk_sessions SET next_owner = NULL, next_until = NULL"
          + " WHERE pk = ? AND next_owner = ?";

  /** Lease columns of a session by natural key, for diagnosing a refused append. */
  final String selectLeaseByKey;

  final String deleteSession =
      "DELETE FROM adk_sessions WHERE app_name = ? AND user_id = ? AND session_id = ?"
          + " RETURNING pk";

  final String deleteEvents = "DELETE FROM adk_events WHERE session_pk = ?";

  final String deleteSessionState = "DELETE FROM adk_session_state WHERE session_pk = ?";

  final String insertEvent;

  final String selectEvents = "SELECT seq, event FROM adk_events WHERE session_pk = ? ORDER BY seq";

  final String selectEventsAfter =
      "SELECT seq, event FROM adk_events WHERE session_pk = ? AND event_time >= ? ORDER BY seq";

  /** Newest first, so that the primary key is read backwards and the scan stops after N rows. */
  final String selectLastEvents =
      "SELECT seq, event FROM adk_events WHERE session_pk = ? ORDER BY seq DESC LIMIT ?";

  final String selectLastEventsAfter =
      "SELECT seq, event FROM adk_events WHERE session_pk = ? AND event_time >= ?"
          + " ORDER BY seq DESC LIMIT ?";

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
    String now = dialect.nowMillis();
    String lock = dialect.forUpdate();
    bumpRevision =
        "UPDATE adk_sessions SET revision = revision + 1, update_seconds = ?, update_nanos = ?"
            + " WHERE app_name = ? AND user_id = ? AND session_id = ? AND revision = ?"
            + " AND (lease_owner IS NULL OR lease_owner = ? OR lease_until < "
            + now
            + ") RETURNING pk, revision";
    String leaseColumns =
        "SELECT pk, lease_owner, lease_until, next_owner, next_until, "
            + now
            + " FROM adk_sessions WHERE app_name = ? AND user_id = ? AND session_id = ?";
    selectLease = leaseColumns;
    selectLeaseForUpdate = leaseColumns + lock;
    selectLeaseByKey =
        "SELECT revision, lease_owner, lease_until, "
            + now
            + " FROM adk_sessions WHERE app_name = ? AND user_id = ? AND session_id = ?";
    takeLease =
        "UPDATE adk_sessions SET lease_owner = ?, lease_until = "
            + now
            + " + ?, next_owner = NULL, next_until = NULL WHERE pk = ? RETURNING lease_until";
    claimNext = "UPDATE adk_sessions SET next_owner = ?, next_until = " + now + " + ? WHERE pk = ?";
    renewLease =
        "UPDATE adk_sessions SET lease_until = "
            + now
            + " + ? WHERE pk = ? AND lease_owner = ? RETURNING lease_until";
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
