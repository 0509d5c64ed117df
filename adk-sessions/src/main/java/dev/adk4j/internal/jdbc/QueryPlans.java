package dev.adk4j.internal.jdbc;

import static dev.adk4j.internal.jdbc.SessionRows.describe;

import dev.adk4j.internal.jdbc.SessionRows.SessionRow;
import dev.adk4j.sessions.GetSessionConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Diagnostics: the database's plans for the store's reads, so that tests and benchmarks can check
 * that they go through the indexes ({@code EXPLAIN QUERY PLAN} on SQLite; {@code EXPLAIN ANALYZE},
 * which runs the query and reports the rows each step produced, on PostgreSQL).
 */
final class QueryPlans {

  private final Transactions tx;
  private final SqlText sql;
  private final SessionRows rows;

  QueryPlans(Transactions tx, SqlText sql, SessionRows rows) {
    this.tx = tx;
    this.sql = sql;
    this.rows = rows;
  }

  /**
   * Diagnostics: the database's plan for the query that reads the last {@code n} events of a
   * session ({@code EXPLAIN QUERY PLAN} on SQLite; {@code EXPLAIN ANALYZE}, which runs it and
   * reports the rows each step produced, on PostgreSQL). Empty if the session does not exist.
   */
  List<String> recentEvents(String app, String user, String id, int n) {
    return getSession(app, user, id, GetSessionConfig.builder().numRecentEvents(n).build())
        .getOrDefault("events", List.of());
  }

  /**
   * Diagnostics: the database's plans (as {@link #recentEvents}) for the queries {@link
   * SessionReads#load} runs with {@code config}: {@code "session"} (the session row, by its natural
   * key), {@code "state"} (app, user and session state) and {@code "events"} (absent when no event
   * is read). Empty if the session does not exist.
   */
  Map<String, List<String>> getSession(
      String app, String user, String id, @Nullable GetSessionConfig config) {
    return tx.run(
        false,
        "explain the queries reading " + describe(app, user, id),
        c -> {
          SessionRow row = rows.findSession(c, app, user, id);
          if (row == null) {
            return Map.of();
          }
          Map<String, List<String>> plans = new java.util.LinkedHashMap<>();
          plans.put(
              "session",
              explain(
                  c,
                  new Query(
                      sql.selectSession,
                      ps -> {
                        ps.setString(1, app);
                        ps.setString(2, user);
                        ps.setString(3, id);
                      })));
          plans.put(
              "state",
              explain(
                  c,
                  new Query(
                      sql.selectState,
                      ps -> {
                        ps.setString(1, app);
                        ps.setString(2, app);
                        ps.setString(3, user);
                        ps.setLong(4, row.pk);
                      })));
          SessionRows.EventsQuery events = rows.eventsQuery(row, config);
          if (events != null) {
            plans.put("events", explain(c, new Query(events.sql(), events::bind)));
          }
          return plans;
        });
  }

  /**
   * Diagnostics: the database's plans (as {@link #recentEvents}) for the queries {@link
   * SessionReads#listPage} runs with these arguments: {@code "page"} (the page of session rows)
   * and, if the page is not empty, {@code "state"} (the session state of the page's sessions).
   */
  Map<String, List<String>> listSessions(
      String app, String user, int limit, @Nullable Instant afterTime, @Nullable String afterId) {
    Query page = rows.pageQuery(app, user, limit, afterTime, afterId);
    return tx.run(
        false,
        "explain the queries listing the sessions of user '" + user + "' in app '" + app + "'",
        c -> {
          Map<String, List<String>> plans = new java.util.LinkedHashMap<>();
          plans.put("page", explain(c, page));
          List<SessionRow> found = new ArrayList<>();
          try (PreparedStatement ps = page.prepare(c, "");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              found.add(new SessionRow(rs.getLong(1), rs.getString(2), 0, 0, 0));
            }
          }
          if (!found.isEmpty()) {
            plans.put("state", explain(c, rows.pageStateQuery(found)));
          }
          return plans;
        });
  }

  /** The database's plan of {@code query}, one line per row of the EXPLAIN output. */
  private List<String> explain(Connection c, Query query) throws SQLException {
    String prefix =
        tx.dialect() == Dialect.SQLITE
            ? "EXPLAIN QUERY PLAN "
            : "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) ";
    List<String> plan = new ArrayList<>();
    try (PreparedStatement ps = query.prepare(c, prefix);
        ResultSet rs = ps.executeQuery()) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        plan.add(rs.getString(columns));
      }
    }
    return plan;
  }
}
