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

  /** Bumps the revision of a session that is at the expected one; no row if stale or missing. */
  final String bumpRevision =
      "UPDATE adk_sessions SET revision = revision + 1, update_seconds = ?, update_nanos = ?"
          + " WHERE app_name = ? AND user_id = ? AND session_id = ? AND revision = ?"
          + " RETURNING pk, revision";

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

  SqlText(Dialect dialect) {
    String json = dialect.jsonParameter();
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
