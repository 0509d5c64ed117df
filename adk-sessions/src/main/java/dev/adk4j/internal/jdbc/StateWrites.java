package dev.adk4j.internal.jdbc;

import dev.adk4j.internal.Json;
import dev.adk4j.sessions.PendingAppend;
import dev.adk4j.state.Scope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The state writes of a creation or an append, inside its transaction, through its {@link
 * Pipeline}: the session's keys first, then the shared ones ({@code app:}, then {@code user:}),
 * each scope in key order; a scope's plain upserts in one multi-row statement, plain deletes one
 * statement each; a key with a condition or an increment is read first (its row locked on
 * PostgreSQL), checked or incremented, then written.
 *
 * <p>Lock order. Rows shared between sessions ({@code app:} and {@code user:} keys) are locked in
 * one global order (scope, then key), so that concurrent appends cannot deadlock on them. A
 * session's own rows are written only by transactions that first locked its session row (the
 * revision update), so they take no part in that order; they come first so that the shared rows,
 * which other sessions' appends wait for, are locked last, as close to the commit as they can be.
 */
final class StateWrites {

  private final SqlText sql;
  private final Dialect dialect;

  StateWrites(SqlText sql, Dialect dialect) {
    this.sql = sql;
    this.dialect = dialect;
  }

  /**
   * One key of an append, encoded. A plain op writes {@code json} (null: removes the key). A
   * checked op first reads the stored value: if {@code expect}, it must equal {@code expected};
   * with an {@code increment} the amount is added to it; without {@code write} nothing is written.
   */
  static final class StateOp {
    final String key;
    final @Nullable String json;
    final boolean write;
    final boolean expect;
    final @Nullable Object expected;
    final @Nullable Long increment;

    StateOp(
        String key,
        @Nullable String json,
        boolean write,
        boolean expect,
        @Nullable Object expected,
        @Nullable Long increment) {
      this.key = key;
      this.json = json;
      this.write = write;
      this.expect = expect;
      this.expected = expected;
      this.increment = increment;
    }

    boolean checked() {
      return expect || increment != null;
    }
  }

  /**
   * The delta's app, user and session parts, each in key order, values as JSON text, with the
   * conditions and increments of each key.
   */
  List<List<StateOp>> encode(
      Scope.Split split, Map<String, @Nullable Object> expected, Map<String, Long> increments) {
    List<List<StateOp>> scopes = new ArrayList<>(3);
    for (Scope scope : List.of(Scope.APP, Scope.USER, Scope.SESSION)) {
      Map<String, @Nullable Object> delta =
          scope == Scope.APP ? split.app() : scope == Scope.USER ? split.user() : split.session();
      TreeMap<String, Boolean> keys = new TreeMap<>();
      delta.keySet().forEach(k -> keys.put(k, true));
      for (String k : expected.keySet()) {
        if (Scope.of(k) == scope) {
          keys.put(k, true);
        }
      }
      for (String k : increments.keySet()) {
        if (Scope.of(k) == scope) {
          keys.put(k, true);
        }
      }
      List<StateOp> ops = new ArrayList<>(keys.size());
      for (String key : keys.keySet()) {
        Long increment = increments.get(key);
        boolean write = increment != null || delta.containsKey(key);
        Object value = delta.get(key);
        String json = increment == null && value != null ? JsonText.write(dialect, value) : null;
        ops.add(
            new StateOp(key, json, write, expected.containsKey(key), expected.get(key), increment));
      }
      scopes.add(ops);
    }
    return scopes;
  }

  /** The statements for one scope's rows, and the values of its owner columns. */
  private static final class ScopeSql {
    final String upsert;
    final String delete;
    final String select;
    final String update;
    final String insert;
    final Object[] owner;

    ScopeSql(
        String upsert,
        String delete,
        String select,
        String update,
        String insert,
        Object... owner) {
      this.upsert = upsert;
      this.delete = delete;
      this.select = select;
      this.update = update;
      this.insert = insert;
      this.owner = owner;
    }
  }

  /**
   * Applies the ops of every scope through {@code pipeline}: the session's, then {@code app:}, then
   * {@code user:} keys, each scope in key order (see the class comment for why). Values produced by
   * increments are put in {@code resolved}. Writes may still be queued in {@code pipeline} on
   * return: the caller runs it.
   *
   * @param scopes the app, user and session ops, as {@link #encode} returns them
   */
  void applyState(
      Pipeline pipeline,
      Connection c,
      String app,
      String user,
      long pk,
      List<List<StateOp>> scopes,
      @Nullable PendingAppend append,
      Map<String, Object> resolved)
      throws SQLException {
    if (!scopes.get(2).isEmpty()) {
      applyScope(
          pipeline,
          c,
          new ScopeSql(
              sql.upsertSessionState,
              sql.deleteSessionStateKey,
              sql.selectSessionValue,
              sql.updateSessionValue,
              sql.insertSessionValue,
              pk),
          scopes.get(2),
          append,
          resolved);
    }
    if (!scopes.get(0).isEmpty()) {
      applyScope(
          pipeline,
          c,
          new ScopeSql(
              sql.upsertAppState,
              sql.deleteAppState,
              sql.selectAppValue,
              sql.updateAppValue,
              sql.insertAppValue,
              app),
          scopes.get(0),
          append,
          resolved);
    }
    if (!scopes.get(1).isEmpty()) {
      applyScope(
          pipeline,
          c,
          new ScopeSql(
              sql.upsertUserState,
              sql.deleteUserState,
              sql.selectUserValue,
              sql.updateUserValue,
              sql.insertUserValue,
              app,
              user),
          scopes.get(1),
          append,
          resolved);
    }
  }

  /**
   * Applies one scope's keys in key order: a run of plain upserts is one multi-row {@code INSERT
   * ... ON CONFLICT DO UPDATE} (the keys of a run are distinct, so no row is affected twice), a run
   * of plain deletes one batch. Keeping the order (rather than all upserts, then all deletes) keeps
   * row locks in one global order. A checked op (condition or increment) runs on its own, after the
   * run before it.
   */
  private void applyScope(
      Pipeline pipeline,
      Connection c,
      ScopeSql t,
      List<StateOp> ops,
      @Nullable PendingAppend append,
      Map<String, Object> resolved)
      throws SQLException {
    List<StateOp> run = new ArrayList<>(ops.size());
    boolean runDeletes = false;
    for (StateOp op : ops) {
      if (op.checked()) {
        flush(pipeline, t, run, runDeletes);
        if (append == null) {
          throw new IllegalStateException("a condition or increment outside an append");
        }
        applyChecked(pipeline, c, t, op, append, resolved);
        continue;
      }
      boolean delete = op.json == null;
      if (!run.isEmpty() && delete != runDeletes) {
        flush(pipeline, t, run, runDeletes);
      }
      runDeletes = delete;
      run.add(op);
    }
    flush(pipeline, t, run, runDeletes);
  }

  /** The most rows one upsert writes (4 parameters each, far below either database's limit). */
  static final int MAX_ROWS = 100;

  /** Queues a run of plain upserts or deletes in {@code pipeline}, and empties it. */
  private static void flush(Pipeline pipeline, ScopeSql t, List<StateOp> run, boolean deletes)
      throws SQLException {
    if (run.isEmpty()) {
      return;
    }
    if (deletes) {
      for (StateOp op : run) {
        String key = op.key;
        pipeline.add(
            t.delete,
            (ps, first) -> {
              int i = bindOwner(ps, first, t.owner);
              ps.setString(i, key);
              return i + 1;
            });
      }
    } else {
      for (int from = 0; from < run.size(); from += MAX_ROWS) {
        List<StateOp> part = List.copyOf(run.subList(from, Math.min(run.size(), from + MAX_ROWS)));
        pipeline.add(
            rows(t.upsert, part.size()),
            (ps, first) -> {
              int i = first;
              for (StateOp op : part) {
                i = bindOwner(ps, i, t.owner);
                ps.setString(i++, op.key);
                ps.setString(i++, op.json);
              }
              return i;
            });
      }
    }
    run.clear();
  }

  /**
   * {@code upsert} ({@code INSERT ... VALUES (row) ON CONFLICT ...}) writing {@code n} rows: {@code
   * VALUES (row), (row), ...}.
   */
  static String rows(String upsert, int n) {
    if (n == 1) {
      return upsert;
    }
    int values = upsert.indexOf(" VALUES ") + " VALUES ".length();
    int conflict = upsert.indexOf(" ON CONFLICT ");
    String row = upsert.substring(values, conflict);
    StringBuilder b = new StringBuilder(upsert.length() + (row.length() + 2) * (n - 1));
    b.append(upsert, 0, conflict);
    for (int i = 1; i < n; i++) {
      b.append(", ").append(row);
    }
    return b.append(upsert, conflict, upsert.length()).toString();
  }

  /**
   * Reads the key's stored value (locking its row on PostgreSQL), checks the condition, computes an
   * increment, and writes. A key that is absent is inserted only if it is still absent: if another
   * transaction inserted it meanwhile (PostgreSQL), the read is done again.
   */
  private void applyChecked(
      Pipeline pipeline,
      Connection c,
      ScopeSql t,
      StateOp op,
      PendingAppend append,
      Map<String, Object> resolved)
      throws SQLException {
    String context = append.describe();
    pipeline.run(); // the read comes after the writes before it
    for (int attempt = 1; ; attempt++) {
      String storedJson = null;
      try (PreparedStatement ps = c.prepareStatement(t.select)) {
        int i = bindOwner(ps, 1, t.owner);
        ps.setString(i, op.key);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            storedJson = rs.getString(1);
          }
        }
      }
      Object current =
          storedJson == null ? null : SessionRows.parseValue(op.key, storedJson, context);
      if (op.expect && !Json.sameValue(op.expected, current)) {
        throw append.conflict(op.key, current);
      }
      if (!op.write) {
        return;
      }
      String json = op.json;
      if (op.increment != null) {
        Object next = append.incremented(op.key, current);
        resolved.put(op.key, next);
        json = JsonText.write(dialect, next);
      }
      // The row read is locked (PostgreSQL) or the file is (SQLite): an update or a delete of it
      // cannot miss, so it joins the pipeline; an insert must learn whether it added the row.
      String key = op.key;
      if (json == null) {
        if (storedJson != null) {
          pipeline.add(
              t.delete,
              (ps, first) -> {
                int i = bindOwner(ps, first, t.owner);
                ps.setString(i, key);
                return i + 1;
              });
        }
        return;
      }
      if (storedJson != null) {
        String value = json;
        pipeline.add(
            t.update,
            (ps, first) -> {
              ps.setString(first, value);
              int i = bindOwner(ps, first + 1, t.owner);
              ps.setString(i, key);
              return i + 1;
            });
        return;
      }
      try (PreparedStatement ps = c.prepareStatement(t.insert)) {
        int i = bindOwner(ps, 1, t.owner);
        ps.setString(i++, op.key);
        ps.setString(i, json);
        if (ps.executeUpdate() == 1) {
          return;
        }
      }
      if (attempt >= 3) {
        throw new SQLException(
            "State key '" + op.key + "' of " + context + " kept changing under a conditional write",
            "40001");
      }
      resolved.remove(op.key);
    }
  }

  private static int bindOwner(PreparedStatement ps, int first, Object[] owner)
      throws SQLException {
    int i = first;
    for (Object o : owner) {
      ps.setObject(i++, o);
    }
    return i;
  }
}
