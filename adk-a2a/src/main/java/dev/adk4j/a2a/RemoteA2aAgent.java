package dev.adk4j.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.events.Event;
import io.reactivex.rxjava3.core.BackpressureStrategy;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An agent that runs on another server, reached over A2A (protocol 0.3, JSON-RPC binding): usable
 * wherever an adk4j agent is, as a sub-agent of a {@code SequentialAgent}, {@code ParallelAgent} or
 * {@code LoopAgent}, as a transfer target of an {@code LlmAgent}, or wrapped in an {@code
 * AgentTool}.
 *
 * <p><b>Built</b> from the remote's agent card: {@link Builder#build()} reads it (from the
 * well-known path under the URL given, or from the URL itself when it ends in {@code .json}) and
 * fails with an {@link A2aException} naming the URL when nothing answers there or the card is not
 * one this client can use. The card's {@code url} is where the calls go; its {@code
 * capabilities.streaming} decides between {@code message/stream} (server-sent events) and {@code
 * message/send}.
 *
 * <p><b>One run</b> sends one A2A message: the invocation's user message (its text, files and data)
 * followed by what the other agents of the invocation said before this one ran ({@code For context:
 * [agent] said: ...}). The first run of a session starts a new A2A context; the context id the
 * remote answers with is kept in the session's state under {@link #contextStateKey()}, so later
 * turns (on any instance sharing the session store) go on in the same remote conversation. The
 * remote's answer (a task's artifacts, else its status message, or a direct message) becomes one
 * event authored by this agent; with an {@link Builder#outputKey output key} its text is also
 * written to state under that key in the same event's delta, as an {@code LlmAgent}'s final answer
 * is ({@code temp:} keys included).
 *
 * <p><b>Input required.</b> A remote task that ends the turn in {@code input-required} pauses the
 * invocation as a long-running tool does: the event holds the remote's question as text and a
 * function call {@value #INPUT_REQUIRED_FUNCTION} ({@code taskId}, {@code contextId}, {@code
 * question}) listed in {@code longRunningToolIds}. The client answers it like any long-running
 * call, with a function response of that id and name whose response holds {@code text} (sent as a
 * text part) or any other object (sent as a data part); the runner resumes this agent, which sends
 * the answer to the same remote task. Everything needed lives in the session's events, so any
 * instance can resume it.
 *
 * <p><b>Faults.</b> Each run is bounded by {@link Builder#timeout} (default 5 minutes). A remote
 * that cannot be reached, answers malformed A2A messages, answers with a JSON-RPC error, ends its
 * task {@code failed}, {@code rejected}, {@code canceled} or {@code auth-required}, or does not
 * finish in time fails the invocation with an {@link A2aException} naming this agent, the URL and
 * the task; nothing is stored for the failed run, so the session's history stays valid. When the
 * run times out, or the local invocation is disposed while the remote task runs (a sibling of a
 * {@code ParallelAgent} failed, the caller cancelled), the remote task is canceled ({@code
 * tasks/cancel}) when its id is known, which it is from the first event of a streamed run.
 *
 * <p>Immutable and thread-safe; one instance may serve several invocations at once.
 */
public final class RemoteA2aAgent extends BaseAgent {
  private static final Logger log = LoggerFactory.getLogger(RemoteA2aAgent.class);

  /** The name of the function call that pauses an invocation on a remote task needing input. */
  public static final String INPUT_REQUIRED_FUNCTION = "a2a_input_required";

  private final URI cardUrl;
  private final URI endpoint;
  private final boolean streaming;
  private final @Nullable String outputKey;
  private final Duration timeout;
  private final JsonNode card;
  private final A2aClient client;
  private final String who;

  private RemoteA2aAgent(
      Builder b,
      String name,
      String description,
      List<dev.adk4j.agents.Callbacks.BeforeAgentCallback> before,
      List<dev.adk4j.agents.Callbacks.AfterAgentCallback> after,
      JsonNode card,
      URI cardUrl,
      URI endpoint,
      A2aClient client) {
    super(name, description, List.of(), before, after);
    this.cardUrl = cardUrl;
    this.endpoint = endpoint;
    this.card = card;
    this.client = client;
    this.outputKey = b.outputKey;
    this.timeout = b.timeout;
    this.streaming =
        b.streaming != null ? b.streaming : card.path("capabilities").path("streaming").asBoolean();
    this.who = describe(name, endpoint);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Where the JSON-RPC calls go: the agent card's {@code url}. */
  public URI endpoint() {
    return endpoint;
  }

  /** Where the agent card was read. */
  public URI agentCardUrl() {
    return cardUrl;
  }

  /** The agent card read at build time, as JSON text. */
  public String agentCardJson() {
    return card.toString();
  }

  public Optional<String> outputKey() {
    return Optional.ofNullable(outputKey);
  }

  public Duration timeout() {
    return timeout;
  }

  /** Whether runs use {@code message/stream} (else {@code message/send}). */
  public boolean streaming() {
    return streaming;
  }

  /** The session key holding the remote A2A context id of this agent's conversation. */
  public String contextStateKey() {
    return "a2a:" + name() + ":context_id";
  }

  @Override
  protected Flowable<Event> runAsyncImpl(InvocationContext context) {
    return Flowable.<Event>create(
        emitter -> {
          RemoteRun run = new RemoteRun(context);
          emitter.setCancellable(run::abandon);
          // On a thread of its own, not the subscription's: a dispose must not interrupt the read
          // that may still bring the id of the task to cancel (see RemoteRun.abandon).
          Schedulers.io()
              .scheduleDirect(
                  () -> {
                    Event event;
                    try {
                      event = run.run();
                    } catch (Throwable t) {
                      emitter.tryOnError(t);
                      return;
                    }
                    emitter.onNext(event);
                    emitter.onComplete();
                  });
        },
        BackpressureStrategy.BUFFER);
  }

  /** One run: one message to the remote and its answer, then one event. */
  private final class RemoteRun {
    private final InvocationContext ctx;
    private final A2aClient.Call call = new A2aClient.Call();
    private volatile @Nullable String taskId;
    private volatile @Nullable String contextId;
    private volatile String state = A2aWire.SUBMITTED;
    private volatile boolean finished;
    private volatile boolean abandoned;
    private @Nullable JsonNode statusMessage;
    private @Nullable JsonNode answerMessage;
    private final Map<String, ArrayNode> artifacts = new LinkedHashMap<>();

    RemoteRun(InvocationContext ctx) {
      this.ctx = ctx;
    }

    Event run() {
      try {
        return exchange();
      } finally {
        // Over, answered or failed: a later dispose of the emitter must not cancel the task again.
        finished = true;
      }
    }

    private Event exchange() {
      long deadline = System.nanoTime() + timeout.toNanos();
      ObjectNode message = outgoingMessage();
      ObjectNode params = A2aWire.NODES.objectNode();
      params.set("message", message);
      ObjectNode config = params.putObject("configuration");
      config.putArray("acceptedOutputModes").add("text/plain").add("application/json");
      config.put("blocking", true);
      try {
        if (streaming) {
          client.stream(endpoint, A2aWire.STREAM, params, deadline, call, this::onResult);
        } else {
          onResult(client.call(endpoint, A2aWire.SEND, params, deadline, call));
        }
      } catch (A2aException e) {
        if (!call.aborted() && System.nanoTime() - deadline >= 0) {
          String canceled = cancelRemote();
          throw new A2aException(who + " did not finish within " + timeout + task() + canceled, e);
        }
        throw e;
      }
      if (answerMessage == null
          && !A2aWire.TERMINAL.contains(state)
          && !A2aWire.INTERRUPTED.contains(state)) {
        if (System.nanoTime() - deadline >= 0) {
          throw new A2aException(
              who + " did not finish within " + timeout + task() + cancelRemote());
        }
        throw new A2aException(
            who + " ended the exchange with the task still " + state + task() + cancelRemote());
      }
      return toEvent();
    }

    /** Takes one result (a message, a task or a task update); false once the turn is over. */
    private boolean onResult(JsonNode result) {
      String kind = result.path("kind").asText("");
      switch (kind) {
        case "message" -> {
          String problem = A2aWire.messageProblem(result, "the message");
          if (problem != null) {
            throw client.malformed(streaming ? A2aWire.STREAM : A2aWire.SEND, problem, null);
          }
          answerMessage = result;
          if (result.hasNonNull("contextId")) {
            contextId = result.get("contextId").asText();
          }
          return false;
        }
        case "task" -> {
          String id = requireText(result, "id", "the task");
          taskId = id;
          contextId = requireText(result, "contextId", "the task");
          takeStatus(result.path("status"), "the task");
          JsonNode arts = result.path("artifacts");
          if (arts.isArray()) {
            artifacts.clear();
            for (JsonNode a : arts) {
              takeArtifact(a, false);
            }
          }
        }
        case "status-update" -> {
          taskId = requireText(result, "taskId", "the status update");
          contextId = requireText(result, "contextId", "the status update");
          takeStatus(result.path("status"), "the status update");
          if (result.path("final").asBoolean(false)) {
            return false;
          }
        }
        case "artifact-update" -> {
          taskId = requireText(result, "taskId", "the artifact update");
          takeArtifact(result.path("artifact"), result.path("append").asBoolean(false));
        }
        default ->
            throw client.malformed(
                streaming ? A2aWire.STREAM : A2aWire.SEND,
                "a result whose kind is "
                    + (kind.isEmpty() ? "missing" : "'" + kind + "'")
                    + " (expected message, task, status-update or artifact-update)",
                null);
      }
      if (abandoned) {
        // The invocation was disposed before the task id was known: cancel now that it is.
        cancelRemote();
        return false;
      }
      return !A2aWire.TERMINAL.contains(state) && !A2aWire.INTERRUPTED.contains(state);
    }

    private void takeStatus(JsonNode status, String where) {
      String s = status.path("state").asText("");
      if (!A2aWire.STATES.contains(s)) {
        throw client.malformed(
            streaming ? A2aWire.STREAM : A2aWire.SEND,
            where + " has " + (s.isEmpty() ? "no status.state" : "the unknown state '" + s + "'"),
            null);
      }
      state = s;
      JsonNode m = status.get("message");
      if (m != null && !m.isNull()) {
        String problem = A2aWire.messageProblem(m, where + "'s status.message");
        if (problem != null) {
          throw client.malformed(streaming ? A2aWire.STREAM : A2aWire.SEND, problem, null);
        }
        statusMessage = m;
      }
    }

    private void takeArtifact(JsonNode artifact, boolean append) {
      JsonNode parts = artifact.path("parts");
      if (!artifact.isObject() || !parts.isArray()) {
        throw client.malformed(
            streaming ? A2aWire.STREAM : A2aWire.SEND, "an artifact without parts", null);
      }
      String id = artifact.path("artifactId").asText("artifact-" + artifacts.size());
      ArrayNode kept = artifacts.get(id);
      if (append && kept != null) {
        kept.addAll((ArrayNode) parts);
      } else {
        artifacts.put(id, ((ArrayNode) parts).deepCopy());
      }
    }

    private String requireText(JsonNode node, String field, String where) {
      JsonNode v = node.get(field);
      if (v == null || !v.isTextual() || v.asText().isEmpty()) {
        throw client.malformed(
            streaming ? A2aWire.STREAM : A2aWire.SEND, where + " has no " + field, null);
      }
      return v.asText();
    }

    private Event toEvent() {
      CallbackContext cc = new CallbackContext(ctx);
      String known = contextOf(ctx);
      if (contextId != null && !contextId.equals(known)) {
        cc.state().put(contextStateKey(), contextId);
      }
      if (answerMessage == null && A2aWire.INTERRUPTED.contains(state)) {
        if (state.equals(A2aWire.AUTH_REQUIRED)) {
          throw new A2aException(
              who
                  + " needs authentication for"
                  + task()
                  + " (auth-required), which this client cannot give; the task stays open there");
        }
        return pauseEvent(cc);
      }
      if (A2aWire.TERMINAL.contains(state) && !state.equals(A2aWire.COMPLETED)) {
        String why = statusMessage == null ? "" : ": " + A2aWire.text(statusMessage.path("parts"));
        throw new A2aException(who + " ended" + task() + " " + state + why);
      }
      ArrayNode parts = A2aWire.NODES.arrayNode();
      if (answerMessage != null) {
        parts.addAll((ArrayNode) answerMessage.path("parts"));
      } else if (!artifacts.isEmpty()) {
        artifacts.values().forEach(parts::addAll);
      } else if (statusMessage != null) {
        parts.addAll((ArrayNode) statusMessage.path("parts"));
      }
      List<Part> content = A2aWire.toParts(parts);
      if (outputKey != null && !parts.isEmpty()) {
        cc.state().put(outputKey, A2aWire.text(parts));
      }
      Event.Builder e = newEvent(ctx).actions(cc.actions());
      if (!content.isEmpty()) {
        e.content(Content.builder().role("model").parts(content).build());
      }
      return e.build();
    }

    private Event pauseEvent(CallbackContext cc) {
      String question = statusMessage == null ? "" : A2aWire.text(statusMessage.path("parts"));
      String callId = "a2a-" + A2aWire.newId();
      Map<String, Object> args = new LinkedHashMap<>();
      args.put("taskId", Objects.requireNonNull(taskId));
      args.put("contextId", Objects.requireNonNullElse(contextId, ""));
      args.put("question", question);
      List<Part> parts = new ArrayList<>();
      if (!question.isEmpty()) {
        parts.add(Part.fromText(question));
      }
      parts.add(
          Part.builder()
              .functionCall(
                  FunctionCall.builder()
                      .id(callId)
                      .name(INPUT_REQUIRED_FUNCTION)
                      .args(args)
                      .build())
              .build());
      return newEvent(ctx)
          .content(Content.builder().role("model").parts(parts).build())
          .actions(cc.actions())
          .longRunningToolIds(Set.of(callId))
          .build();
    }

    /** The message to send: an answer to a paused task, or the invocation's message. */
    private ObjectNode outgoingMessage() {
      Content user = ctx.userContent().orElse(null);
      List<FunctionResponse> answers = new ArrayList<>();
      if (user != null) {
        for (Part p : user.parts().orElse(List.of())) {
          p.functionResponse()
              .filter(r -> INPUT_REQUIRED_FUNCTION.equals(r.name().orElse(null)))
              .ifPresent(answers::add);
        }
      }
      for (FunctionResponse answer : answers) {
        FunctionCall paused = pausedCall(answer.id().orElse(""));
        if (paused != null) {
          Map<String, Object> args = paused.args().orElse(Map.of());
          taskId = String.valueOf(args.get("taskId"));
          String ctxId = String.valueOf(args.getOrDefault("contextId", ""));
          contextId = ctxId.isEmpty() ? null : ctxId;
          return A2aWire.message("user", answerParts(answer), contextId, taskId);
        }
      }
      ArrayNode parts = A2aWire.NODES.arrayNode();
      if (user != null) {
        for (JsonNode p : A2aWire.parts(user)) {
          if (!p.path("data").has("functionResponse")) {
            parts.add(p);
          }
        }
      }
      for (Event e : ctx.session().events()) {
        if (Objects.equals(e.invocationId(), ctx.invocationId())
            && e.author() != null
            && !e.author().equals("user")
            && !e.author().equals(name())
            && !e.partial().orElse(false)) {
          String text = e.stringifyContent();
          if (!text.isBlank()) {
            parts
                .addObject()
                .put("kind", "text")
                .put("text", "For context: [" + e.author() + "] said: " + text);
          }
        }
      }
      if (parts.isEmpty()) {
        parts.addObject().put("kind", "text").put("text", "");
      }
      return A2aWire.message("user", parts, contextOf(ctx), null);
    }

    private @Nullable FunctionCall pausedCall(String id) {
      for (Event e : ctx.session().events()) {
        if (name().equals(e.author())) {
          for (FunctionCall c : e.functionCalls()) {
            if (id.equals(c.id().orElse(null))
                && INPUT_REQUIRED_FUNCTION.equals(c.name().orElse(null))) {
              return c;
            }
          }
        }
      }
      return null;
    }

    private ArrayNode answerParts(FunctionResponse answer) {
      Map<String, Object> response = answer.response().orElse(Map.of());
      for (String key : List.of("text", "answer", "response", "result")) {
        if (response.size() == 1 && response.get(key) instanceof String s) {
          return A2aWire.textParts(s);
        }
      }
      ArrayNode parts = A2aWire.NODES.arrayNode();
      parts.addObject().put("kind", "data").set("data", A2aWire.JSON.valueToTree(response));
      return parts;
    }

    private String task() {
      String id = taskId;
      return id == null ? "" : " (task " + id + ")";
    }

    /** Cancels the remote task if one is known and still open; says what happened. */
    private String cancelRemote() {
      String id = taskId;
      if (id == null || A2aWire.TERMINAL.contains(state)) {
        return "";
      }
      try {
        ObjectNode params = A2aWire.NODES.objectNode().put("id", id);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        client.call(endpoint, A2aWire.CANCEL, params, deadline, new A2aClient.Call());
        return "; the remote task was canceled";
      } catch (A2aException e) {
        log.warn("{}: could not cancel task {}: {}", who, id, e.getMessage());
        return "; canceling the remote task failed: " + e.getMessage();
      }
    }

    /** The local invocation no longer wants the answer: stop waiting and cancel the remote task. */
    void abandon() {
      if (finished) {
        return;
      }
      abandoned = true;
      if (taskId != null || !streaming) {
        call.abort();
        if (taskId != null) {
          Schedulers.io().scheduleDirect(this::cancelRemote);
        }
      } else {
        // The stream's first event names the task: keep reading until it comes (onResult then
        // cancels the task), for 10 seconds at most.
        Schedulers.io().scheduleDirect(call::abort, 10, java.util.concurrent.TimeUnit.SECONDS);
      }
    }
  }

  private @Nullable String contextOf(InvocationContext ctx) {
    Object v = new CallbackContext(ctx).state().get(contextStateKey());
    return v instanceof String s && !s.isEmpty() ? s : null;
  }

  private static String describe(String name, URI endpoint) {
    return "Remote A2A agent '" + name + "' at " + endpoint;
  }

  /** Builds a {@link RemoteA2aAgent}; {@link #build()} reads the agent card. */
  public static final class Builder extends BaseAgent.Builder<Builder> {
    private @Nullable String url;
    private @Nullable String outputKey;
    private Duration timeout = Duration.ofMinutes(5);
    private Duration connectTimeout = Duration.ofSeconds(10);
    private @Nullable Boolean streaming;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private @Nullable HttpClient httpClient;

    private Builder() {}

    /**
     * The remote agent: its base URL (the card is read from {@code
     * <url>/.well-known/agent-card.json}, then the older {@code agent.json}) or the URL of its
     * agent card (ending in {@code .json}). Required.
     */
    public Builder url(String url) {
      this.url = Objects.requireNonNull(url, "url");
      return this;
    }

    /** Where the remote's answer text is also written in state (as an LlmAgent's output key). */
    public Builder outputKey(String outputKey) {
      this.outputKey = Objects.requireNonNull(outputKey, "outputKey");
      return this;
    }

    /** The bound of one run, from sending to the remote's final answer. Default 5 minutes. */
    public Builder timeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive, got " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /** The bound of opening a connection and of reading the agent card. Default 10 s. */
    public Builder connectTimeout(Duration connectTimeout) {
      if (connectTimeout.isNegative() || connectTimeout.isZero()) {
        throw new IllegalArgumentException(
            "connectTimeout must be positive, got " + connectTimeout);
      }
      this.connectTimeout = connectTimeout;
      return this;
    }

    /**
     * A header sent with every request, the card's included (credentials: {@code Authorization:
     * Bearer ...}); never logged or named in messages.
     */
    public Builder header(String name, String value) {
      headers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * Forces {@code message/stream} (true) or {@code message/send} (false); by default the card's
     * {@code capabilities.streaming} decides.
     */
    public Builder streaming(boolean streaming) {
      this.streaming = streaming;
      return this;
    }

    /** The HTTP client to use (proxies, TLS); by default one of the agent's own, HTTP/1.1. */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
      return this;
    }

    /**
     * Reads the agent card and builds the agent.
     *
     * @throws A2aException naming the URL if no card can be read there (nothing listening, an HTTP
     *     error, not JSON), or the card has no JSON-RPC endpoint this client can call
     * @throws IllegalArgumentException if the name or URL is missing or invalid
     */
    @Override
    public RemoteA2aAgent build() {
      String name = requireName();
      if (url == null || url.isBlank()) {
        throw new IllegalArgumentException("RemoteA2aAgent '" + name + "' needs a url");
      }
      if (!subAgents.isEmpty()) {
        throw new IllegalArgumentException(
            "RemoteA2aAgent '" + name + "' cannot have sub-agents: the remote agent has its own");
      }
      URI base;
      try {
        base = URI.create(url);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "RemoteA2aAgent '" + name + "': '" + url + "' is not a URL", e);
      }
      if (!"http".equals(base.getScheme()) && !"https".equals(base.getScheme())) {
        throw new IllegalArgumentException(
            "RemoteA2aAgent '" + name + "': '" + url + "' is not an http or https URL");
      }
      HttpClient http = httpClient != null ? httpClient : A2aClient.newHttpClient(connectTimeout);
      String who = "Remote A2A agent '" + name + "'";
      A2aClient cardClient = new A2aClient(http, headers, who);
      URI cardUrl;
      JsonNode card;
      if (base.getPath() != null && base.getPath().endsWith(".json")) {
        cardUrl = base;
        card = cardClient.getJson(cardUrl, connectTimeout);
      } else {
        String root = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        cardUrl = URI.create(root + A2aWire.CARD_PATH);
        try {
          card = cardClient.getJson(cardUrl, connectTimeout);
        } catch (A2aException notThere) {
          if (!String.valueOf(notThere.getMessage()).contains("HTTP 404")) {
            throw notThere;
          }
          cardUrl = URI.create(root + A2aWire.LEGACY_CARD_PATH);
          card = cardClient.getJson(cardUrl, connectTimeout);
        }
      }
      String endpointText = card.path("url").asText("");
      if (endpointText.isEmpty()) {
        // A 1.0 card lists its interfaces; one of them may be a 0.3 JSON-RPC one.
        List<String> offered = new ArrayList<>();
        for (JsonNode iface : card.path("supportedInterfaces")) {
          String binding = iface.path("protocolBinding").asText("");
          String revision = iface.path("protocolVersion").asText("");
          offered.add(binding + " " + revision);
          if (binding.equalsIgnoreCase("JSONRPC") && revision.startsWith("0.3")) {
            endpointText = iface.path("url").asText("");
          }
        }
        if (endpointText.isEmpty()) {
          throw new A2aException(
              who
                  + ": the agent card at "
                  + cardUrl
                  + (offered.isEmpty()
                      ? " has no url"
                      : " offers " + offered + " but no JSON-RPC interface of A2A 0.3")
                  + "; this client speaks A2A 0.3 over JSON-RPC");
        }
      }
      String transport = card.path("preferredTransport").asText("JSONRPC");
      URI endpoint;
      try {
        endpoint = cardUrl.resolve(endpointText);
      } catch (IllegalArgumentException e) {
        throw new A2aException(
            who + ": the agent card at " + cardUrl + " has a url that is not a URL", e);
      }
      if (!transport.equalsIgnoreCase("JSONRPC")) {
        endpoint = null;
        for (JsonNode iface : card.path("additionalInterfaces")) {
          if (iface.path("transport").asText("").equalsIgnoreCase("JSONRPC")) {
            endpoint = cardUrl.resolve(iface.path("url").asText(""));
          }
        }
        if (endpoint == null) {
          throw new A2aException(
              who
                  + ": the agent card at "
                  + cardUrl
                  + " offers transport "
                  + transport
                  + " only; this client speaks JSON-RPC");
        }
      }
      String version = card.path("protocolVersion").asText("");
      if (!version.isEmpty() && !version.startsWith("0.3") && !version.startsWith("0.2")) {
        throw new A2aException(
            who
                + ": the agent card at "
                + cardUrl
                + " speaks A2A "
                + version
                + "; this client speaks 0.3 (and 0.2.x servers' JSON-RPC)");
      }
      return new RemoteA2aAgent(
          this,
          name,
          description != null ? description : card.path("description").asText(""),
          beforeAgentCallbacks,
          afterAgentCallbacks,
          card,
          cardUrl,
          endpoint,
          new A2aClient(http, headers, describe(name, endpoint)));
    }
  }
}
