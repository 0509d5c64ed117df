package dev.adk4j.server;

import static dev.adk4j.server.Exchanges.discardBody;
import static dev.adk4j.server.Exchanges.query;
import static dev.adk4j.server.Exchanges.redirect;
import static dev.adk4j.server.Exchanges.requireMethod;
import static dev.adk4j.server.Exchanges.segments;
import static dev.adk4j.server.Exchanges.sendJson;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.adk4j.artifacts.BaseArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionAlreadyExistsException;
import dev.adk4j.sessions.SessionBusyException;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.sessions.StaleSessionException;
import dev.adk4j.sessions.StateConflictException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every endpoint of the server, behind the security checks ({@link Guard}); see {@code
 * docs/server.md}. This class maps failures to statuses and dispatches by path; the routes
 * themselves live in {@link SessionRoutes}, {@link ArtifactRoutes}, {@link RunRoutes} and {@link
 * DevUiFiles}.
 */
final class Routes implements HttpHandler {
  private static final Logger log = LoggerFactory.getLogger(Routes.class);

  private final ServerConfig config;
  private final BaseSessionService sessionService;
  private final String version;
  private final Guard guard;
  private final Apps apps;
  private final SessionRoutes sessions;
  private final ArtifactRoutes artifacts;
  private final RunRoutes runs;
  private final DevUiFiles devUi;
  private final EvalRoutes evals;
  private final @Nullable Traces traces;

  Routes(
      Map<String, Runner> runners,
      Map<String, AdkServer.ClientPolicy> policies,
      BaseSessionService sessions,
      BaseArtifactService artifacts,
      EvalStore evalStore,
      ServerConfig config,
      EvalJudges judges) {
    this.config = config;
    this.sessionService = sessions;
    this.version = readVersion();
    this.guard = new Guard(config);
    this.apps = new Apps(runners, policies);
    this.sessions = new SessionRoutes(sessions, apps, config);
    this.artifacts = new ArtifactRoutes(artifacts, this.sessions, config);
    this.traces = config.traces() ? Traces.install() : null;
    this.runs = new RunRoutes(apps, this.sessions, config);
    this.devUi = new DevUiFiles(config);
    this.evals = new EvalRoutes(evalStore, sessions, this.sessions, config, judges);
  }

  Set<String> appNames() {
    return apps.names();
  }

  /**
   * Cancels the runs in flight and waits (up to {@code wait} in all) until each has closed its
   * turn: the Runner stores a CANCELLED event, then releases the session's lease, which this takes
   * and gives back. Without it a store closed right after could lose that event.
   */
  void cancelRuns(java.time.Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
    for (RunRoutes.RunRequest run : runs.cancelAll()) {
      long left = Math.max(0, deadline - System.nanoTime());
      try {
        sessionService
            .acquireLease(
                run.appName(), run.userId(), run.sessionId(), java.time.Duration.ofNanos(left))
            .blockingGet()
            .close();
      } catch (SessionNotFoundException e) {
        // deleted meanwhile: nothing to close
      } catch (RuntimeException e) {
        log.warn(
            "stopping: the cancelled run on session '{}' of user '{}' in app '{}' did not end in"
                + " time ({})",
            run.sessionId(),
            run.userId(),
            run.appName(),
            e.toString());
      }
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
        sendJson(ex, e.status, Wire.error(e));
      } catch (RuntimeException e) {
        sendFailure(ex, e);
      }
    } catch (IOException e) {
      log.debug("connection failed: {}", e.toString());
    }
  }

  // ---------------------------------------------------------------------------------------------
  // error mapping

  private void sendFailure(HttpExchange ex, Throwable e) throws IOException {
    if (e instanceof HttpError h) {
      sendJson(ex, h.status, Wire.error(h));
      return;
    }
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
    if (e instanceof dev.adk4j.runner.InvocationFailedException f) {
      return switch (f.errorCode()) {
        case "STATE_CONFLICT", "SESSION_BUSY" -> 409;
        case "INVALID_ARGUMENT" -> 400;
        case "SESSION_NOT_FOUND" -> 404;
        default -> 500;
      };
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
  // dispatch

  private void dispatch(HttpExchange ex) throws IOException {
    String method = ex.getRequestMethod().toUpperCase(Locale.ROOT);
    URI uri = ex.getRequestURI();
    String path = uri.getRawPath() == null ? "/" : uri.getRawPath();
    if (!guard.admit(ex, method)) {
      return; // a CORS preflight, answered
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
      devUi.serve(ex, seg.subList(1, seg.size()), uri.getRawQuery());
      return;
    }
    if (seg.size() == 1 && seg.get(0).equals("health")) {
      requireMethod(method, "GET");
      sendJson(ex, 200, Wire.MAPPER.createObjectNode().put("status", "ok"));
      return;
    }
    guard.authenticate(method, path, ex.getRequestHeaders());
    api(ex, method, seg, query(uri.getRawQuery()));
  }

  private void api(HttpExchange ex, String method, List<String> seg, Map<String, String> query)
      throws IOException {
    String first = seg.get(0);
    int n = seg.size();
    if (n == 1 && first.equals("list-apps")) {
      requireMethod(method, "GET");
      sendJson(ex, 200, apps.list("true".equalsIgnoreCase(query.get("detailed"))));
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
      runs.handle(ex, first.equals("run_sse"));
      return;
    }
    if (first.equals("debug") && n >= 3 && seg.get(1).equals("trace")) {
      requireMethod(method, "GET");
      trace(ex, seg.subList(2, n));
      return;
    }
    if (first.equals("builder")) {
      builder(ex, method, seg);
      return;
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

  /**
   * {@code /debug/trace/{eventId}} (the model call that produced the event) and {@code
   * /debug/trace/session/{id}} (the spans of the session's invocations), from the spans {@link
   * Traces} keeps when the server runs with traces on; without them, as ADK answers for an event it
   * has no trace of, 404 "Trace not found", and an empty list for a session.
   */
  private void trace(HttpExchange ex, List<String> rest) throws IOException {
    if (rest.size() == 2 && rest.get(0).equals("session")) {
      sendJson(
          ex, 200, traces == null ? Wire.MAPPER.createArrayNode() : traces.session(rest.get(1)));
      return;
    }
    if (rest.size() == 1) {
      if (traces == null) {
        throw HttpError.notFound("Trace not found");
      }
      sendJson(
          ex,
          200,
          traces.event(rest.get(0)).orElseThrow(() -> HttpError.notFound("Trace not found")));
      return;
    }
    throw HttpError.notFound("no endpoint GET /debug/trace/" + String.join("/", rest));
  }

  /**
   * {@code /builder/...} as ADK's server answers without an agent builder: {@code GET
   * /builder/app/{app}} an empty text (the app has no builder file), {@code POST /builder/save}
   * {@code false} (nothing saved).
   */
  private void builder(HttpExchange ex, String method, List<String> seg) throws IOException {
    if (seg.size() == 3 && seg.get(1).equals("app")) {
      requireMethod(method, "GET");
      apps.runner(seg.get(2));
      ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
      ex.sendResponseHeaders(200, -1);
      return;
    }
    if (seg.size() == 2 && seg.get(1).equals("save")) {
      requireMethod(method, "POST");
      discardBody(ex, 16L * config.maxBodyBytes());
      sendJson(ex, 200, com.fasterxml.jackson.databind.node.BooleanNode.FALSE);
      return;
    }
    throw HttpError.notFound("no endpoint " + method + " /" + String.join("/", seg));
  }

  /**
   * {@code build_graph_image}: as the dev UI reads it, the drawings of the app's graphs by path,
   * {@code {"<app>": {dotSrc}}} (the app's key stands for its root; the UI renders each and shows
   * the root's in the Info panel and an event's Graph tab), or with {@code ?node=<path>} (the Agent
   * Structure view opening a node) {@code {dotSrc}}. adk4j draws one graph of the whole app, so
   * every node answers it.
   */
  private ObjectNode graphImage(String app, Map<String, String> query) {
    ObjectNode dot =
        Wire.MAPPER
            .createObjectNode()
            .put("dotSrc", AgentGraph.dot(apps.runner(app).agent(), null));
    String node = query.get("node");
    if (node != null && !node.isEmpty()) {
      return dot;
    }
    ObjectNode byPath = Wire.MAPPER.createObjectNode();
    byPath.set(app, dot);
    return byPath;
  }

  /** The dev-only paths under {@code /dev/}: the app graph, and {@code /dev/apps/{app}/...}. */
  private void dev(HttpExchange ex, String method, List<String> seg, Map<String, String> query)
      throws IOException {
    int n = seg.size();
    if (n == 2 && seg.get(0).equals("build_graph")) {
      requireMethod(method, "GET");
      Runner r = apps.runner(seg.get(1));
      ObjectNode info = Wire.MAPPER.createObjectNode();
      info.put("name", seg.get(1));
      info.set("root_agent", AgentGraph.describe(r.agent()));
      sendJson(ex, 200, info);
      return;
    }
    if (n == 2 && seg.get(1).equals("graph")) {
      // ADK's current form: the app's graph without highlights
      requireMethod(method, "GET");
      Runner r = apps.runner(seg.get(0));
      sendJson(
          ex, 200, Wire.MAPPER.createObjectNode().put("dotSrc", AgentGraph.dot(r.agent(), null)));
      return;
    }
    if (n == 2 && seg.get(0).equals("build_graph_image")) {
      requireMethod(method, "GET");
      sendJson(ex, 200, graphImage(seg.get(1), query));
      return;
    }
    if (n >= 2 && seg.get(0).equals("apps")) {
      Runner r = apps.runner(seg.get(1));
      if (n == 3 && seg.get(2).equals("build_graph")) {
        // the current form of /dev/build_graph/{app} (ADK's newer dev UI, @google/adk-devtools)
        requireMethod(method, "GET");
        ObjectNode info = Wire.MAPPER.createObjectNode();
        info.put("name", seg.get(1));
        info.set("root_agent", AgentGraph.describe(r.agent()));
        sendJson(ex, 200, info);
        return;
      }
      if (n == 3 && seg.get(2).equals("build_graph_image")) {
        requireMethod(method, "GET");
        sendJson(ex, 200, graphImage(seg.get(1), query));
        return;
      }
      if (n >= 3 && seg.get(2).equals("builder")) {
        // as /builder/...: no builder file, nothing saved
        if (n == 3) {
          requireMethod(method, "GET");
          ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
          ex.sendResponseHeaders(200, -1);
          return;
        }
        if (n == 4 && (seg.get(3).equals("save") || seg.get(3).equals("cancel"))) {
          requireMethod(method, "POST");
          discardBody(ex, 16L * config.maxBodyBytes());
          sendJson(ex, 200, com.fasterxml.jackson.databind.node.BooleanNode.FALSE);
          return;
        }
      }
      if (n >= 4 && seg.get(2).equals("debug") && seg.get(3).equals("trace")) {
        requireMethod(method, "GET");
        trace(ex, seg.subList(4, n));
        return;
      }
      apps(ex, method, seg, query, true);
      return;
    }
    throw HttpError.notFound("no endpoint " + method + " /dev/" + String.join("/", seg));
  }

  /** {@code /apps/{app}/...} (and, with {@code dev}, the part of it under {@code /dev/}). */
  private void apps(
      HttpExchange ex, String method, List<String> seg, Map<String, String> query, boolean dev)
      throws IOException {
    int n = seg.size();
    String app = seg.get(1);
    Runner runner = apps.runner(app);
    if (n == 3 && seg.get(2).equals("app-info")) {
      requireMethod(method, "GET");
      sendJson(ex, 200, AgentGraph.appInfo(app, runner.agent()));
      return;
    }
    if (n >= 3 && EvalRoutes.isEvalPath(seg.get(2))) {
      evals.handle(ex, method, app, runner, seg.subList(2, n));
      return;
    }
    if (n < 4 || !seg.get(2).equals("users") || (n >= 5 && !seg.get(4).equals("sessions"))) {
      throw HttpError.notFound("no endpoint " + method + " /" + String.join("/", seg));
    }
    String user = Wire.id(seg.get(3), "userId", "path");
    if (n == 4) {
      throw HttpError.notFound("no endpoint " + method + " /" + String.join("/", seg));
    }
    if (n == 5) {
      if (dev) {
        throw HttpError.notFound("no endpoint " + method + " /dev/" + String.join("/", seg));
      }
      sessions.collection(ex, method, app, user, query);
      return;
    }
    String id = Wire.id(seg.get(5), "sessionId", "path");
    if (n == 6 && !dev) {
      sessions.one(ex, method, app, user, id);
      return;
    }
    if (n == 9 && seg.get(6).equals("events") && seg.get(8).equals("graph")) {
      requireMethod(method, "GET");
      Session s = sessions.requireSession(app, user, id, -1);
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
      artifacts.handle(ex, method, app, user, id, seg.subList(7, n), query);
      return;
    }
    throw HttpError.notFound("no endpoint " + method + " /" + String.join("/", seg));
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
