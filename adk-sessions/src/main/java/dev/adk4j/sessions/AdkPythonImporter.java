package dev.adk4j.sessions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.internal.jdbc.AdkPythonTables;
import dev.adk4j.state.State;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Copies the sessions of ADK for Python's {@code DatabaseSessionService} (a SQLite file or a
 * PostgreSQL database, in its current JSON schema or its older pickled one) into any adk4j session
 * service: each session with its id, its events in order (ids, invocation ids, authors, content,
 * timestamps, state deltas), and the {@code app:} and {@code user:} state, so that an adk4j agent
 * continues the conversation with the same state.
 *
 * <pre>{@code
 * try (DatabaseSessionService target = new DatabaseSessionService("jdbc:sqlite:adk4j.db")) {
 *   AdkPythonImporter.Report report =
 *       AdkPythonImporter.copy("jdbc:sqlite:adk_python_sessions.db", target);
 *   System.out.println(report.summary());
 * }
 * }</pre>
 *
 * <p><b>Idempotent</b>: a session the target already has (same app, user and id) is skipped, so a
 * copy that stopped half way is finished by running it again; a session whose events cannot all be
 * stored is deleted from the target again and reported.
 *
 * <p><b>State</b>: a session is created with the state ADK stored for it that no event of it
 * writes, and with the app's and user's stored state; its events' deltas then replay the rest, by
 * scope, as adk4j applies any event. The final state is ADK's whenever ADK changed state only
 * through events (the norm); a key that ends differently is reported.
 *
 * <p><b>What cannot be copied</b> is reported, by app, user, session, event and field name, never
 * by value: the older schema's actions, which Python pickled (the events are copied without them;
 * the state they wrote comes from ADK's stored state), and fields adk4j's events have no place for
 * (such as {@code cacheMetadata} or {@code logprobsResult}).
 *
 * <p>Timestamps: ADK for Python stores an event's time without a time zone, in the local time of
 * the process that wrote it; they are read in this JVM's default zone. Thread-safe (no state).
 */
public final class AdkPythonImporter {
  private AdkPythonImporter() {}

  private static final ObjectMapper JSON = Json.newMapper();

  /** What a copy did. */
  public record Report(
      int sessionsCopied, int sessionsSkipped, int eventsCopied, List<String> problems) {
    public Report {
      problems = List.copyOf(problems);
    }

    /** One paragraph: the counts, then each problem on a line of its own. */
    public String summary() {
      StringBuilder out =
          new StringBuilder()
              .append("copied ")
              .append(sessionsCopied)
              .append(" session(s) with ")
              .append(eventsCopied)
              .append(" event(s); ")
              .append(sessionsSkipped)
              .append(" already there; ")
              .append(problems.size())
              .append(" problem(s)");
      problems.forEach(p -> out.append("\n  - ").append(p));
      return out.toString();
    }
  }

  /**
   * Copies the sessions of the ADK for Python database at {@code sourceJdbcUrl} ({@code
   * jdbc:sqlite:...} or {@code jdbc:postgresql:...}, user and password in the URL) into {@code
   * target}.
   *
   * @throws SessionException if the source cannot be read or holds no ADK for Python session tables
   */
  public static Report copy(String sourceJdbcUrl, BaseSessionService target) {
    Objects.requireNonNull(sourceJdbcUrl, "sourceJdbcUrl");
    Objects.requireNonNull(target, "target");
    try (Connection c = DriverManager.getConnection(sourceJdbcUrl)) {
      AdkPythonTables.Found found = AdkPythonTables.find(c);
      if (found == null) {
        throw new SessionException(
            "no ADK for Python session tables (sessions, events, app_states, user_states) in "
                + redact(sourceJdbcUrl));
      }
      return new Copy(c, found.kind(), target).run();
    } catch (SQLException e) {
      throw new SessionException(
          "cannot read ADK for Python's sessions from "
              + redact(sourceJdbcUrl)
              + ": "
              + e.getMessage(),
          e);
    }
  }

  private static String redact(String url) {
    return url.replaceAll("(?i)(password=)[^&;]*", "$1***");
  }

  /** One copy, over one source connection. */
  private static final class Copy {
    private final Connection c;
    private final AdkPythonTables.Kind kind;
    private final BaseSessionService target;
    private final List<String> problems = new ArrayList<>();
    private final Map<String, Map<String, Object>> appStates = new LinkedHashMap<>();
    private final Map<List<String>, Map<String, Object>> userStates = new LinkedHashMap<>();
    private int copied;
    private int skipped;
    private int events;

    Copy(Connection c, AdkPythonTables.Kind kind, BaseSessionService target) {
      this.c = c;
      this.kind = kind;
      this.target = target;
    }

    Report run() throws SQLException {
      readScopedStates();
      List<String[]> ids = new ArrayList<>();
      try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT app_name, user_id, id FROM sessions ORDER BY update_time, id");
          ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          ids.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
        }
      }
      for (String[] id : ids) {
        copySession(id[0], id[1], id[2]);
      }
      checkScopedStates();
      return new Report(copied, skipped, events, problems);
    }

    private void readScopedStates() throws SQLException {
      if (hasTable("app_states")) {
        try (PreparedStatement s = c.prepareStatement("SELECT app_name, state FROM app_states");
            ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            appStates.put(rs.getString(1), jsonMap(rs.getString(2), "app '" + rs.getString(1)));
          }
        }
      }
      if (hasTable("user_states")) {
        try (PreparedStatement s =
                c.prepareStatement("SELECT app_name, user_id, state FROM user_states");
            ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            userStates.put(
                List.of(rs.getString(1), rs.getString(2)),
                jsonMap(rs.getString(3), "user '" + rs.getString(2) + "'"));
          }
        }
      }
    }

    private boolean hasTable(String name) throws SQLException {
      try (ResultSet rs = c.getMetaData().getTables(null, null, name, new String[] {"TABLE"})) {
        return rs.next();
      }
    }

    private void copySession(String app, String user, String id) throws SQLException {
      String where = "session '" + id + "' of user '" + user + "' in app '" + app + "'";
      if (target.getSession(app, user, id).blockingGet() != null) {
        skipped++;
        return;
      }
      Map<String, Object> sessionState;
      try (PreparedStatement s =
          c.prepareStatement(
              "SELECT state FROM sessions WHERE app_name=? AND user_id=? AND id=?")) {
        s.setString(1, app);
        s.setString(2, user);
        s.setString(3, id);
        try (ResultSet rs = s.executeQuery()) {
          rs.next();
          sessionState = jsonMap(rs.getString(1), where);
        }
      }
      List<Event> list = readEvents(app, user, id, where);
      Set<String> replayed = new LinkedHashSet<>();
      for (Event e : list) {
        replayed.addAll(e.actions().stateDelta().keySet());
      }
      Map<String, Object> initial = new LinkedHashMap<>();
      appStates.getOrDefault(app, Map.of()).forEach((k, v) -> initial.put(State.APP_PREFIX + k, v));
      userStates
          .getOrDefault(List.of(app, user), Map.of())
          .forEach((k, v) -> initial.put(State.USER_PREFIX + k, v));
      initial.putAll(sessionState);
      initial.keySet().removeAll(replayed);
      initial.keySet().removeIf(k -> k.startsWith(State.TEMP_PREFIX));
      Session session = target.createSession(app, user, initial, id).blockingGet();
      try {
        for (Event e : list) {
          target.appendEvent(session, e).blockingGet();
        }
      } catch (RuntimeException failure) {
        target.deleteSession(app, user, id).blockingAwait();
        problems.add(
            where
                + ": not copied, the target refused an event ("
                + failure.getClass().getSimpleName()
                + ": "
                + failure.getMessage()
                + ")");
        return;
      }
      copied++;
      events += list.size();
      Session stored = target.getSession(app, user, id).blockingGet();
      if (stored != null) {
        for (Map.Entry<String, Object> e : sessionState.entrySet()) {
          if (!sameJson(stored.state().get(e.getKey()), e.getValue())) {
            problems.add(
                where + ": state key '" + e.getKey() + "' ends differently after the replay");
          }
        }
      }
    }

    /** The app and user state in the target, compared with ADK's stored state. */
    private void checkScopedStates() {
      Set<List<String>> checked = new LinkedHashSet<>();
      for (Map.Entry<List<String>, Map<String, Object>> u : userStates.entrySet()) {
        String app = u.getKey().get(0);
        String user = u.getKey().get(1);
        List<Session> any = target.listSessions(app, user).blockingGet().sessions();
        if (any.isEmpty()) {
          continue;
        }
        Session s = target.getSession(app, user, any.get(0).id()).blockingGet();
        if (s == null) {
          continue;
        }
        u.getValue()
            .forEach(
                (k, v) -> {
                  if (!sameJson(s.state().get(State.USER_PREFIX + k), v)) {
                    problems.add(
                        "user '"
                            + user
                            + "' in app '"
                            + app
                            + "': state key 'user:"
                            + k
                            + "' ends differently after the replay");
                  }
                });
        if (checked.add(List.of(app))) {
          appStates
              .getOrDefault(app, Map.of())
              .forEach(
                  (k, v) -> {
                    if (!sameJson(s.state().get(State.APP_PREFIX + k), v)) {
                      problems.add(
                          "app '"
                              + app
                              + "': state key 'app:"
                              + k
                              + "' ends differently after the replay");
                    }
                  });
        }
      }
    }

    private List<Event> readEvents(String app, String user, String id, String where)
        throws SQLException {
      String columns =
          kind == AdkPythonTables.Kind.JSON
              ? "id, invocation_id, timestamp, event_data"
              : "id, invocation_id, timestamp, author, branch, actions, long_running_tool_ids_json,"
                  + " content, grounding_metadata, custom_metadata, usage_metadata,"
                  + " citation_metadata, partial, turn_complete, error_code, error_message,"
                  + " interrupted, input_transcription, output_transcription";
      List<Event> out = new ArrayList<>();
      try (PreparedStatement s =
          c.prepareStatement(
              "SELECT "
                  + columns
                  + " FROM events WHERE app_name=? AND user_id=? AND session_id=?"
                  + " ORDER BY timestamp, id")) {
        s.setString(1, app);
        s.setString(2, user);
        s.setString(3, id);
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            String eventId = rs.getString("id");
            String at = where + ", event '" + eventId + "'";
            ObjectNode node;
            if (kind == AdkPythonTables.Kind.JSON) {
              node = jsonObject(rs.getString("event_data"), at);
            } else {
              node = pickledRow(rs, at);
            }
            node.put("id", eventId);
            node.put("invocation_id", rs.getString("invocation_id"));
            node.put("timestamp", epochMillis(rs.getObject("timestamp"), at));
            Event e = event(node, at);
            if (e != null) {
              out.add(e);
            }
          }
        }
      }
      return out;
    }

    /** An event of the older schema, from its columns; its pickled actions are left out. */
    private ObjectNode pickledRow(ResultSet rs, String at) throws SQLException {
      ObjectNode node = JSON.createObjectNode();
      node.put("author", rs.getString("author"));
      String branch = rs.getString("branch");
      if (branch != null) {
        node.put("branch", branch);
      }
      Object actions = rs.getObject("actions");
      if (actions != null) {
        problems.add(
            at
                + ": its actions were pickled by Python and cannot be read; copied without them"
                + " (the state they wrote comes from ADK's stored state)");
      }
      String ids = rs.getString("long_running_tool_ids_json");
      if (ids != null && !ids.isBlank()) {
        node.set("long_running_tool_ids", parse(ids, at));
      }
      for (String col :
          List.of(
              "content",
              "grounding_metadata",
              "custom_metadata",
              "usage_metadata",
              "citation_metadata",
              "input_transcription",
              "output_transcription")) {
        String v = rs.getString(col);
        if (v != null) {
          node.set(col, parse(v, at));
        }
      }
      for (String col : List.of("partial", "turn_complete", "interrupted")) {
        Object v = rs.getObject(col);
        if (v != null) {
          boolean flag = v instanceof Boolean b ? b : ((Number) v).intValue() != 0;
          node.put(col, flag);
        }
      }
      for (String col : List.of("error_code", "error_message")) {
        String v = rs.getString(col);
        if (v != null) {
          node.put(col, v);
        }
      }
      return node;
    }

    /** The adk4j event of ADK's JSON (snake_case names), or null (reported) when unreadable. */
    private @Nullable Event event(ObjectNode adk, String at) {
      ObjectNode camel = (ObjectNode) camelCase(adk);
      standardBase64(camel);
      Event e;
      try {
        e = JSON.treeToValue(camel, Event.class);
      } catch (JsonProcessingException ex) {
        problems.add(at + ": not an event adk4j can read (" + ex.getOriginalMessage() + ")");
        return null;
      } catch (IllegalArgumentException ex) {
        problems.add(at + ": not an event adk4j can read (" + ex.getMessage() + ")");
        return null;
      }
      ObjectNode back = JSON.valueToTree(e);
      List<String> lost = new ArrayList<>();
      camel
          .fields()
          .forEachRemaining(
              f -> {
                if (!back.has(f.getKey()) && !isEmpty(f.getValue())) {
                  lost.add(f.getKey());
                }
              });
      JsonNode actions = camel.get("actions");
      JsonNode actionsBack = back.get("actions");
      if (actions instanceof ObjectNode a) {
        a.fields()
            .forEachRemaining(
                f -> {
                  if ((actionsBack == null || !actionsBack.has(f.getKey()))
                      && !isEmpty(f.getValue())) {
                    lost.add("actions." + f.getKey());
                  }
                });
      }
      if (!lost.isEmpty()) {
        problems.add(at + ": fields adk4j's events have no place for, not copied: " + lost);
      }
      return e;
    }

    private Map<String, Object> jsonMap(@Nullable String text, String at) {
      if (text == null || text.isBlank()) {
        return new LinkedHashMap<>();
      }
      JsonNode node = parse(text, at);
      @SuppressWarnings("unchecked")
      Map<String, Object> map = JSON.convertValue(node, LinkedHashMap.class);
      return map == null ? new LinkedHashMap<>() : map;
    }

    private ObjectNode jsonObject(@Nullable String text, String at) {
      JsonNode n = text == null ? null : parse(text, at);
      return n instanceof ObjectNode o ? o : JSON.createObjectNode();
    }

    private JsonNode parse(String text, String at) {
      try {
        return JSON.readTree(text);
      } catch (JsonProcessingException e) {
        throw new SessionException(at + ": stored JSON that cannot be read: " + e.getMessage(), e);
      }
    }
  }

  private static boolean isEmpty(JsonNode v) {
    return v.isNull() || ((v.isObject() || v.isArray()) && v.isEmpty());
  }

  private static boolean sameJson(@Nullable Object a, @Nullable Object b) {
    JsonNode x = JSON.valueToTree(a);
    JsonNode y = JSON.valueToTree(b);
    if (x.isNumber() && y.isNumber()) {
      return x.decimalValue().compareTo(y.decimalValue()) == 0;
    }
    return x.equals(y);
  }

  /** SQLAlchemy's SQLite text form of a DateTime: {@code 2025-06-01 10:00:00.123456}. */
  private static final DateTimeFormatter SQLITE_TIME =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd[ ]['T']HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .optionalEnd()
          .toFormatter();

  /** An event's stored time (naive, the writer's local time) in epoch milliseconds. */
  private static long epochMillis(@Nullable Object value, String at) {
    LocalDateTime t;
    if (value instanceof Timestamp ts) {
      t = ts.toLocalDateTime();
    } else if (value instanceof LocalDateTime l) {
      t = l;
    } else if (value instanceof Number n) {
      return (long) (n.doubleValue() * 1000);
    } else if (value != null) {
      try {
        t = LocalDateTime.parse(value.toString().trim(), SQLITE_TIME);
      } catch (RuntimeException e) {
        throw new SessionException(at + ": a timestamp that cannot be read", e);
      }
    } else {
      throw new SessionException(at + ": no timestamp");
    }
    return t.atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
  }

  /**
   * Names under which ADK keeps data whose keys are not field names (state keys, file names,
   * function arguments): copied as they are.
   */
  private static final Set<String> DATA =
      Set.of(
          "stateDelta",
          "artifactDelta",
          "args",
          "response",
          "customMetadata",
          "requestedAuthConfigs",
          "requestedToolConfirmations",
          "agentState");

  /** ADK's snake_case field names in camelCase, outside data. */
  private static JsonNode camelCase(JsonNode node) {
    if (node instanceof ObjectNode o) {
      ObjectNode out = JSON.createObjectNode();
      Iterator<Map.Entry<String, JsonNode>> it = o.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> f = it.next();
        String key = camel(f.getKey());
        out.set(key, DATA.contains(key) ? f.getValue() : camelCase(f.getValue()));
      }
      return out;
    }
    if (node instanceof ArrayNode a) {
      ArrayNode out = JSON.createArrayNode();
      a.forEach(v -> out.add(camelCase(v)));
      return out;
    }
    return node;
  }

  private static String camel(String snake) {
    if (snake.indexOf('_') < 0) {
      return snake;
    }
    StringBuilder out = new StringBuilder();
    boolean up = false;
    for (char ch : snake.toCharArray()) {
      if (ch == '_') {
        up = out.length() > 0;
      } else {
        out.append(up ? Character.toUpperCase(ch) : ch);
        up = false;
      }
    }
    return out.toString();
  }

  /** pydantic writes bytes in URL-safe base64; the genai types read the standard alphabet. */
  private static void standardBase64(JsonNode node) {
    if (node instanceof ObjectNode o) {
      List<String> names = new ArrayList<>();
      o.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        JsonNode v = o.get(name);
        if (name.equals("thoughtSignature") && v.isTextual()) {
          o.put(name, standard(v.asText()));
        } else if (name.equals("inlineData") && v instanceof ObjectNode blob) {
          JsonNode data = blob.get("data");
          if (data != null && data.isTextual()) {
            blob.put("data", standard(data.asText()));
          }
        } else {
          standardBase64(v);
        }
      }
    } else if (node instanceof ArrayNode a) {
      a.forEach(AdkPythonImporter::standardBase64);
    }
  }

  private static String standard(String s) {
    String t = s.replace('-', '+').replace('_', '/');
    int pad = (4 - t.length() % 4) % 4;
    return pad == 0 || t.endsWith("=") ? t : t + "=".repeat(pad);
  }
}
