package dev.adk4j.server;

import static dev.adk4j.server.Exchanges.methodNotAllowed;
import static dev.adk4j.server.Exchanges.readBody;
import static dev.adk4j.server.Exchanges.sendJson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.ListSessionsRequest;
import dev.adk4j.sessions.ListSessionsResponse;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionAlreadyExistsException;
import dev.adk4j.sessions.StaleSessionException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * {@code /apps/{app}/users/{user}/sessions[/{id}]}: list, create, read, delete and patch the state
 * of sessions; and the session lookup with a clear 404 that the other routes share.
 */
final class SessionRoutes {
  private final BaseSessionService sessions;
  private final Apps apps;
  private final ServerConfig config;

  SessionRoutes(BaseSessionService sessions, Apps apps, ServerConfig config) {
    this.sessions = sessions;
    this.apps = apps;
    this.config = config;
  }

  /** {@code .../sessions}: GET lists, POST creates with a generated or chosen id. */
  void collection(
      HttpExchange ex, String method, String app, String user, Map<String, String> query)
      throws IOException {
    switch (method) {
      case "GET" -> list(ex, app, user, query);
      case "POST" -> create(ex, app, user, null);
      default -> throw methodNotAllowed(method, "GET, POST");
    }
  }

  /** {@code .../sessions/{id}}: GET, POST (create with this id), DELETE, PATCH (state delta). */
  void one(HttpExchange ex, String method, String app, String user, String id) throws IOException {
    switch (method) {
      case "GET" -> sendJson(ex, 200, Wire.session(requireSession(app, user, id, -1), true));
      case "POST" -> create(ex, app, user, id);
      case "DELETE" -> {
        // ADK's answer: 200 with null, whether or not the session was there (idempotent)
        sessions.deleteSession(app, user, id).blockingAwait();
        sendJson(ex, 200, com.fasterxml.jackson.databind.node.NullNode.getInstance());
      }
      case "PATCH" -> patch(ex, app, user, id);
      default -> throw methodNotAllowed(method, "GET, POST, DELETE, PATCH");
    }
  }

  /** The header that carries the token of the next page of a paged session list. */
  static final String NEXT_PAGE_TOKEN = "X-Next-Page-Token";

  /**
   * The sessions, an array as ADK answers; {@code ?pageSize=&pageToken=} (adk4j) pages it, the body
   * still an array and the next page's token in the {@value #NEXT_PAGE_TOKEN} header.
   */
  private void list(HttpExchange ex, String app, String user, Map<String, String> query)
      throws IOException {
    String size = query.get("pageSize");
    String token = query.get("pageToken");
    ListSessionsResponse page;
    if (size == null && token == null) {
      page = sessions.listSessions(app, user).blockingGet();
    } else {
      ListSessionsRequest.Builder req = ListSessionsRequest.builder().pageToken(token);
      if (size != null) {
        try {
          req.pageSize(Integer.parseInt(size));
        } catch (NumberFormatException e) {
          throw HttpError.invalid(
              "int_parsing", "pageSize must be a number, got '" + size + "'", "query", "pageSize");
        }
      }
      page = sessions.listSessions(app, user, req.build()).blockingGet();
      page.nextPageToken().ifPresent(t -> ex.getResponseHeaders().set(NEXT_PAGE_TOKEN, t));
    }
    ArrayNode out = Wire.MAPPER.createArrayNode();
    for (Session s : page.sessions()) {
      if (!s.id().startsWith(EvalRoutes.EVAL_SESSION_PREFIX)) {
        // the sessions of eval runs are left out, as ADK's server leaves them out
        out.add(Wire.session(s, false));
      }
    }
    sendJson(ex, 200, out);
  }

  private void create(HttpExchange ex, String app, String user, @Nullable String id)
      throws IOException {
    ObjectNode body =
        Wire.object(Wire.parse(readBody(ex, config.maxBodyBytes())), "the request body");
    if (body != null && body.has("events") && (id == null || body.has("state"))) {
      importSession(ex, app, user, id, body);
      return;
    }
    Map<String, Object> state;
    if (id == null) {
      state = Wire.map(Wire.field(body, "state"), "state");
      id = chosenSessionId(body);
    } else if (body != null && body.size() == 1 && body.has("state")) {
      state = Wire.map(body.get("state"), "state");
    } else {
      state = Wire.map(body, "state"); // ADK's older form: the body is the state itself
    }
    if (state != null) {
      state =
          ClientWrites.state(
              apps.policy(app), state, null, ClientWrites.Source.CREATE, app, user, id);
    }
    Session created;
    try {
      created = sessions.createSession(app, user, state, id).blockingGet();
    } catch (SessionAlreadyExistsException e) {
      throw new HttpError(
          409, "session '" + id + "' already exists for app '" + app + "' and user '" + user + "'");
    }
    sendJson(ex, 200, Wire.session(created, true));
  }

  /** The {@code sessionId} a creation body chooses, checked; null when it chooses none. */
  private static @Nullable String chosenSessionId(@Nullable ObjectNode body) {
    JsonNode chosen = Wire.field(body, "sessionId", "session_id");
    if (chosen == null) {
      return null;
    }
    if (!chosen.isTextual() || chosen.asText().isBlank()) {
      throw HttpError.invalid(
          "string_type",
          "'sessionId' must be a non-blank string, got " + Wire.kind(chosen),
          "body",
          "sessionId");
    }
    return Wire.id(chosen.asText(), "sessionId", "body");
  }

  /**
   * A new session with the events a client imports (the dev UI's Import: {@code {events, state?,
   * sessionId?}}): every event is read and checked against the app's policy before anything is
   * stored; the events are then appended in order, and if one is refused the session is deleted
   * again, so an import stores all or nothing.
   */
  private void importSession(
      HttpExchange ex, String app, String user, @Nullable String id, ObjectNode body)
      throws IOException {
    AdkServer.ClientPolicy policy = apps.policy(app);
    if (id == null) {
      id = chosenSessionId(body);
    }
    JsonNode list = body.get("events");
    if (!list.isArray()) {
      throw HttpError.invalid(
          "list_type",
          "'events' must be an array of events, got " + Wire.kind(list),
          "body",
          "events");
    }
    Map<String, Object> state = Wire.map(Wire.field(body, "state"), "state");
    if (state != null) {
      state = ClientWrites.state(policy, state, null, ClientWrites.Source.CREATE, app, user, id);
    }
    List<Event> events = new ArrayList<>();
    Map<String, Integer> ids = new HashMap<>();
    for (int i = 0; i < list.size(); i++) {
      Event event = importedEvent(list.get(i), i);
      Integer first = ids.putIfAbsent(event.id(), i);
      if (first != null) {
        throw HttpError.badRequest(
            "events["
                + i
                + "] has the id "
                + ClientWrites.shown(event.id())
                + " of events["
                + first
                + "]: each event of a session has an id of its own; nothing was created");
      }
      events.add(ClientWrites.imported(policy, event, i, app, user, id));
    }
    Session created;
    try {
      created = sessions.createSession(app, user, state, id).blockingGet();
    } catch (SessionAlreadyExistsException e) {
      throw new HttpError(
          409, "session '" + id + "' already exists for app '" + app + "' and user '" + user + "'");
    }
    try {
      Session s = created;
      for (Event e : events) {
        sessions.appendEvent(s, e).blockingGet();
      }
    } catch (RuntimeException e) {
      try {
        sessions.deleteSession(app, user, created.id()).blockingAwait();
      } catch (RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    sendJson(ex, 200, Wire.session(requireSession(app, user, created.id(), -1), true));
  }

  /** One imported event, read; its {@code timestamp} in seconds (as the API writes it) or ms. */
  private static Event importedEvent(JsonNode node, int index) {
    if (!node.isObject()) {
      throw HttpError.invalid(
          "model_attributes_type",
          "events[" + index + "] must be an event object, got " + Wire.kind(node),
          "body",
          "events",
          index);
    }
    ObjectNode copy = ((ObjectNode) node).deepCopy();
    Wire.standardBase64(copy);
    JsonNode ts = copy.get("timestamp");
    if (ts != null && ts.isNumber()) {
      double t = ts.asDouble();
      copy.put("timestamp", (long) (t < 1e11 ? t * 1000 : t));
    }
    try {
      return Wire.MAPPER.treeToValue(copy, Event.class);
    } catch (IOException | IllegalArgumentException e) {
      throw HttpError.invalid(
          "model_type",
          "events[" + index + "] is not a valid event" + Wire.where(e),
          "body",
          "events",
          index);
    }
  }

  private void patch(HttpExchange ex, String app, String user, String id) throws IOException {
    ObjectNode body =
        Wire.object(Wire.parse(readBody(ex, config.maxBodyBytes())), "the request body");
    Map<String, Object> delta =
        Wire.map(Wire.field(body, "stateDelta", "state_delta"), "stateDelta");
    if (delta == null) {
      throw HttpError.invalid(
          "missing",
          "'stateDelta' is required: {\"stateDelta\": {\"key\": value}}",
          "body",
          "stateDelta");
    }
    String invocationId = "p-" + UUID.randomUUID();
    for (int attempt = 1; ; attempt++) {
      Session s = requireSession(app, user, id, 0);
      Map<String, Object> allowed =
          ClientWrites.state(
              apps.policy(app), delta, s.state(), ClientWrites.Source.PATCH, app, user, id);
      Event event =
          Event.builder()
              .author("user")
              .invocationId(invocationId)
              .actions(EventActions.builder().stateDelta(allowed).build())
              .build();
      try {
        sessions.appendEvent(s, event).blockingGet();
        break;
      } catch (StaleSessionException e) {
        if (attempt == 3) {
          throw e;
        }
      }
    }
    sendJson(ex, 200, Wire.session(requireSession(app, user, id, -1), true));
  }

  /**
   * The session, with all its events ({@code recent < 0}) or only the last {@code recent}.
   *
   * @throws HttpError 404 naming the session, app and user
   */
  Session requireSession(String app, String user, String id, int recent) {
    Optional<GetSessionConfig> cfg =
        recent < 0
            ? Optional.empty()
            : Optional.of(GetSessionConfig.builder().numRecentEvents(recent).build());
    Session s = sessions.getSession(app, user, id, cfg).blockingGet();
    if (s == null) {
      throw HttpError.notFound(
          "session '" + id + "' not found for app '" + app + "' and user '" + user + "'");
    }
    return s;
  }
}
