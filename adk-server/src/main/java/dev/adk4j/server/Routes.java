package dev.adk4j.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.artifacts.BaseArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.ListSessionsRequest;
import dev.adk4j.sessions.ListSessionsResponse;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionAlreadyExistsException;
import dev.adk4j.sessions.SessionBusyException;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.sessions.StaleSessionException;
import dev.adk4j.sessions.StateConflictException;
import io.reactivex.rxjava3.subscribers.ResourceSubscriber;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Every endpoint of the server, behind the security checks; see {@code docs/server.md}. */
final class Routes implements HttpHandler {
  private static final Logger log = LoggerFactory.getLogger(Routes.class);

  private static final String UI_RESOURCES = "dev/adk4j/server/browser/";
  private static final String TOKEN_COOKIE = "adk4j_token";
  private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");
  private static final Map<String, String> CONTENT_TYPES =
      Map.ofEntries(
          Map.entry("html", "text/html; charset=utf-8"),
          Map.entry("js", "text/javascript; charset=utf-8"),
          Map.entry("mjs", "text/javascript; charset=utf-8"),
          Map.entry("css", "text/css; charset=utf-8"),
          Map.entry("json", "application/json"),
          Map.entry("svg", "image/svg+xml"),
          Map.entry("png", "image/png"),
          Map.entry("ico", "image/x-icon"),
          Map.entry("woff2", "font/woff2"),
          Map.entry("txt", "text/plain; charset=utf-8"));

  private final Map<String, Runner> runners;
  private final BaseSessionService sessions;
  private final BaseArtifactService artifacts;
  private final ServerConfig config;
  private final String version;
  private final Set<ResourceSubscriber<Event>> runs = ConcurrentHashMap.newKeySet();

  Routes(
      Map<String, Runner> runners,
      BaseSessionService sessions,
      BaseArtifactService artifacts,
      ServerConfig config) {
    this.runners = runners;
    this.sessions = sessions;
    this.artifacts = artifacts;
    this.config = config;
    this.version = readVersion();
  }

  Set<String> appNames() {
    return runners.keySet();
  }

  void cancelRuns() {
    for (ResourceSubscriber<Event> run : runs) {
      run.dispose();
    }
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    try (ex) {
      try {
        dispatch(ex);
      } catch (HttpError e) {
        if (e.status == 413) {
          discardBody(ex, 16L * config.maxBodyBytes());
          ex.getResponseHeaders().set("Connection", "close");
        }
        sendJson(ex, e.status, Wire.error(String.valueOf(e.getMessage()), null, false));
      } catch (RuntimeException e) {
        sendFailure(ex, e);
      }
    } catch (IOException e) {
      log.debug("connection failed: {}", e.toString());
    }
  }

  private void sendFailure(HttpExchange ex, Throwable e) throws IOException {
    int status = statusOf(e);
    if (status >= 500) {
      log.error("{} {} failed", ex.getRequestMethod(), ex.getRequestURI().getRawPath(), e);
    }
    sendJson(ex, status, Wire.error(messageOf(e), e, config.debug()));
  }

  static int statusOf(Throwable e) {
    if (e instanceof HttpError h) {
      return h.status;
    }
    if (e instanceof SessionNotFoundException) {
      return 404;
    }
    if (e instanceof SessionAlreadyExistsException
        || e instanceof SessionBusyException
        || e instanceof StaleSessionException
        || e instanceof StateConflictException) {
      return 409;
    }
    if (e instanceof IllegalArgumentException) {
      return 400;
    }
    return 500;
  }

  static String messageOf(Throwable e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }

  // ---------------------------------------------------------------------------------------------
  // security

  private void dispatch(HttpExchange ex) throws IOException {
    String method = ex.getRequestMethod().toUpperCase(Locale.ROOT);
    URI uri = ex.getRequestURI();
    String path = uri.getRawPath() == null ? "/" : uri.getRawPath();
    Headers in = ex.getRequestHeaders();

    String host = in.getFirst("Host");
    if (config.checkHost() && !hostAllowed(host)) {
      throw new HttpError(
          403,
          "Host '"
              + host
              + "' is not allowed on a loopback bind (DNS rebinding protection); allowed: "
              + allowedHostNames());
    }
    String origin = in.getFirst("Origin");
    if (origin != null) {
      boolean cors = corsAllows(origin);
      if (!cors && !sameOrigin(origin, host)) {
        throw new HttpError(
            403,
            "cross-origin request from '"
                + origin
                + "' refused; allow the origin with the server's CORS option (--cors)");
      }
      if (cors) {
        Headers out = ex.getResponseHeaders();
        out.set("Access-Control-Allow-Origin", origin);
        out.set("Vary", "Origin");
        if ("OPTIONS".equals(method)) {
          out.set("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE, OPTIONS");
          out.set("Access-Control-Allow-Headers", "Content-Type, Authorization, Accept");
          out.set("Access-Control-Max-Age", "600");
          ex.sendResponseHeaders(204, -1);
          return;
        }
      }
    }

    List<String> seg = segments(path);
    if (seg.isEmpty()) {
      redirect(ex, "/dev-ui/");
      return;
    }
    if (seg.get(0).equals("dev-ui")) {
      if (!path.startsWith("/dev-ui/")) {
        redirect(ex, "/dev-ui/");
        return;
      }
      requireMethod(method, "GET", "HEAD");
      staticFile(ex, seg.subList(1, seg.size()), uri.getRawQuery());
      return;
    }
    if (seg.size() == 1 && seg.get(0).equals("health")) {
      requireMethod(method, "GET");
      sendJson(ex, 200, Wire.MAPPER.createObjectNode().put("status", "ok"));
      return;
    }
    authenticate(method, path, in);
    api(ex, method, seg, query(uri.getRawQuery()));
  }

  private boolean hostAllowed(@Nullable String host) {
    if (host == null) {
      return false;
    }
    String name = host.toLowerCase(Locale.ROOT);
    if (name.startsWith("[")) {
      int end = name.indexOf(']');
      name = end < 0 ? name : name.substring(0, end + 1);
    } else {
      int colon = name.lastIndexOf(':');
      name = colon < 0 ? name : name.substring(0, colon);
    }
    return LOOPBACK_NAMES.contains(name) || config.allowedHosts().contains(name);
  }

  private String allowedHostNames() {
    List<String> names = new ArrayList<>(List.of("localhost", "127.0.0.1", "[::1]"));
    names.addAll(config.allowedHosts());
    return String.join(", ", names);
  }

  private boolean corsAllows(String origin) {
    return config.corsOrigins().contains("*") || config.corsOrigins().contains(origin);
  }

  private static boolean sameOrigin(String origin, @Nullable String host) {
    if (host == null) {
      return false;
    }
    String h = host.toLowerCase(Locale.ROOT);
    String o = origin.toLowerCase(Locale.ROOT);
    return o.equals("http://" + h) || o.equals("https://" + h);
  }

  private void authenticate(String method, String path, Headers in) {
    Map<String, List<String>> headers = new HashMap<>();
    in.forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
    String expectedToken = config.bearerToken();
    if (expectedToken != null && !bearerOk(in, expectedToken)) {
      throw new HttpError(
          401,
          "authentication required: send 'Authorization: Bearer <token>' (the dev UI: open"
              + " /dev-ui/?token=<token> once)");
    }
    AdkServer.Authenticator auth = config.authenticator();
    if (auth != null && !auth.permits(method, path, Map.copyOf(headers))) {
      throw new HttpError(401, "authentication required: the server's authenticator refused");
    }
  }

  private static boolean bearerOk(Headers in, String token) {
    String authz = in.getFirst("Authorization");
    if (authz != null && authz.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return AdkServer.sameToken(authz.substring(7).trim(), token);
    }
    return AdkServer.sameToken(cookie(in, TOKEN_COOKIE), token);
  }

  private static @Nullable String cookie(Headers in, String name) {
    List<String> cookies = in.get("Cookie");
    if (cookies == null) {
      return null;
    }
    for (String header : cookies) {
      for (String c : header.split(";")) {
        String t = c.trim();
        if (t.startsWith(name + "=")) {
          return t.substring(name.length() + 1);
        }
      }
    }
    return null;
  }

  // ---------------------------------------------------------------------------------------------
  // the API

  private void api(HttpExchange ex, String method, List<String> seg, Map<String, String> query)
      throws IOException {
    String first = seg.get(0);
    int n = seg.size();
    if (n == 1 && first.equals("list-apps")) {
      requireMethod(method, "GET");
      listApps(ex, query);
      return;
    }
    if (n == 1 && first.equals("version")) {
      requireMethod(method, "GET");
      ObjectNode v = Wire.MAPPER.createObjectNode();
      v.put("version", version);
      v.put("language", "java");
      String javaVersion = System.getProperty("java.version");
      v.put("languageVersion", javaVersion);
      // The dev UI's info box reads the snake_case name.
      v.put("language_version", javaVersion);
      sendJson(ex, 200, v);
      return;
    }
    if (n == 1 && (first.equals("run") || first.equals("run_sse"))) {
      requireMethod(method, "POST");
      RunRequest run = runRequest(readBody(ex));
      if (first.equals("run")) {
        run(ex, run);
      } else {
        runSse(ex, run);
      }
      return;
    }
    if (first.equals("debug") && n >= 3 && seg.get(1).equals("trace")) {
      requireMethod(method, "GET");
      sendJson(ex, 200, Wire.MAPPER.createArrayNode()); // adk4j records no spans (yet)
      return;
    }
    if (first.equals("builder")) {
      throw new HttpError(501, "the agent builder is not supported by adk4j's server");
    }
    if (first.equals("dev")) {
      dev(ex, method, seg.subList(1, n), query);
      return;
    }
    if (first.equals("apps") && n >= 2) {
      apps(ex, method, seg, query, false);
      return;
    }
    throw HttpError.notFound("no endpoint " + method + " /" + String.join("/", seg));
  }

  /** The dev-only paths under {@code /dev/}: the app graph, and {@code /dev/apps/{app}/...}. */
  private void dev(HttpExchange ex, String method, List<String> seg, Map<String, String> query)
      throws IOException {
    int n = seg.size();
    if (n == 2 && seg.get(0).equals("build_graph")) {
      requireMethod(method, "GET");
      Runner r = runner(seg.get(1));
      ObjectNode info = Wire.MAPPER.createObjectNode();
      info.set("root_agent", AgentGraph.describe(r.agent()));
      sendJson(ex, 200, info);
      return;
    }
    if (n == 2 && seg.get(0).equals("build_graph_image")) {
      requireMethod(method, "GET");
      Runner r = runner(seg.get(1));
      sendJson(
          ex, 200, Wire.MAPPER.createObjectNode().put("dotSrc", AgentGraph.dot(r.agent(), null)));
      return;
    }
    if (n >= 2 && seg.get(0).equals("apps")) {
      runner(seg.get(1));
      if (n >= 4 && seg.get(2).equals("debug") && seg.get(3).equals("trace")) {
        requireMethod(method, "GET");
        sendJson(ex, 200, Wire.MAPPER.createArrayNode());
        return;
      }
      apps(ex, method, seg, query, true);
      return;
    }
    throw HttpError.notFound("no endpoint " + method + " /dev/" + String.join("/", seg));
  }

  private void apps(
      HttpExchange ex, String method, List<String> seg, Map<String, String> query, boolean dev)
      throws IOException {
    int n = seg.size();
    String app = seg.get(1);
    Runner runner = runner(app);
    if (n >= 3 && isEvalPath(seg.get(2))) {
      if (method.equals("GET")) {
        sendJson(ex, 200, Wire.MAPPER.createArrayNode());
        return;
      }
      throw new HttpError(501, "evaluation is not supported by adk4j's server");
    }
    if (n < 4 || !seg.get(2).equals("users") || (n >= 5 && !seg.get(4).equals("sessions"))) {
      throw HttpError.notFound("no endpoint " + method + " /" + String.join("/", seg));
    }
    String user = seg.get(3);
    if (n == 4) {
      throw HttpError.notFound("no endpoint " + method + " /" + String.join("/", seg));
    }
    if (n == 5) {
      if (dev) {
        throw HttpError.notFound("no endpoint " + method + " /dev/" + String.join("/", seg));
      }
      switch (method) {
        case "GET" -> listSessions(ex, app, user, query);
        case "POST" -> createSession(ex, app, user, null);
        default -> throw methodNotAllowed(method, "GET, POST");
      }
      return;
    }
    String id = seg.get(5);
    if (n == 6 && !dev) {
      switch (method) {
        case "GET" -> sendJson(ex, 200, Wire.session(requireSession(app, user, id, -1), true));
        case "POST" -> createSession(ex, app, user, id);
        case "DELETE" -> {
          requireSession(app, user, id, 0);
          sessions.deleteSession(app, user, id).blockingAwait();
          ex.sendResponseHeaders(204, -1);
        }
        case "PATCH" -> patchSession(ex, app, user, id);
        default -> throw methodNotAllowed(method, "GET, POST, DELETE, PATCH");
      }
      return;
    }
    if (n == 9 && seg.get(6).equals("events") && seg.get(8).equals("graph")) {
      requireMethod(method, "GET");
      Session s = requireSession(app, user, id, -1);
      String eventId = seg.get(7);
      Event event =
          s.events().stream()
              .filter(e -> e.id().equals(eventId))
              .findFirst()
              .orElseThrow(
                  () ->
                      HttpError.notFound(
                          "event '" + eventId + "' not found in session '" + id + "'"));
      sendJson(
          ex,
          200,
          Wire.MAPPER.createObjectNode().put("dotSrc", AgentGraph.dot(runner.agent(), event)));
      return;
    }
    if (n >= 7 && seg.get(6).equals("artifacts") && !dev) {
      artifacts(ex, method, app, user, id, seg.subList(7, n), query);
      return;
    }
    throw HttpError.notFound("no endpoint " + method + " /" + String.join("/", seg));
  }

  private static boolean isEvalPath(String s) {
    return s.equals("eval_sets")
        || s.equals("eval-sets")
        || s.equals("eval_results")
        || s.equals("eval-results")
        || s.equals("metrics-info");
  }

  private void listApps(HttpExchange ex, Map<String, String> query) throws IOException {
    List<String> names = new ArrayList<>(runners.keySet());
    names.sort(null);
    if ("true".equalsIgnoreCase(query.get("detailed"))) {
      ObjectNode out = Wire.MAPPER.createObjectNode();
      ArrayNode apps = out.putArray("apps");
      for (String name : names) {
        Runner r = Objects.requireNonNull(runners.get(name), name);
        ObjectNode a = apps.addObject();
        a.put("name", name);
        a.put("rootAgentName", r.agent().name());
        a.put("description", r.agent().description());
        a.put("language", "java");
      }
      sendJson(ex, 200, out);
      return;
    }
    sendJson(ex, 200, Wire.strings(names));
  }

  private Runner runner(String app) {
    Runner r = runners.get(app);
    if (r == null) {
      List<String> names = new ArrayList<>(runners.keySet());
      names.sort(null);
      throw HttpError.notFound("app '" + app + "' not found; apps: " + names);
    }
    return r;
  }

  // ---------------------------------------------------------------------------------------------
  // sessions

  private void listSessions(HttpExchange ex, String app, String user, Map<String, String> query)
      throws IOException {
    String size = query.get("pageSize");
    String token = query.get("pageToken");
    if (size == null && token == null) {
      ListSessionsResponse all = sessions.listSessions(app, user).blockingGet();
      ArrayNode out = Wire.MAPPER.createArrayNode();
      for (Session s : all.sessions()) {
        out.add(Wire.session(s, false));
      }
      sendJson(ex, 200, out);
      return;
    }
    ListSessionsRequest.Builder req = ListSessionsRequest.builder().pageToken(token);
    if (size != null) {
      try {
        req.pageSize(Integer.parseInt(size));
      } catch (NumberFormatException e) {
        throw HttpError.badRequest("pageSize must be a number, got '" + size + "'");
      }
    }
    ListSessionsResponse page = sessions.listSessions(app, user, req.build()).blockingGet();
    ObjectNode out = Wire.MAPPER.createObjectNode();
    ArrayNode list = out.putArray("sessions");
    for (Session s : page.sessions()) {
      list.add(Wire.session(s, false));
    }
    page.nextPageToken().ifPresent(t -> out.put("nextPageToken", t));
    sendJson(ex, 200, out);
  }

  private void createSession(HttpExchange ex, String app, String user, @Nullable String id)
      throws IOException {
    ObjectNode body = Wire.object(Wire.parse(readBody(ex)), "the request body");
    Map<String, Object> state;
    if (id == null) {
      state = Wire.map(Wire.field(body, "state"), "state");
      JsonNode chosen = Wire.field(body, "sessionId", "session_id");
      if (chosen != null) {
        if (!chosen.isTextual() || chosen.asText().isBlank()) {
          throw HttpError.badRequest("'sessionId' must be a non-blank string, got " + chosen);
        }
        id = chosen.asText();
      }
    } else if (body != null && body.size() == 1 && body.has("state")) {
      state = Wire.map(body.get("state"), "state");
    } else {
      state = Wire.map(body, "state"); // ADK's older form: the body is the state itself
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

  private void patchSession(HttpExchange ex, String app, String user, String id)
      throws IOException {
    ObjectNode body = Wire.object(Wire.parse(readBody(ex)), "the request body");
    Map<String, Object> delta =
        Wire.map(Wire.field(body, "stateDelta", "state_delta"), "stateDelta");
    if (delta == null) {
      throw HttpError.badRequest("'stateDelta' is required: {\"stateDelta\": {\"key\": value}}");
    }
    Event event =
        Event.builder()
            .author("user")
            .invocationId("p-" + UUID.randomUUID())
            .actions(EventActions.builder().stateDelta(delta).build())
            .build();
    for (int attempt = 1; ; attempt++) {
      Session s = requireSession(app, user, id, 0);
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

  /** The session, with all its events ({@code recent < 0}) or only the last {@code recent}. */
  private Session requireSession(String app, String user, String id, int recent) {
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

  // ---------------------------------------------------------------------------------------------
  // artifacts

  private void artifacts(
      HttpExchange ex,
      String method,
      String app,
      String user,
      String id,
      List<String> rest,
      Map<String, String> query)
      throws IOException {
    requireSession(app, user, id, 0);
    int n = rest.size();
    if (n == 0) {
      requireMethod(method, "GET");
      List<String> names = artifacts.listArtifactKeys(app, user, id).blockingGet().filenames();
      sendJson(ex, 200, Wire.strings(names));
      return;
    }
    String name = rest.get(0);
    if (n == 1) {
      if (method.equals("DELETE")) {
        artifacts.deleteArtifact(app, user, id, name).blockingAwait();
        ex.sendResponseHeaders(204, -1);
        return;
      }
      requireMethod(method, "GET");
      String v = query.get("version");
      sendArtifact(ex, app, user, id, name, v == null ? Optional.empty() : Optional.of(version(v)));
      return;
    }
    if (rest.get(1).equals("versions")) {
      requireMethod(method, "GET");
      if (n == 2) {
        List<Integer> versions = artifacts.listVersions(app, user, id, name).blockingGet();
        sendJson(ex, 200, Wire.array(versions));
        return;
      }
      if (n == 3) {
        sendArtifact(ex, app, user, id, name, Optional.of(version(rest.get(2))));
        return;
      }
    }
    throw HttpError.notFound("no endpoint " + method + " for artifact '" + name + "'");
  }

  private static int version(String v) {
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw HttpError.badRequest("an artifact version is a number, got '" + v + "'");
    }
  }

  private void sendArtifact(
      HttpExchange ex, String app, String user, String id, String name, Optional<Integer> version)
      throws IOException {
    Part part = artifacts.loadArtifact(app, user, id, name, version).blockingGet();
    if (part == null) {
      throw HttpError.notFound(
          "artifact '"
              + name
              + "'"
              + version.map(v -> " version " + v).orElse("")
              + " not found in session '"
              + id
              + "'");
    }
    sendJson(ex, 200, Wire.MAPPER.valueToTree(part));
  }

  // ---------------------------------------------------------------------------------------------
  // runs

  record RunRequest(
      String appName,
      String userId,
      String sessionId,
      Content newMessage,
      boolean streaming,
      @Nullable Map<String, Object> stateDelta) {}

  private RunRequest runRequest(byte[] raw) {
    ObjectNode body = Wire.object(Wire.parse(raw), "the request body");
    if (body == null) {
      throw HttpError.badRequest(
          "a run needs a body: {appName, userId, sessionId, newMessage, streaming, stateDelta}");
    }
    String app = Wire.requiredText(body, "appName", "app_name");
    String user = Wire.requiredText(body, "userId", "user_id");
    String session = Wire.requiredText(body, "sessionId", "session_id");
    JsonNode msg = Wire.field(body, "newMessage", "new_message");
    if (msg == null) {
      throw HttpError.badRequest(
          "'newMessage' is required: {\"role\": \"user\", \"parts\": [...]}");
    }
    if (!msg.isObject()) {
      throw HttpError.badRequest("'newMessage' must be a Content object, got " + msg);
    }
    Content content;
    try {
      content = Wire.MAPPER.treeToValue(msg, Content.class);
    } catch (IOException | IllegalArgumentException e) {
      throw HttpError.badRequest("'newMessage' is not a valid Content: " + e.getMessage());
    }
    JsonNode streaming = Wire.field(body, "streaming");
    if (streaming != null && !streaming.isBoolean()) {
      throw HttpError.badRequest("'streaming' must be true or false, got " + streaming);
    }
    Map<String, Object> delta =
        Wire.map(Wire.field(body, "stateDelta", "state_delta"), "stateDelta");
    runner(app);
    return new RunRequest(
        app, user, session, content, streaming != null && streaming.asBoolean(), delta);
  }

  private io.reactivex.rxjava3.core.Flowable<Event> start(RunRequest run) {
    requireSession(run.appName(), run.userId(), run.sessionId(), 0);
    RunConfig cfg =
        RunConfig.builder()
            .streamingMode(
                run.streaming() ? RunConfig.StreamingMode.SSE : RunConfig.StreamingMode.NONE)
            .build();
    return runner(run.appName())
        .runAsync(run.userId(), run.sessionId(), run.newMessage(), cfg, run.stateDelta());
  }

  private void run(HttpExchange ex, RunRequest run) throws IOException {
    io.reactivex.rxjava3.core.Flowable<Event> flow = start(run);
    List<Event> events = new ArrayList<>();
    Throwable[] failure = new Throwable[1];
    CountDownLatch done = new CountDownLatch(1);
    ResourceSubscriber<Event> sub =
        new ResourceSubscriber<>() {
          @Override
          public void onNext(Event e) {
            synchronized (events) {
              events.add(e);
            }
          }

          @Override
          public void onError(Throwable t) {
            failure[0] = t;
            done.countDown();
          }

          @Override
          public void onComplete() {
            done.countDown();
          }
        };
    runs.add(sub);
    try {
      flow.subscribe(sub);
      done.await();
    } catch (InterruptedException e) {
      sub.dispose();
      Thread.currentThread().interrupt();
      throw new HttpError(503, "the server is stopping");
    } finally {
      runs.remove(sub);
    }
    ArrayNode out = Wire.MAPPER.createArrayNode();
    synchronized (events) {
      for (Event e : events) {
        out.add(Wire.event(e));
      }
    }
    if (failure[0] != null) {
      Throwable t = failure[0];
      int status = statusOf(t);
      if (status >= 500) {
        log.warn("run on session {} failed", run.sessionId(), t);
      }
      ObjectNode err = Wire.error(messageOf(t), t, config.debug());
      err.set("events", out);
      sendJson(ex, status, err);
      return;
    }
    sendJson(ex, 200, out);
  }

  private void runSse(HttpExchange ex, RunRequest run) throws IOException {
    io.reactivex.rxjava3.core.Flowable<Event> flow = start(run); // 404 before the stream opens
    Headers h = ex.getResponseHeaders();
    h.set("Content-Type", "text/event-stream; charset=utf-8");
    h.set("Cache-Control", "no-cache");
    h.set("X-Accel-Buffering", "no");
    ex.sendResponseHeaders(200, 0);
    OutputStream out = ex.getResponseBody();
    Object lock = new Object();
    CountDownLatch done = new CountDownLatch(1);
    ResourceSubscriber<Event> sub =
        new ResourceSubscriber<>() {
          @Override
          public void onNext(Event e) {
            for (ObjectNode frame : Wire.sseFrames(e)) {
              if (!write(out, lock, "data: " + Wire.line(frame) + "\n\n")) {
                dispose(); // the client went away: cancel the run
                done.countDown();
                return;
              }
            }
          }

          @Override
          public void onError(Throwable t) {
            if (statusOf(t) >= 500) {
              log.warn("run on session {} failed", run.sessionId(), t);
            }
            write(
                out,
                lock,
                "data: " + Wire.line(Wire.error(messageOf(t), t, config.debug())) + "\n\n");
            done.countDown();
          }

          @Override
          public void onComplete() {
            done.countDown();
          }
        };
    runs.add(sub);
    try {
      flow.subscribe(sub);
      long beat = config.heartbeat().toMillis();
      while (!done.await(beat, TimeUnit.MILLISECONDS)) {
        if (!write(out, lock, ": keep-alive\n\n")) {
          log.debug("SSE client of session {} went away: cancelling the run", run.sessionId());
          sub.dispose();
          break;
        }
      }
    } catch (InterruptedException e) {
      sub.dispose();
      Thread.currentThread().interrupt();
    } finally {
      runs.remove(sub);
    }
    synchronized (lock) {
      try {
        out.close();
      } catch (IOException e) {
        log.debug("closing an SSE stream: {}", e.toString());
      }
    }
  }

  private static boolean write(OutputStream out, Object lock, String text) {
    synchronized (lock) {
      try {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
        return true;
      } catch (IOException e) {
        return false;
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // the dev UI

  private void staticFile(HttpExchange ex, List<String> seg, @Nullable String rawQuery)
      throws IOException {
    Map<String, String> query = query(rawQuery);
    String token = query.get("token");
    if (seg.isEmpty() && token != null && config.bearerToken() != null) {
      if (!AdkServer.sameToken(token, config.bearerToken())) {
        throw new HttpError(401, "wrong token");
      }
      ex.getResponseHeaders()
          .add("Set-Cookie", TOKEN_COOKIE + "=" + token + "; Path=/; HttpOnly; SameSite=Strict");
      redirect(ex, "/dev-ui/");
      return;
    }
    if (seg.equals(List.of("assets", "config", "runtime-config.json"))) {
      // The UI calls the API at backendUrl; empty: the origin it was loaded from.
      sendJson(ex, 200, Wire.MAPPER.createObjectNode().put("backendUrl", ""));
      return;
    }
    for (String s : seg) {
      if (s.equals("..") || s.equals(".") || s.contains("/") || s.contains("\\")) {
        throw HttpError.notFound("no such file");
      }
    }
    String file = seg.isEmpty() ? "index.html" : String.join("/", seg);
    InputStream in = Routes.class.getClassLoader().getResourceAsStream(UI_RESOURCES + file);
    if (in == null && (seg.isEmpty() || !seg.get(seg.size() - 1).contains("."))) {
      file = "index.html"; // a client-side route of the single-page app
      in = Routes.class.getClassLoader().getResourceAsStream(UI_RESOURCES + file);
    }
    if (in == null) {
      throw HttpError.notFound(
          file.equals("index.html")
              ? "the dev UI is not bundled in this build (adk-server's build unpacks it)"
              : "no such file: /dev-ui/" + file);
    }
    byte[] bytes;
    try (InputStream resource = in) {
      bytes = resource.readAllBytes();
    }
    String ext = file.substring(file.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    Headers h = ex.getResponseHeaders();
    h.set("Content-Type", CONTENT_TYPES.getOrDefault(ext, "application/octet-stream"));
    h.set("X-Content-Type-Options", "nosniff");
    h.set("Cache-Control", file.equals("index.html") ? "no-cache" : "max-age=3600");
    if (ex.getRequestMethod().equalsIgnoreCase("HEAD")) {
      ex.sendResponseHeaders(200, -1);
      return;
    }
    ex.sendResponseHeaders(200, bytes.length);
    ex.getResponseBody().write(bytes);
  }

  // ---------------------------------------------------------------------------------------------
  // plumbing

  private byte[] readBody(HttpExchange ex) throws IOException {
    int max = config.maxBodyBytes();
    String length = ex.getRequestHeaders().getFirst("Content-Length");
    if (length != null) {
      try {
        if (Long.parseLong(length.trim()) > max) {
          throw tooLarge(max);
        }
      } catch (NumberFormatException e) {
        throw HttpError.badRequest("bad Content-Length '" + length + "'");
      }
    }
    InputStream in = ex.getRequestBody();
    byte[] bytes = in.readNBytes(max + 1);
    if (bytes.length > max) {
      throw tooLarge(max);
    }
    return bytes;
  }

  /**
   * Reads and drops what is left of a refused body (up to a bound), so that the client, still
   * sending, reads the error response instead of a reset connection.
   */
  private static void discardBody(HttpExchange ex, long bound) {
    try {
      InputStream in = ex.getRequestBody();
      long skipped = 0;
      byte[] buffer = new byte[65536];
      int n;
      while (skipped < bound && (n = in.read(buffer)) > 0) {
        skipped += n;
      }
    } catch (IOException e) {
      log.debug("discarding a refused body: {}", e.toString());
    }
  }

  private static HttpError tooLarge(int max) {
    return new HttpError(413, "request body larger than the limit of " + max + " bytes");
  }

  private static void requireMethod(String method, String... allowed) {
    if (!Arrays.asList(allowed).contains(method)) {
      throw methodNotAllowed(method, String.join(", ", allowed));
    }
  }

  private static HttpError methodNotAllowed(String method, String allowed) {
    return new HttpError(405, "method " + method + " not allowed here; allowed: " + allowed);
  }

  private static void redirect(HttpExchange ex, String to) throws IOException {
    ex.getResponseHeaders().set("Location", to);
    ex.sendResponseHeaders(302, -1);
  }

  private static void sendJson(HttpExchange ex, int status, JsonNode body) throws IOException {
    byte[] bytes = Wire.bytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static List<String> segments(String rawPath) {
    List<String> out = new ArrayList<>();
    for (String s : rawPath.split("/")) {
      if (!s.isEmpty()) {
        out.add(decode(s));
      }
    }
    return out;
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("bad percent-encoding in '" + s + "'");
    }
  }

  private static Map<String, String> query(@Nullable String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        out.putIfAbsent(
            URLDecoder.decode(k, StandardCharsets.UTF_8),
            URLDecoder.decode(v, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        throw HttpError.badRequest("bad percent-encoding in the query '" + raw + "'");
      }
    }
    return out;
  }

  private static String readVersion() {
    Properties p = new Properties();
    try (InputStream in = Routes.class.getResourceAsStream("server.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      log.debug("no server.properties: {}", e.toString());
    }
    return p.getProperty("version", "unknown");
  }
}
