package dev.adk4j.internal.jdbc;

import dev.adk4j.events.Event;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.sessions.StateChange;
import dev.adk4j.state.Scope;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The index of state changes, {@code adk_state_history} (migration V11): one row per key of each
 * stored event's delta, written by the append in its transaction, pointing at the event ({@code
 * session_pk, seq}). Its primary key numbers the changes in the order they were written, which is
 * the order the appends applied them (appends that write one key serialize on its state row).
 *
 * <p>A history read finds the key's rows through an index, then reads and parses only the events
 * they point at: {@code adk_state_history_by_session} ({@code session_pk, state_key, seq}) for a
 * session key, {@code adk_state_history_by_key} ({@code app_name, state_key, user_id, pk}) for a
 * {@code user:} or {@code app:} key. Its cost is the key's changes, not the session's history.
 */
final class StateHistoryRows {

  static final String INSERT =
      "INSERT INTO adk_state_history (session_pk, seq, app_name, user_id, state_key)"
          + " VALUES (?, ?, ?, ?, ?)";

  /** Rows of a deleted session, where foreign keys do not cascade. */
  static final String DELETE_SESSION = "DELETE FROM adk_state_history WHERE session_pk = ?";

  /** The changes of the events retention trims from a session: pk, last trimmed seq. */
  static final String DELETE_UP_TO =
      "DELETE FROM adk_state_history WHERE session_pk = ? AND seq <= ?";

  private static final String SESSION_PK =
      "SELECT pk FROM adk_sessions WHERE app_name = ? AND user_id = ? AND session_id = ?";

  private static final String SELECT =
      "SELECT s.user_id, s.session_id, e.seq, e.event FROM adk_state_history h"
          + " JOIN adk_events e ON e.session_pk = h.session_pk AND e.seq = h.seq"
          + " JOIN adk_sessions s ON s.pk = h.session_pk";

  /** A session key: session pk, key. */
  static final String BY_SESSION =
      SELECT + " WHERE h.session_pk = ? AND h.state_key = ? ORDER BY h.seq";

  /** A {@code user:} key: app, key, user. */
  static final String BY_USER =
      SELECT + " WHERE h.app_name = ? AND h.state_key = ? AND h.user_id = ? ORDER BY h.pk";

  /** An {@code app:} key: app, key. */
  static final String BY_APP = SELECT + " WHERE h.app_name = ? AND h.state_key = ? ORDER BY h.pk";

  private final Transactions tx;

  StateHistoryRows(Transactions tx) {
    this.tx = tx;
  }

  /**
   * Indexes the keys an appended event changes, in the append's transaction (queued in its {@code
   * pipeline}, after the state writes): the keys of its delta and the keys it increments (whose
   * results the stored event's delta records, though they are not in {@code delta}). Its rows come
   * after the writes of the keys' state rows, which serialize appends that write one key: so the
   * primary key numbers each key's changes in the order they were applied.
   */
  static void record(
      Pipeline pipeline,
      long sessionPk,
      long seq,
      String app,
      String user,
      Scope.Split delta,
      Map<String, Long> increments)
      throws SQLException {
    if (delta.isEmpty() && increments.isEmpty()) {
      return;
    }
    Set<String> keys = new LinkedHashSet<>();
    keys.addAll(delta.app().keySet());
    keys.addAll(delta.user().keySet());
    keys.addAll(delta.session().keySet());
    keys.addAll(increments.keySet());
    List<String> all = new ArrayList<>(keys);
    for (int from = 0; from < all.size(); from += MAX_ROWS) {
      List<String> part = all.subList(from, Math.min(all.size(), from + MAX_ROWS));
      pipeline.add(
          insert(part.size()),
          (ps, first) -> {
            int i = first;
            for (String key : part) {
              ps.setLong(i++, sessionPk);
              ps.setLong(i++, seq);
              ps.setString(i++, app);
              ps.setString(i++, user);
              ps.setString(i++, key);
            }
            return i;
          });
    }
  }

  /** The most rows one insert writes (5 parameters each, far below either database's limit). */
  static final int MAX_ROWS = 100;

  /** The inserts of 1 to 8 rows, which cover nearly every append. */
  private static final String[] INSERTS = new String[9];

  static {
    for (int n = 1; n < INSERTS.length; n++) {
      INSERTS[n] = rows(n);
    }
  }

  /** The insert of {@code n} rows in one statement. */
  static String insert(int n) {
    return n < INSERTS.length ? INSERTS[n] : rows(n);
  }

  private static String rows(int n) {
    StringBuilder b = new StringBuilder(INSERT);
    for (int i = 1; i < n; i++) {
      b.append(", (?, ?, ?, ?, ?)");
    }
    return b.toString();
  }

  /**
   * The changes of {@code key} seen from the session, oldest first: the session's own for a session
   * key, those of the user's sessions for a {@code user:} key, of the app's for an {@code app:}
   * key.
   *
   * @throws SessionNotFoundException if there is no such session
   */
  List<StateChange> read(String app, String user, String sessionId, String key) {
    String context = SessionRows.describe(app, user, sessionId);
    return tx.run(
        false,
        "read the history of key '" + key + "' from " + context,
        c -> {
          long pk;
          try (PreparedStatement ps = c.prepareStatement(SESSION_PK)) {
            ps.setString(1, app);
            ps.setString(2, user);
            ps.setString(3, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                throw new SessionNotFoundException(app, user, sessionId);
              }
              pk = rs.getLong(1);
            }
          }
          Scope scope = Scope.of(key);
          String query =
              scope == Scope.SESSION ? BY_SESSION : scope == Scope.USER ? BY_USER : BY_APP;
          List<StateChange> changes = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement(query)) {
            if (scope == Scope.SESSION) {
              ps.setLong(1, pk);
              ps.setString(2, key);
            } else {
              ps.setString(1, app);
              ps.setString(2, key);
              if (scope == Scope.USER) {
                ps.setString(3, user);
              }
            }
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                String owner = rs.getString(1);
                String session = rs.getString(2);
                Event event =
                    SessionRows.parseEvent(
                        rs.getLong(3), rs.getString(4), SessionRows.describe(app, owner, session));
                Map<String, @Nullable Object> delta = event.actions().stateDelta();
                if (delta.containsKey(key)) { // always, unless the event row was rewritten
                  changes.add(
                      new StateChange(
                          key,
                          delta.get(key),
                          owner,
                          session,
                          event.id(),
                          event.author(),
                          event.invocationId(),
                          Instant.ofEpochMilli(event.timestamp())));
                }
              }
            }
          }
          return changes;
        });
  }
}
