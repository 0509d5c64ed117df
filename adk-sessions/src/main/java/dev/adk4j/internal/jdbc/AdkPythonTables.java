package dev.adk4j.internal.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Recognizes the session tables of ADK for Python's {@code DatabaseSessionService} in a database:
 * {@code sessions}, {@code events}, {@code app_states}, {@code user_states}, in its current schema
 * (events as JSON in {@code events.event_data}, beside {@code adk_internal_metadata}) or its older
 * one (an event's actions pickled by Python in {@code events.actions}). Not API: shared by the
 * store's start-up check and {@code AdkPythonImporter}.
 */
public final class AdkPythonTables {
  private AdkPythonTables() {}

  /** The schema found. */
  public enum Kind {
    /** Events as JSON ({@code events.event_data}): ADK for Python 1.22 and later. */
    JSON,
    /** Events in columns, actions pickled ({@code events.actions}): ADK for Python before 1.22. */
    PICKLED
  }

  /** What was found: the schema and the number of sessions. */
  public record Found(Kind kind, long sessions) {
    /** One sentence for messages. */
    public String describe() {
      return "ADK for Python's session tables (sessions, events, app_states, user_states; "
          + (kind == Kind.JSON
              ? "its current schema, events as JSON"
              : "its older schema, event actions pickled by Python")
          + ") holding "
          + sessions
          + " session(s)";
    }
  }

  /** ADK for Python's tables in the database of {@code c}, or null when there are none. */
  public static @Nullable Found find(Connection c) throws SQLException {
    DatabaseMetaData meta = c.getMetaData();
    if (!hasTable(meta, "sessions")
        || !hasTable(meta, "events")
        || !(hasTable(meta, "app_states") || hasTable(meta, "user_states"))) {
      return null;
    }
    Kind kind;
    if (hasColumn(meta, "events", "event_data")) {
      kind = Kind.JSON;
    } else if (hasColumn(meta, "events", "actions") && hasColumn(meta, "events", "author")) {
      kind = Kind.PICKLED;
    } else {
      return null;
    }
    long n = 0;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sessions")) {
      if (rs.next()) {
        n = rs.getLong(1);
      }
    }
    return new Found(kind, n);
  }

  private static boolean hasTable(DatabaseMetaData meta, String name) throws SQLException {
    for (String n : new String[] {name, name.toUpperCase(Locale.ROOT)}) {
      try (ResultSet rs = meta.getTables(null, null, n, new String[] {"TABLE"})) {
        while (rs.next()) {
          String schema = rs.getString("TABLE_SCHEM");
          if (schema == null || !schema.equalsIgnoreCase("information_schema")) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean hasColumn(DatabaseMetaData meta, String table, String column)
      throws SQLException {
    try (ResultSet rs = meta.getColumns(null, null, table, column)) {
      return rs.next();
    }
  }
}
