package dev.adk4j.internal.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.internal.Text;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Reading rows inside a transaction: session rows, the state of the three scopes, events, and the
 * queries of a page of sessions; values and events parsed from their JSON, a corrupt one failing
 * with a {@link SessionException} naming the session and the key or event.
 */
final class SessionRows {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SessionRows.class);

  private final SqlText sql;
  private final java.time.Clock clock;

  SessionRows(SqlText sql, java.time.Clock clock) {
    this.sql = sql;
    this.clock = clock;
  }

  /** The store's clock, in epoch ms: what expiry is compared with. */
  long nowMillis() {
    return clock.millis();
  }

  /** A row of {@code adk_sessions}, as a read found it. */
  static final class SessionRow {
    final long pk;
    final String id;
    final long revision;
    final long updateSeconds;
    final int updateNanos;

    /** The sequence number of the latest compaction event; null if none (or not read). */
    final @Nullable Long lastCompactionSeq;

    SessionRow(long pk, String id, long revision, long updateSeconds, int updateNanos) {
      this(pk, id, revision, updateSeconds, updateNanos, null);
    }

    SessionRow(
        long pk,
        String id,
        long revision,
        long updateSeconds,
        int updateNanos,
        @Nullable Long lastCompactionSeq) {
      this.pk = pk;
      this.id = id;
      this.revision = revision;
      this.updateSeconds = updateSeconds;
      this.updateNanos = updateNanos;
      this.lastCompactionSeq = lastCompactionSeq;
    }

    Session toSession(String app, String user, Map<String, Object> state, List<Event> events) {
      return Session.builder(id)
          .appName(app)
          .userId(user)
          .state(state)
          .events(events)
          .lastUpdateTime(Instant.ofEpochSecond(updateSeconds, updateNanos))
          .revision(revision)
          .build();
    }
  }

  /** Sessions without events from their rows, the shared state and each one's own state. */
  static List<Session> merged(
      String app,
      String user,
      List<SessionRow> rows,
      Map<String, Object> shared,
      Map<Long, Map<String, Object>> own) {
    List<Session> sessions = new ArrayList<>(rows.size());
    for (SessionRow row : rows) {
      Map<String, Object> state = new HashMap<>();
      shared.forEach((k, v) -> state.put(k, Json.copy(v)));
      state.putAll(own.getOrDefault(row.pk, Map.of()));
      sessions.add(row.toSession(app, user, state, List.of()));
    }
    return sessions;
  }

  /** The rows of a query selecting (pk, session_id, revision, update_seconds, update_nanos). */
  static List<SessionRow> sessionRows(PreparedStatement ps) throws SQLException {
    List<SessionRow> rows = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        rows.add(
            new SessionRow(
                rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getInt(5)));
      }
    }
    return rows;
  }

  @Nullable SessionRow findSession(Connection c, String app, String user, String id)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.selectSession)) {
      ps.setString(1, app);
      ps.setString(2, user);
      ps.setString(3, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        long expireAt = rs.getLong(6);
        if (!rs.wasNull() && expireAt <= clock.millis()) {
          return null; // expired: as if deleted
        }
        long lastCompaction = rs.getLong(5);
        return new SessionRow(
            rs.getLong(1),
            id,
            rs.getLong(2),
            rs.getLong(3),
            rs.getInt(4),
            rs.wasNull() ? null : lastCompaction);
      }
    }
  }

  /** The app and user state (the part of a merged state that all the user's sessions share). */
  Map<String, Object> readSharedState(Connection c, String app, String user, String context)
      throws SQLException {
    Map<String, Object> shared = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(sql.selectSharedState)) {
      ps.setString(1, app);
      ps.setString(2, app);
      ps.setString(3, user);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          putValue(shared, rs.getString(1), rs.getString(2), context);
        }
      }
    }
    return shared;
  }

  Map<String, Object> readState(Connection c, String app, String user, long pk, String context)
      throws SQLException {
    Map<String, Object> state = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(sql.selectState)) {
      ps.setString(1, app);
      ps.setString(2, app);
      ps.setString(3, user);
      ps.setLong(4, pk);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          putValue(state, rs.getString(1), rs.getString(2), context);
        }
      }
    }
    return state;
  }

  /** The query {@link #readEvents} runs, and how to bind it; null if it reads nothing. */
  record EventsQuery(
      String sql, long pk, long fromSeq, @Nullable Long after, @Nullable Integer last) {
    void bind(PreparedStatement ps) throws SQLException {
      int i = 1;
      ps.setLong(i++, pk);
      if (fromSeq > 0) {
        ps.setLong(i++, fromSeq);
      }
      if (after != null) {
        ps.setLong(i++, after);
      }
      if (last != null) {
        ps.setInt(i, last);
      }
    }
  }

  /**
   * How to read the events {@code config} selects. {@code afterRevision} and {@code
   * fromLatestCompaction} make one lower bound on the sequence number (the latest compaction's is
   * on the session row), so both are a range scan of the primary key from there.
   */
  @Nullable EventsQuery eventsQuery(SessionRow row, @Nullable GetSessionConfig config) {
    if (config == null) {
      return new EventsQuery(sql.selectEvents(false, false, false), row.pk, 0, null, null);
    }
    @Nullable Integer last = config.numRecentEvents().orElse(null);
    @Nullable Long after = config.afterTimestamp().map(Instant::toEpochMilli).orElse(null);
    if (last != null && last == 0) {
      return null;
    }
    long fromSeq = config.afterRevision().orElse(0L);
    if (config.fromLatestCompaction() && row.lastCompactionSeq != null) {
      fromSeq = Math.max(fromSeq, row.lastCompactionSeq - 1);
    }
    String query = sql.selectEvents(fromSeq > 0, after != null, last != null);
    return new EventsQuery(query, row.pk, fromSeq, after, last);
  }

  List<Event> readEvents(
      Connection c, SessionRow row, @Nullable GetSessionConfig config, String context)
      throws SQLException {
    EventsQuery query = eventsQuery(row, config);
    if (query == null) {
      return List.of();
    }
    List<Event> events = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(query.sql())) {
      query.bind(ps);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          events.add(parseEvent(rs.getLong(1), rs.getString(2), context));
        }
      }
    }
    if (query.last() != null) {
      // Read newest first so the index scan stops after N rows; hand them out oldest first.
      Collections.reverse(events);
    }
    return events;
  }

  /**
   * The stored value of a key, for a write that must know it (a read-modify-write, an increment).
   *
   * @throws SessionException naming the key and the session if the stored value cannot be read
   */
  static Object parseValue(String key, String json, String context) {
    try {
      return Json.storedReader().forType(Object.class).readValue(json);
    } catch (JsonProcessingException e) {
      throw new SessionException(
          "Corrupt stored state of "
              + context
              + ": the value of key "
              + Text.quote(key)
              + " cannot be read ("
              + cutMessage(e.getOriginalMessage())
              + "); write the key again or remove it to repair it",
          e);
    }
  }

  /**
   * Puts the stored value of {@code key} into {@code into}, for a read of a session's state. A
   * value that cannot be read is left out, with an error logged naming the key (never the value),
   * so that one bad row cannot make every session of an app or user unreadable; a write that must
   * read it still fails ({@link #parseValue}).
   */
  static void putValue(Map<String, Object> into, String key, String json, String context) {
    try {
      into.put(key, Json.storedReader().forType(Object.class).readValue(json));
    } catch (JsonProcessingException e) {
      log.error(
          "Left key {} out of the state read from {}: its stored value cannot be read ({}). Every"
              + " other key is served; write the key again or remove it to repair it.",
          Text.quote(key),
          context,
          cutMessage(e.getOriginalMessage()));
    }
  }

  /** A parser's message, which may quote the input, cut to a length that cannot carry much. */
  private static String cutMessage(@Nullable String message) {
    String m = String.valueOf(message);
    return m.length() <= 200 ? m : m.substring(0, 200) + "…";
  }

  static Event parseEvent(long seq, String json, String context) {
    try {
      return Json.storedReader().forType(Event.class).readValue(json);
    } catch (JsonProcessingException e) {
      throw new SessionException(
          "Corrupt stored event #"
              + seq
              + " of "
              + context
              + ": "
              + cutMessage(e.getOriginalMessage()),
          e);
    }
  }

  /**
   * The query of a page of sessions: up to {@code limit} rows of (pk, session_id, revision,
   * update_seconds, update_nanos) after the session updated at {@code afterTime} with id {@code
   * afterId} (both null: from the first), through the index {@code adk_sessions_by_update}.
   */
  Query pageQuery(
      String app, String user, int limit, @Nullable Instant afterTime, @Nullable String afterId) {
    if ((afterTime == null) != (afterId == null)) {
      throw new IllegalArgumentException("afterTime and afterId go together");
    }
    long now = clock.millis(); // expired sessions are left out
    if (afterTime == null) {
      return new Query(
          sql.listSessionsPage,
          ps -> {
            ps.setString(1, app);
            ps.setString(2, user);
            ps.setLong(3, now);
            ps.setInt(4, limit);
          });
    }
    return new Query(
        sql.listSessionsPageAfter,
        ps -> {
          ps.setString(1, app);
          ps.setString(2, user);
          ps.setLong(3, now);
          ps.setLong(4, afterTime.getEpochSecond());
          ps.setLong(5, afterTime.getEpochSecond());
          ps.setInt(6, afterTime.getNano());
          ps.setInt(7, afterTime.getNano());
          ps.setString(8, afterId);
          ps.setInt(9, limit);
        });
  }

  /** The query of the session state of {@code rows}: (session_pk, state_key, state_value). */
  Query pageStateQuery(List<SessionRow> rows) {
    return new Query(
        sql.selectSessionsState(rows.size()),
        ps -> {
          for (int i = 0; i < rows.size(); i++) {
            ps.setLong(i + 1, rows.get(i).pk);
          }
        });
  }

  /**
   * Reads the own state of sessions from a query of (session_pk, state_key, state_value) into
   * {@code own}, keyed by pk; rows of sessions not in {@code byPk} are skipped.
   */
  static Map<Long, Map<String, Object>> ownState(
      PreparedStatement ps, Map<Long, SessionRow> byPk, String app, String user)
      throws SQLException {
    Map<Long, Map<String, Object>> own = new HashMap<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        SessionRow row = byPk.get(rs.getLong(1));
        if (row == null) {
          continue;
        }
        putValue(
            own.computeIfAbsent(row.pk, k -> new HashMap<>()),
            rs.getString(2),
            rs.getString(3),
            describe(app, user, row.id));
      }
    }
    return own;
  }

  /** {@code rows} by primary key. */
  static Map<Long, SessionRow> byPk(List<SessionRow> rows) {
    Map<Long, SessionRow> byPk = new HashMap<>();
    for (SessionRow row : rows) {
      byPk.put(row.pk, row);
    }
    return byPk;
  }

  static String describe(String app, String user, String id) {
    return dev.adk4j.sessions.SessionException.describe(app, user, id);
  }
}
