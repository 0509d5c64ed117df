package dev.adk4j.internal.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** A statement and how to bind its parameters, to run it or have it explained. */
record Query(String sql, Query.Binder binder) {

  /** Binds a statement's parameters. */
  @FunctionalInterface
  interface Binder {
    void bind(PreparedStatement ps) throws SQLException;
  }

  /** The statement, prepared with {@code prefix} before its text ("EXPLAIN ...") and bound. */
  PreparedStatement prepare(Connection c, String prefix) throws SQLException {
    PreparedStatement ps = c.prepareStatement(prefix + sql);
    try {
      binder.bind(ps);
      return ps;
    } catch (SQLException | RuntimeException e) {
      ps.close();
      throw e;
    }
  }
}
