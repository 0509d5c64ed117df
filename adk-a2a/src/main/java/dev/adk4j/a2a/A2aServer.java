package dev.adk4j.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InvocationFailedException;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.BaseTool;
import io.reactivex.rxjava3.disposables.Disposable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one adk4j agent (through its {@link Runner}) to A2A clients: A2A protocol 0.3, JSON-RPC
 * binding, on the JDK's {@link HttpServer}.
 *
 * <ul>
 *   <li>{@code GET /.well-known/agent-card.json} (and the older {@code /.well-known/agent.json}):
 *       the agent card: name, description, one skill for the agent, one per tool of an {@code
 *       LlmAgent} and one per sub-agent; {@code capabilities.streaming} true; the bearer scheme
 *       when a token is set.
 *   <li>{@code POST /}: JSON-RPC 2.0 requests {@code message/send}, {@code message/stream}
 *       (answered as server-sent events), {@code tasks/get}, {@code tasks/cancel}. Push
 *       notifications and {@code tasks/resubscribe} are answered with A2A's "not supported" errors.
 * </ul>
 *
 * <p><b>Contexts are sessions.</b> A message's {@code contextId} is the id of the session of the
 * runner's app (for the server's {@link Builder#userId user}) that the message goes to: created on
 * its first message, kept in the runner's session service (memory, SQLite, PostgreSQL), so a
 * caller's conversation keeps its state across messages, restarts and instances. A message without
 * one starts a new context (a generated id). Each message is one task and one invocation; the task
 * completes with the agent's last text as its {@code answer} artifact, or fails with a message
 * saying why.
 *
 * <p><b>Input required.</b> An invocation that pauses on a long-running tool call or a confirmation
 * request (see {@code docs/composition.md}) leaves its task {@code input-required}, the status
 * message holding the agent's last text and a data part {@code pendingCalls} (id, name, args,
 * status). The client's next message to that task (same {@code taskId} and {@code contextId})
 * answers the calls: its data part, or else {@code {"text": <its text>}}, becomes the function
 * response, and the runner resumes the invocation. The task id needs no memory of this instance: a
 * message naming an unknown task on a context whose session has open long-running calls resumes
 * them under that task id.
 *
 * <p>Tasks are kept in this server's memory for {@code tasks/get} and {@code tasks/cancel} (the
 * newest {@link Builder#maxTasks} of them). Canceling a task disposes its invocation: what it
 * stored stays stored. Thread-safe.
 */
public final class A2aServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(A2aServer.class);
  private static final int MAX_REQUEST_BYTES = 8 * 1024 * 1024;

  private final Runner runner;
  private final String userId;
  private final @Nullable String bearerToken;
  private final @Nullable String publicUrl;
  private final String version;
  private final int maxTasks;
  private final Map<String, ServedTask> tasks = new LinkedHashMap<>();
  private volatile @Nullable HttpServer server;
  private volatile @Nullable ExecutorService executor;
  private volatile @Nullable URI url;
  private volatile String card = "{}";

  private A2aServer(Builder b) {
    this.runner = Objects.requireNonNull(b.runner, "A2aServer needs a runner");
    this.userId = b.userId;
    this.bearerToken = b.bearerToken;
    this.publicUrl = b.publicUrl;
    this.version = b.version;
    this.maxTasks = b.maxTasks;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts serving on {@code host}:{@code port} (0: any free port) and returns the base URL; the
   * agent card is at {@code <url>.well-known/agent-card.json}, JSON-RPC at the URL itself.
   *
   * @throws IOException if the address cannot be bound
   * @throws IllegalStateException if this server was started already
   */
  public synchronized URI start(String host, int port) throws IOException {
    if (server != null) {
      throw new IllegalStateException(
          "The A2A server of app '" + runner.appName() + "' runs already");
    }
    HttpServer http = dev.adk4j.internal.HttpServers.create(new InetSocketAddress(host, port), 0);
    AtomicInteger threads = new AtomicInteger();
    ExecutorService pool =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "a2a-server-" + threads.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    http.setExecutor(pool);
    http.createContext("/", this::handle);
    http.start();
    URI base =
        publicUrl != null
            ? URI.create(publicUrl.endsWith("/") ? publicUrl : publicUrl + "/")
            : URI.create(
                "http://"
                    + (host.contains(":") ? "[" + host + "]" : host)
                    + ":"
                    + http.getAddress().getPort()
                    + "/");
    this.card = buildCard(base).toString();
    this.executor = pool;
    this.server = http;
    this.url = base;
    log.info("A2A server for agent '{}' listening at {}", runner.agent().name(), base);
    return base;
  }

  /** The base URL (the JSON-RPC endpoint), once started. */
  public URI url() {
    URI u = url;
    if (u == null) {
      throw new IllegalStateException("The A2A server is not started");
    }
    return u;
  }

  /** Where the agent card is served, once started. */
  public URI agentCardUrl() {
    return url().resolve(A2aWire.CARD_PATH.substring(1));
  }

  /** The agent card, as JSON text (empty object before {@link #start}). */
  public String agentCardJson() {
    return card;
  }

  /** Stops serving and cancels the tasks still running. Idempotent. */
  @Override
  public void close() {
    HttpServer http;
    synchronized (this) {
      http = server;
      server = null;
    }
    if (http != null) {
      http.stop(0);
    }
    List<ServedTask> open;
    synchronized (tasks) {
      open = List.copyOf(tasks.values());
    }
    open.forEach(ServedTask::cancel);
    ExecutorService pool = executor;
    if (pool != null) {
      pool.shutdownNow();
    }
  }

  private ObjectNode buildCard(URI base) {
    BaseAgent agent = runner.agent();
    ObjectNode c = A2aWire.NODES.objectNode();
    c.put("protocolVersion", A2aWire.PROTOCOL_VERSION);
    c.put("name", agent.name());
    c.put(
        "description",
        agent.description().isBlank()
            ? "The adk4j agent '" + agent.name() + "'"
            : agent.description());
    c.put("url", base.toString());
    c.put("preferredTransport", "JSONRPC");
    c.put("version", version);
    ObjectNode caps = c.putObject("capabilities");
    caps.put("streaming", true);
    caps.put("pushNotifications", false);
    caps.put("stateTransitionHistory", false);
    c.putArray("defaultInputModes").add("text/plain").add("application/json");
    c.putArray("defaultOutputModes").add("text/plain").add("application/json");
    ArrayNode skills = c.putArray("skills");
    addSkill(skills, agent.name(), agent.name(), c.path("description").asText(), "agent");
    if (agent instanceof LlmAgent llm) {
      for (BaseTool tool : llm.tools()) {
        addSkill(skills, agent.name() + "-" + tool.name(), tool.name(), tool.description(), "tool");
      }
    }
    for (BaseAgent sub : agent.subAgents()) {
      addSkill(skills, sub.name(), sub.name(), sub.description(), "sub-agent");
    }
    if (bearerToken != null) {
      c.putObject("securitySchemes")
          .putObject("bearer")
          .put("type", "http")
          .put("scheme", "bearer");
      c.putArray("security").addObject().putArray("bearer");
    }
    c.put("supportsAuthenticatedExtendedCard", false);
    return c;
  }

  private static void addSkill(
      ArrayNode skills, String id, String name, String description, String tag) {
    ObjectNode s = skills.addObject();
    s.put("id", id);
    s.put("name", name);
    s.put("description", description.isBlank() ? name : description);
    s.putArray("tags").add(tag);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      if (method.equals("GET")
          && (path.equals(A2aWire.CARD_PATH) || path.equals(A2aWire.LEGACY_CARD_PATH))) {
        send(exchange, 200, "application/json", card.getBytes(StandardCharsets.UTF_8));
        return;
      }
      if (!path.equals("/")) {
        send(exchange, 404, "text/plain", "Not found".getBytes(StandardCharsets.UTF_8));
        return;
      }
      if (!method.equals("POST")) {
        exchange.getResponseHeaders().add("Allow", "POST");
        send(exchange, 405, "text/plain", "POST JSON-RPC here".getBytes(StandardCharsets.UTF_8));
        return;
      }
      if (!authorized(exchange)) {
        exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer");
        send(exchange, 401, "text/plain", "Unauthorized".getBytes(StandardCharsets.UTF_8));
        return;
      }
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readNBytes(MAX_REQUEST_BYTES + 1);
      }
      if (body.length > MAX_REQUEST_BYTES) {
        reply(
            exchange,
            A2aWire.error(NullNode.instance, A2aWire.INVALID_REQUEST, "Request over 8 MiB"));
        return;
      }
      JsonNode request;
      try {
        request = A2aWire.JSON.readTree(body);
      } catch (IOException e) {
        reply(exchange, A2aWire.error(NullNode.instance, A2aWire.PARSE_ERROR, "Invalid JSON"));
        return;
      }
      dispatch(exchange, request);
    } catch (RuntimeException e) {
      log.warn("A2A server of agent '{}' failed a request", runner.agent().name(), e);
    }
  }

  private void dispatch(HttpExchange exchange, @Nullable JsonNode request) throws IOException {
    JsonNode id = request == null ? NullNode.instance : request.path("id");
    if (id.isMissingNode()) {
      id = NullNode.instance;
    }
    if (request == null
        || !request.isObject()
        || !"2.0".equals(request.path("jsonrpc").asText(null))
        || !request.path("method").isTextual()) {
      reply(
          exchange,
          A2aWire.error(
              id,
              A2aWire.INVALID_REQUEST,
              "Not a JSON-RPC 2.0 request (jsonrpc \"2.0\" and a method are required)"));
      return;
    }
    String method = request.get("method").asText();
    JsonNode params = request.path("params");
    try {
      switch (method) {
        case A2aWire.SEND -> reply(exchange, A2aWire.result(id, send(params)));
        case A2aWire.STREAM -> stream(exchange, id, params);
        case A2aWire.GET -> reply(exchange, A2aWire.result(id, get(params)));
        case A2aWire.CANCEL -> reply(exchange, A2aWire.result(id, cancel(params)));
        case "tasks/resubscribe" ->
            throw new RpcError(
                A2aWire.UNSUPPORTED_OPERATION,
                "tasks/resubscribe is not supported; poll with tasks/get");
        case "tasks/pushNotificationConfig/set",
            "tasks/pushNotificationConfig/get",
            "tasks/pushNotificationConfig/list",
            "tasks/pushNotificationConfig/delete" ->
            throw new RpcError(A2aWire.PUSH_NOT_SUPPORTED, "Push notifications are not supported");
        default -> throw new RpcError(A2aWire.METHOD_NOT_FOUND, "Method not found: " + method);
      }
    } catch (RpcError e) {
      reply(exchange, A2aWire.error(id, e.code, String.valueOf(e.getMessage())));
    }
  }

  /** A JSON-RPC error to answer with. */
  private static final class RpcError extends Exception {
    private static final long serialVersionUID = 1L;
    final int code;

    RpcError(int code, String message) {
      super(message, null, false, false);
      this.code = code;
    }
  }

  private JsonNode send(JsonNode params) throws RpcError {
    Turn turn = startTurn(params);
    turn.begin.run();
    boolean blocking = params.path("configuration").path("blocking").asBoolean(true);
    if (blocking) {
      try {
        turn.done.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RpcError(A2aWire.INTERNAL_ERROR, "Interrupted");
      } catch (java.util.concurrent.ExecutionException e) {
        throw new RpcError(A2aWire.INTERNAL_ERROR, "The task failed");
      }
    }
    return turn.task.snapshot(historyLength(params));
  }

  private void stream(HttpExchange exchange, JsonNode id, JsonNode params)
      throws IOException, RpcError {
    BlockingQueue<ObjectNode> events = new LinkedBlockingQueue<>();
    Turn turn = startTurn(params, events);
    exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
    exchange.getResponseHeaders().add("Cache-Control", "no-cache");
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    try {
      write(out, A2aWire.result(id, turn.first));
      // The invocation starts once the client knows the task's id (so that it can cancel it).
      turn.begin.run();
      while (true) {
        ObjectNode event = events.take();
        write(out, A2aWire.result(id, event));
        if (event.path("final").asBoolean(false)) {
          break;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException gone) {
      log.debug("A2A client of task {} left its stream: {}", turn.task.id, gone.toString());
    } finally {
      turn.task.removeListener(events);
    }
  }

  private static void write(OutputStream out, ObjectNode event) throws IOException {
    out.write(("data: " + event + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private JsonNode get(JsonNode params) throws RpcError {
    ServedTask task = task(params);
    return task.snapshot(
        params.path("historyLength").isInt() ? params.get("historyLength").asInt() : null);
  }

  private JsonNode cancel(JsonNode params) throws RpcError {
    ServedTask task = task(params);
    if (!task.cancel()) {
      throw new RpcError(
          A2aWire.TASK_NOT_CANCELABLE,
          "Task " + task.id + " cannot be canceled: it is " + task.state());
    }
    return task.snapshot(null);
  }

  private ServedTask task(JsonNode params) throws RpcError {
    JsonNode id = params.path("id");
    if (!id.isTextual()) {
      throw new RpcError(A2aWire.INVALID_PARAMS, "params.id (the task id) must be a string");
    }
    ServedTask task;
    synchronized (tasks) {
      task = tasks.get(id.asText());
    }
    if (task == null) {
      throw new RpcError(A2aWire.TASK_NOT_FOUND, "Task not found: " + id.asText());
    }
    return task;
  }

  private static @Nullable Integer historyLength(JsonNode params) {
    JsonNode n = params.path("configuration").path("historyLength");
    return n.isInt() ? n.asInt() : null;
  }

  /** A turn started: its task, the task's first snapshot, and when the turn settles. */
  private record Turn(
      ServedTask task, ObjectNode first, CompletableFuture<Void> done, Runnable begin) {}

  private Turn startTurn(JsonNode params) throws RpcError {
    return startTurn(params, null);
  }

  private Turn startTurn(JsonNode params, @Nullable BlockingQueue<ObjectNode> listener)
      throws RpcError {
    JsonNode message = params.path("message");
    if (!params.isObject() || message.isMissingNode()) {
      throw new RpcError(A2aWire.INVALID_PARAMS, "params.message is required");
    }
    String problem = A2aWire.messageProblem(message, "params.message");
    if (problem != null) {
      throw new RpcError(A2aWire.INVALID_PARAMS, problem);
    }
    if (!message.path("role").asText().equals("user")) {
      throw new RpcError(A2aWire.INVALID_PARAMS, "params.message.role must be \"user\"");
    }
    String contextId = message.path("contextId").asText("");
    String taskId = message.path("taskId").asText("");
    ServedTask task;
    Content content;
    if (!taskId.isEmpty()) {
      synchronized (tasks) {
        task = tasks.get(taskId);
      }
      if (task != null && !contextId.isEmpty() && !contextId.equals(task.contextId)) {
        throw new RpcError(
            A2aWire.INVALID_PARAMS,
            "Task " + taskId + " belongs to another context than " + contextId);
      }
      if (task == null) {
        if (contextId.isEmpty()) {
          throw new RpcError(A2aWire.TASK_NOT_FOUND, "Task not found: " + taskId);
        }
        Map<String, FunctionCall> open = openCalls(contextId);
        if (open.isEmpty()) {
          throw new RpcError(
              A2aWire.TASK_NOT_FOUND,
              "Task not found: " + taskId + " (and context " + contextId + " waits for no input)");
        }
        task = new ServedTask(taskId, contextId, userId);
        task.pendingFromSession(open);
        remember(task);
      }
      if (!task.state().equals(A2aWire.INPUT_REQUIRED)) {
        throw new RpcError(
            A2aWire.INVALID_PARAMS,
            "Task "
                + taskId
                + " is "
                + task.state()
                + ", not input-required: send a new message"
                + " without taskId");
      }
      content = answer(task.pendingCalls(), message);
    } else {
      if (contextId.isEmpty()) {
        contextId = A2aWire.newId();
      }
      task = new ServedTask(A2aWire.newId(), contextId, userId);
      remember(task);
      List<Part> parts = A2aWire.toParts(message.path("parts"));
      content = Content.builder().role("user").parts(parts).build();
    }
    if (listener != null) {
      task.addListener(listener);
    }
    CompletableFuture<Void> done = task.startTurn(((ObjectNode) message).deepCopy());
    ObjectNode first = task.snapshot(historyLength(params));
    ServedTask t = task;
    Content input = content;
    String session = contextId;
    Runnable begin =
        () -> {
          java.util.concurrent.atomic.AtomicReference<Event> last =
              new java.util.concurrent.atomic.AtomicReference<>();
          Disposable invocation =
              runner
                  .runAsync(
                      userId, session, input, RunConfig.builder().autoCreateSession(true).build())
                  // the task's turn runs on a thread of its own: begin returns at once
                  .subscribeOn(io.reactivex.rxjava3.schedulers.Schedulers.io())
                  .subscribe(
                      e -> {
                        last.set(e);
                        t.onEvent(e);
                      },
                      error -> failed(t, error),
                      () -> {
                        // A failed invocation ends with its error event, then completes.
                        Event e = last.get();
                        InvocationFailedException failed =
                            e == null ? null : InvocationFailedException.of(e).orElse(null);
                        if (failed == null) {
                          t.onComplete();
                        } else {
                          failed(t, failed.failure());
                        }
                      });
          t.run(invocation);
        };
    return new Turn(task, first, done, begin);
  }

  /** Ends task {@code t} as failed with {@code error}, the failure of its invocation. */
  private void failed(ServedTask t, Throwable error) {
    log.warn(
        "Agent '{}' failed A2A task {} of context {}",
        runner.agent().name(),
        t.id,
        t.contextId,
        error);
    t.onError(
        "The agent '"
            + runner.agent().name()
            + "' failed: "
            + error.getClass().getSimpleName()
            + (error.getMessage() == null ? "" : ": " + error.getMessage()));
  }

  /** The long-running calls of the context's session that no message has answered yet. */
  private Map<String, FunctionCall> openCalls(String contextId) {
    Session session =
        runner
            .sessionService()
            .getSession(runner.appName(), userId, contextId, Optional.empty())
            .blockingGet();
    if (session == null) {
      return Map.of();
    }
    Set<String> answered = new HashSet<>();
    Map<String, FunctionCall> open = new LinkedHashMap<>();
    for (Event e : session.events()) {
      if ("user".equals(e.author())) {
        for (FunctionResponse r : e.functionResponses()) {
          r.id().ifPresent(answered::add);
        }
      }
      Set<String> longRunning = e.longRunningToolIds().orElse(Set.of());
      if (!longRunning.isEmpty()) {
        open.clear(); // the latest pause is the one to answer
        for (FunctionCall c : e.functionCalls()) {
          c.id().filter(longRunning::contains).ifPresent(cid -> open.put(cid, c));
        }
      }
    }
    open.keySet().removeAll(answered);
    return open;
  }

  /** The client's answer to paused calls, as the function responses that resume them. */
  private static Content answer(Map<String, FunctionCall> calls, JsonNode message) {
    JsonNode data = A2aWire.firstData(message.path("parts"));
    Map<String, Object> response;
    if (data != null) {
      response = A2aWire.JSON.convertValue(data, Map.class);
    } else {
      response = Map.of("text", A2aWire.text(message.path("parts")));
    }
    List<Part> parts = new java.util.ArrayList<>();
    for (FunctionCall c : calls.values()) {
      parts.add(
          Part.builder()
              .functionResponse(
                  FunctionResponse.builder()
                      .id(c.id().orElse(""))
                      .name(c.name().orElse(""))
                      .response(response)
                      .build())
              .build());
    }
    return Content.builder().role("user").parts(parts).build();
  }

  private void remember(ServedTask task) {
    synchronized (tasks) {
      tasks.put(task.id, task);
      if (tasks.size() > maxTasks) {
        Iterator<ServedTask> it = tasks.values().iterator();
        while (tasks.size() > maxTasks && it.hasNext()) {
          ServedTask oldest = it.next();
          if (A2aWire.TERMINAL.contains(oldest.state())) {
            it.remove();
          }
        }
      }
    }
  }

  private boolean authorized(HttpExchange exchange) {
    if (bearerToken == null) {
      return true;
    }
    String given = exchange.getRequestHeaders().getFirst("Authorization");
    return given != null
        && MessageDigest.isEqual(
            given.getBytes(StandardCharsets.UTF_8),
            ("Bearer " + bearerToken).getBytes(StandardCharsets.UTF_8));
  }

  private static void reply(HttpExchange exchange, ObjectNode response) throws IOException {
    send(exchange, 200, "application/json", response.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange exchange, int status, String type, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().add("Content-Type", type);
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  /** Builds an {@link A2aServer}. */
  public static final class Builder {
    private @Nullable Runner runner;
    private String userId = "a2a-user";
    private @Nullable String bearerToken;
    private @Nullable String publicUrl;
    private String version = "1.0.0";
    private int maxTasks = 10_000;

    private Builder() {}

    /** The runner of the agent to serve (its app, session service and plugins). Required. */
    public Builder runner(Runner runner) {
      this.runner = Objects.requireNonNull(runner, "runner");
      return this;
    }

    /** The user the sessions of A2A contexts belong to. Default {@code a2a-user}. */
    public Builder userId(String userId) {
      if (userId == null || userId.isBlank()) {
        throw new IllegalArgumentException("userId must be a non-blank string");
      }
      this.userId = userId;
      return this;
    }

    /**
     * Requires {@code Authorization: Bearer <token>} on every JSON-RPC request (401 without it);
     * the agent card stays public and names the scheme.
     */
    public Builder bearerToken(String token) {
      if (token == null || token.isBlank()) {
        throw new IllegalArgumentException("The bearer token must be a non-blank string");
      }
      this.bearerToken = token;
      return this;
    }

    /** The URL clients reach the server at (behind a proxy), written into the agent card. */
    public Builder publicUrl(String publicUrl) {
      this.publicUrl = Objects.requireNonNull(publicUrl, "publicUrl");
      return this;
    }

    /** The agent's version in its card. Default {@code 1.0.0}. */
    public Builder version(String version) {
      this.version = Objects.requireNonNull(version, "version");
      return this;
    }

    /** How many tasks the server remembers for tasks/get (ended ones dropped first). */
    public Builder maxTasks(int maxTasks) {
      if (maxTasks < 1) {
        throw new IllegalArgumentException("maxTasks must be at least 1, got " + maxTasks);
      }
      this.maxTasks = maxTasks;
      return this;
    }

    public A2aServer build() {
      return new A2aServer(this);
    }
  }
}
