package dev.adk4j.internal.jdbc;

import static dev.adk4j.internal.jdbc.SessionRows.describe;

import dev.adk4j.events.Event;
import dev.adk4j.internal.jdbc.SessionRows.SessionRow;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.sessions.SessionStore.NumberedEvent;
import dev.adk4j.sessions.SessionStore.Position;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The store's reads, each one read-only transaction (one snapshot): a session with its state and
 * events, the user's sessions whole or by page, a session's events whole or by page.
 */
final class SessionReads {

  private final Transactions tx;
  private final SqlText sql;
  private final SessionRows rows;

  SessionReads(Transactions tx, SqlText sql, SessionRows rows) {
    this.tx = tx;
    this.sql = sql;
    this.rows = rows;
  }

  /**
   * A session with its merged state and the events {@code config} selects ({@code null}: all), or
   * null if it does not exist.
   *
   * @throws dev.adk4j.sessions.SessionException naming the session if a stored value or event is
   *     not valid JSON
   */
  @Nullable Session load(String app, String user, String id, @Nullable GetSessionConfig config) {
    String context = describe(app, user, id);
    return tx.run(
            false,
            "read " + context,
            c -> {
              SessionRow row = rows.findSession(c, app, user, id);
              if (row == null) {
                return Optional.<Session>empty();
              }
              Map<String, Object> state = rows.readState(c, app, user, row.pk, context);
              List<Event> events = rows.readEvents(c, row, config, context);
              return Optional.of(row.toSession(app, user, state, events));
            })
        .orElse(null);
  }

  /** The user's sessions in ascending order of id, with merged state and without events. */
  List<Session> list(String app, String user) {
    String context = "sessions of user '" + user + "' in app '" + app + "'";
    return tx.run(
        false,
        "list " + context,
        c -> {
          List<SessionRow> found;
          try (PreparedStatement ps = c.prepareStatement(sql.listSessions)) {
            ps.setString(1, app);
            ps.setString(2, user);
            ps.setLong(3, rows.nowMillis());
            found = SessionRows.sessionRows(ps);
          }
          if (found.isEmpty()) {
            return List.of();
          }
          Map<String, Object> shared = rows.readSharedState(c, app, user, context);
          Map<Long, Map<String, Object>> own;
          try (PreparedStatement ps = c.prepareStatement(sql.selectUserSessionsState)) {
            ps.setString(1, app);
            ps.setString(2, user);
            own = SessionRows.ownState(ps, SessionRows.byPk(found), app, user);
          }
          // Java's String order, as the in-memory store: SQL collations differ by database.
          found.sort(Comparator.comparing(r -> r.id));
          return SessionRows.merged(app, user, found, shared, own);
        });
  }

  /**
   * One page of the user's sessions, with merged state and without events: up to {@code limit}
   * sessions, most recently updated first (ties by id in code point order), after {@code after}
   * (null: from the first). Reads the page through the index {@code adk_sessions_by_update}, the
   * app and user state once, and the session state of the page's sessions only.
   */
  List<Session> listPage(String app, String user, @Nullable Position after, int limit) {
    String context = "sessions of user '" + user + "' in app '" + app + "'";
    Query page =
        rows.pageQuery(
            app,
            user,
            limit,
            after == null ? null : after.lastUpdateTime(),
            after == null ? null : after.sessionId());
    return tx.run(
        false,
        "list a page of " + context,
        c -> {
          List<SessionRow> found;
          try (PreparedStatement ps = page.prepare(c, "")) {
            found = SessionRows.sessionRows(ps);
          }
          if (found.isEmpty()) {
            return List.of();
          }
          Map<String, Object> shared = rows.readSharedState(c, app, user, context);
          Map<Long, Map<String, Object>> own;
          try (PreparedStatement ps = rows.pageStateQuery(found).prepare(c, "")) {
            own = SessionRows.ownState(ps, SessionRows.byPk(found), app, user);
          }
          return SessionRows.merged(app, user, found, shared, own);
        });
  }

  /**
   * All stored events of a session, oldest first.
   *
   * @throws SessionNotFoundException if there is no such session
   */
  List<Event> events(String app, String user, String id) {
    String context = describe(app, user, id);
    return tx.run(
        false,
        "read the events of " + context,
        c -> {
          SessionRow row = rows.findSession(c, app, user, id);
          if (row == null) {
            throw new SessionNotFoundException(app, user, id);
          }
          return rows.readEvents(c, row, null, context);
        });
  }

  /**
   * Up to {@code limit} events of a session with a sequence number above {@code bound}, oldest
   * first, or with {@code newestFirst} below it, newest first: a range scan of the primary key.
   *
   * @throws SessionNotFoundException if there is no such session
   */
  List<NumberedEvent> eventsPage(
      String app, String user, String id, boolean newestFirst, long bound, int limit) {
    String context = describe(app, user, id);
    return tx.run(
        false,
        "read a page of the events of " + context,
        c -> {
          SessionRow row = rows.findSession(c, app, user, id);
          if (row == null) {
            throw new SessionNotFoundException(app, user, id);
          }
          List<NumberedEvent> events = new ArrayList<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  newestFirst ? sql.selectEventsPageBackward : sql.selectEventsPage)) {
            ps.setLong(1, row.pk);
            ps.setLong(2, bound);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                long seq = rs.getLong(1);
                events.add(
                    new NumberedEvent(seq, SessionRows.parseEvent(seq, rs.getString(2), context)));
              }
            }
          }
          return events;
        });
  }
}
