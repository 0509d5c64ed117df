package dev.adk4j.internal.jdbc;

import dev.adk4j.sessions.DatabaseSessionConfig;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The storage of adk-server's evaluation endpoints: the tables {@code adk_eval_sets} and {@code
 * adk_eval_results} (migration V13) in the session store's database, through the same connection
 * handling ({@link Transactions}: one transaction per call, retried after transient failures) and
 * the same schema migration as {@link JdbcSessionStore}, which it opens and closes. Bodies are JSON
 * text the caller writes and reads whole (ADK's eval set and eval result JSON); this class does not
 * look inside them.
 *
 * <p>Not API. Thread-safe.
 */
public final class JdbcEvalStore implements AutoCloseable {
  private final JdbcSessionStore sessions;
  private final Transactions tx;

  private JdbcEvalStore(JdbcSessionStore sessions) {
    this.sessions = sessions;
    this.tx = sessions.transactions();
  }

  /**
   * Opens a store on {@code jdbcUrl} with its own (small) connection pool, as {@link
   * JdbcSessionStore#open} does (schema migrated, checked).
   */
  public static JdbcEvalStore open(String jdbcUrl, DatabaseSessionConfig config) {
    return new JdbcEvalStore(JdbcSessionStore.open(jdbcUrl, null, null, config));
  }

  /** The database product: {@code "SQLite"} or {@code "PostgreSQL"}. */
  public String databaseProduct() {
    return sessions.databaseProduct();
  }

  /** The ids of the app's eval sets, sorted. */
  public List<String> evalSetIds(String app) {
    return ids(
        "SELECT eval_set_id FROM adk_eval_sets WHERE app_name = ? ORDER BY eval_set_id",
        app,
        "list the eval sets of app '" + app + "'");
  }

  /** The JSON of an eval set, if the app has it. */
  public Optional<String> evalSet(String app, String evalSetId) {
    return body(
        "SELECT body FROM adk_eval_sets WHERE app_name = ? AND eval_set_id = ?",
        app,
        evalSetId,
        "read eval set '" + evalSetId + "' of app '" + app + "'");
  }

  /**
   * Stores an eval set's JSON: a new row, or in place of the stored one when {@code replace}.
   *
   * @return false when the set exists and {@code replace} is false (nothing written)
   */
  public boolean putEvalSet(String app, String evalSetId, String json, boolean replace) {
    String what = "store eval set '" + evalSetId + "' of app '" + app + "'";
    String sql =
        "INSERT INTO adk_eval_sets (app_name, eval_set_id, body, updated_at) VALUES (?, ?, ?, ?)"
            + (replace
                ? " ON CONFLICT (app_name, eval_set_id) DO UPDATE SET body = excluded.body,"
                    + " updated_at = excluded.updated_at"
                : " ON CONFLICT (app_name, eval_set_id) DO NOTHING");
    return tx.run(
        true,
        what,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, app);
            ps.setString(2, evalSetId);
            ps.setString(3, json);
            ps.setLong(4, System.currentTimeMillis());
            return ps.executeUpdate() > 0;
          }
        });
  }

  /** Deletes an eval set (its results stay). @return whether there was one */
  public boolean deleteEvalSet(String app, String evalSetId) {
    return tx.run(
        true,
        "delete eval set '" + evalSetId + "' of app '" + app + "'",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "DELETE FROM adk_eval_sets WHERE app_name = ? AND eval_set_id = ?")) {
            ps.setString(1, app);
            ps.setString(2, evalSetId);
            return ps.executeUpdate() > 0;
          }
        });
  }

  /** The ids of the app's eval results, oldest first. */
  public List<String> evalResultIds(String app) {
    return ids(
        "SELECT eval_result_id FROM adk_eval_results WHERE app_name = ?"
            + " ORDER BY created_at, eval_result_id",
        app,
        "list the eval results of app '" + app + "'");
  }

  /** The JSON of an eval result, if the app has it. */
  public Optional<String> evalResult(String app, String evalResultId) {
    return body(
        "SELECT body FROM adk_eval_results WHERE app_name = ? AND eval_result_id = ?",
        app,
        evalResultId,
        "read eval result '" + evalResultId + "' of app '" + app + "'");
  }

  /** Stores an eval result's JSON (in place of one with the same id). */
  public void putEvalResult(
      String app, String evalResultId, String evalSetId, String json, long createdAtMillis) {
    tx.run(
        true,
        "store eval result '" + evalResultId + "' of app '" + app + "'",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO adk_eval_results"
                      + " (app_name, eval_result_id, eval_set_id, body, created_at)"
                      + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (app_name, eval_result_id)"
                      + " DO UPDATE SET eval_set_id = excluded.eval_set_id, body = excluded.body,"
                      + " created_at = excluded.created_at")) {
            ps.setString(1, app);
            ps.setString(2, evalResultId);
            ps.setString(3, evalSetId);
            ps.setString(4, json);
            ps.setLong(5, createdAtMillis);
            return ps.executeUpdate();
          }
        });
  }

  private List<String> ids(String sql, String app, String what) {
    return tx.run(
        false,
        what,
        c -> {
          List<String> out = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, app);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                out.add(rs.getString(1));
              }
            }
          }
          return out;
        });
  }

  private Optional<String> body(String sql, String app, String id, String what) {
    return tx.run(
        false,
        what,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, app);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.<String>empty();
            }
          }
        });
  }

  /** Closes the connection pool this store opened. Idempotent. */
  @Override
  public void close() {
    sessions.close();
  }

  @Override
  public String toString() {
    return "JdbcEvalStore{" + databaseProduct() + "}";
  }
}
