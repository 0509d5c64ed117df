package dev.adk4j.server;

import com.sun.net.httpserver.HttpServer;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.artifacts.BaseArtifactService;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ADK REST API over adk4j agents, the one ADK's web dev UI talks to, with the dev UI itself at
 * {@code /dev-ui/}. See {@code docs/server.md} for the endpoints, options and security.
 *
 * <pre>{@code
 * try (AdkServer server =
 *     AdkServer.builder()
 *         .app("weather", weatherAgent)
 *         .store("jdbc:sqlite:data/server.db")
 *         .port(8000)
 *         .start()) {
 *   server.awaitStop();
 * }
 * }</pre>
 *
 * <p>Every app shares the server's session and artifact services; each app gets its own {@link
 * Runner}. The server binds to {@code 127.0.0.1} unless told otherwise; on another address it
 * refuses requests whose {@code Host} is a name it does not know (DNS rebinding). It serves no CORS
 * headers unless {@link Builder#corsOrigins allowed origins} are configured, and refuses
 * cross-origin requests from other origins. Thread-safe; {@link #close()} stops it.
 */
public final class AdkServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AdkServer.class);

  /** The default port, ADK's. */
  public static final int DEFAULT_PORT = 8000;

  /** The default bind address: loopback only. */
  public static final String DEFAULT_HOST = "127.0.0.1";

  /** The default limit of a request body: 32 MiB (the dev UI uploads files as base64 JSON). */
  public static final int DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

  private final HttpServer http;
  private final ExecutorService executor;
  private final Routes routes;
  private final @Nullable AutoCloseable ownedStore;
  private final EvalStore evalStore;
  private final Object stopLock = new Object();
  private boolean stopped;

  private AdkServer(Builder b) throws IOException {
    BaseSessionService sessions;
    AutoCloseable owned = null;
    if (b.sessionService != null) {
      sessions = b.sessionService;
    } else if (b.store != null) {
      // events as large as a request may be: a file the dev UI uploads is in the user's event
      DatabaseSessionService db =
          new DatabaseSessionService(
              b.store,
              dev.adk4j.sessions.DatabaseSessionConfig.builder()
                  .maxEventBytes(eventLimit(b.maxBodyBytes))
                  .build());
      sessions = db;
      owned = db;
    } else {
      sessions =
          new InMemorySessionService(
              dev.adk4j.sessions.SessionLimits.of(
                  dev.adk4j.sessions.SessionLimits.DEFAULT_MAX_VALUE_BYTES,
                  eventLimit(b.maxBodyBytes)));
    }
    BaseArtifactService artifacts =
        b.artifactService != null ? b.artifactService : new InMemoryArtifactService();
    Map<String, Runner> runners = new LinkedHashMap<>();
    for (Map.Entry<String, BaseAgent> app : b.apps.entrySet()) {
      runners.put(app.getKey(), new Runner(app.getValue(), app.getKey(), artifacts, sessions));
    }
    InetAddress address = InetAddress.getByName(b.host);
    ServerConfig config =
        new ServerConfig(
            b.maxBodyBytes,
            !b.allowAnyHost && (!address.isLoopbackAddress() || !b.allowedHosts.isEmpty()),
            List.copyOf(hostNames(address, b.allowedHosts)),
            List.copyOf(b.corsOrigins),
            b.authenticator,
            b.bearerToken,
            b.debug,
            b.heartbeat,
            wait -> {},
            b.traces);
    Map<String, ClientPolicy> policies = new LinkedHashMap<>();
    for (String app : runners.keySet()) {
      policies.put(app, b.appPolicies.getOrDefault(app, b.clientPolicy));
    }
    EvalStore evals;
    try {
      evals =
          evalStore(
              b.evalStore != null
                  ? b.evalStore
                  : b.store != null && b.sessionService == null ? b.store : null);
    } catch (RuntimeException e) {
      closeQuietly(owned);
      throw e;
    }
    this.evalStore = evals;
    this.routes =
        new Routes(
            Collections.unmodifiableMap(runners),
            Map.copyOf(policies),
            sessions,
            artifacts,
            evals,
            config,
            new EvalJudges(b.evalJudge, b.evalJudges));
    this.executor = Executors.newCachedThreadPool(daemonThreads());
    try {
      this.http = dev.adk4j.internal.HttpServers.create(new InetSocketAddress(address, b.port), 64);
    } catch (IOException e) {
      closeQuietly(owned);
      evals.close();
      throw new IOException("cannot listen on " + b.host + ":" + b.port + ": " + e.getMessage(), e);
    }
    this.ownedStore = owned;
    http.createContext("/", routes);
    http.setExecutor(executor);
    http.start();
    log.info(
        "ADK server listening on {} with apps {}; eval sets and results in {}",
        url(),
        runners.keySet(),
        evals.describe());
  }

  /**
   * The eval sets' and results' store: tables of the database at {@code jdbcUrl} (its own small
   * pool, the session schema migrated as the session service migrates it), in memory without one.
   */
  private static EvalStore evalStore(@Nullable String jdbcUrl) {
    if (jdbcUrl == null) {
      return EvalStore.inMemory();
    }
    return EvalStore.jdbc(
        dev.adk4j.internal.jdbc.JdbcEvalStore.open(
            jdbcUrl,
            dev.adk4j.sessions.DatabaseSessionConfig.builder()
                .maximumPoolSize(2)
                .minimumIdle(0)
                .build()));
  }

  /**
   * The server's request handler alone, to serve the same API from another HTTP server (the Spring
   * Boot starter bridges servlet requests to it). It expects request paths as this server sees them
   * ({@code /list-apps}, {@code /apps/...}, {@code /run_sse}, {@code /dev-ui/...}): a caller
   * serving it under a prefix strips the prefix first. It checks no {@code Host} header and no
   * credentials (the embedding server's security does), serves no CORS headers, and refuses
   * cross-origin requests; the body limit is {@value #DEFAULT_MAX_BODY_BYTES} bytes. The runners,
   * keyed by app name, and the services belong to the caller.
   *
   * @param debug whether error responses carry stack traces
   */
  public static com.sun.net.httpserver.HttpHandler handler(
      Map<String, Runner> runners,
      BaseSessionService sessions,
      BaseArtifactService artifacts,
      ClientPolicy policy,
      boolean debug) {
    return handler(runners, sessions, artifacts, policy, debug, wait -> {});
  }

  /**
   * {@link #handler(Map, BaseSessionService, BaseArtifactService, ClientPolicy, boolean)}, telling
   * {@code onSessionWait} whenever a run has to wait for its session (another turn holds it): the
   * Spring Boot starter counts these waits.
   */
  public static com.sun.net.httpserver.HttpHandler handler(
      Map<String, Runner> runners,
      BaseSessionService sessions,
      BaseArtifactService artifacts,
      ClientPolicy policy,
      boolean debug,
      java.util.function.Consumer<dev.adk4j.sessions.SessionWait> onSessionWait) {
    Objects.requireNonNull(onSessionWait, "onSessionWait");
    Objects.requireNonNull(sessions, "sessions");
    Objects.requireNonNull(artifacts, "artifacts");
    Objects.requireNonNull(policy, "policy");
    Map<String, ClientPolicy> policies = new LinkedHashMap<>();
    for (String app : runners.keySet()) {
      policies.put(app, policy);
    }
    ServerConfig config =
        new ServerConfig(
            DEFAULT_MAX_BODY_BYTES,
            false,
            List.of(),
            List.of(),
            null,
            null,
            debug,
            Duration.ofSeconds(1),
            onSessionWait,
            false);
    return new Routes(
        Collections.unmodifiableMap(new LinkedHashMap<>(runners)),
        Map.copyOf(policies),
        sessions,
        artifacts,
        EvalStore.inMemory(),
        config,
        EvalJudges.none());
  }

  /** A builder; {@link Builder#start()} starts the server. */
  public static Builder builder() {
    return new Builder();
  }

  /** The port the server listens on (the chosen one when built with port 0). */
  public int port() {
    return http.getAddress().getPort();
  }

  /** The server's base URL, such as {@code http://127.0.0.1:8000}. */
  public URI url() {
    InetSocketAddress a = http.getAddress();
    String host = a.getAddress().getHostAddress();
    if (host.contains(":")) {
      host = "[" + host + "]";
    }
    return URI.create("http://" + host + ":" + a.getPort());
  }

  /** The names of the apps the server serves, in registration order. */
  public List<String> appNames() {
    return List.copyOf(routes.appNames());
  }

  /** Blocks until {@link #close()} is called (from another thread or a shutdown hook). */
  public void awaitStop() throws InterruptedException {
    synchronized (stopLock) {
      while (!stopped) {
        stopLock.wait();
      }
    }
  }

  /**
   * Stops the server: cancels the runs in progress and waits (5 s at most) until each has stored
   * its closing event ({@code CANCELLED}), closes the connections and, if the server opened the
   * store itself ({@link Builder#store}), closes it. Idempotent.
   */
  @Override
  public void close() {
    synchronized (stopLock) {
      if (stopped) {
        return;
      }
      stopped = true;
      stopLock.notifyAll();
    }
    routes.cancelRuns(Duration.ofSeconds(5));
    http.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    evalStore.close();
    closeQuietly(ownedStore);
  }

  /** The largest event the server's own stores accept: what one request body may carry. */
  private static int eventLimit(int maxBodyBytes) {
    return Math.max(dev.adk4j.sessions.SessionLimits.DEFAULT_MAX_EVENT_BYTES, maxBodyBytes);
  }

  /**
   * The host names a checked server accepts beside loopback names and IP addresses: the given ones,
   * and on a non-loopback bind the machine's own name.
   */
  private static List<String> hostNames(InetAddress bind, List<String> allowed) {
    List<String> names = new ArrayList<>(allowed);
    if (!bind.isLoopbackAddress()) {
      try {
        String own = InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT);
        if (!own.isBlank() && !names.contains(own)) {
          names.add(own);
        }
      } catch (UnknownHostException e) {
        log.debug("no local host name: {}", e.toString());
      }
    }
    return names;
  }

  private static void closeQuietly(@Nullable AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception e) {
      log.warn("closing the session store failed", e);
    }
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "adk-server-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Decides whether a request may use the API. The dev UI's static files, {@code /health} and CORS
   * preflight requests are always served; every other request is refused with 401 unless this
   * returns true.
   */
  @FunctionalInterface
  public interface Authenticator {
    /**
     * @param method the HTTP method, upper case
     * @param path the request path, without the query
     * @param headers the request headers, names in lower case
     */
    boolean permits(String method, String path, Map<String, List<String>> headers);
  }

  /**
   * What the server lets REST clients write into an app's sessions, beyond a session's own keys and
   * the user's {@code user:} keys, which they may always write. Immutable; {@link #defaults()} is
   * what every app gets unless {@link Builder#clientPolicy} says otherwise. See {@code
   * docs/server.md} ("What clients may write").
   *
   * <ul>
   *   <li><b>app state</b> ({@code app:} keys, which every user of the app reads): refused by
   *       default, through a run's {@code stateDelta}, a created session's {@code state} and a
   *       {@code PATCH}; a key whose value equals the stored one is dropped as unchanged (the dev
   *       UI sends the whole state back when it edits one key);
   *   <li><b>secret state</b> ({@code secret:} keys): refused by default; a value of {@code "***"}
   *       (what the API shows for a secret) is always dropped as unchanged;
   *   <li><b>model content</b>: a run's {@code newMessage} must have the role {@code user} (a
   *       missing role is taken as {@code user}) and no part a model writes ({@code functionCall},
   *       {@code executableCode}, {@code codeExecutionResult}); otherwise a client could store
   *       turns the model never took. Function responses (answers to long-running calls,
   *       confirmations) are the user's and always allowed.
   * </ul>
   *
   * <p>A refusal is a 403 naming the key or role, the app, user and session, and the switch that
   * allows it; nothing is stored. The library's {@link Runner} applies no such policy.
   */
  public static final class ClientPolicy {
    private static final ClientPolicy DEFAULTS = new ClientPolicy(false, false, false);
    private static final ClientPolicy TRUST_ALL = new ClientPolicy(true, true, true);

    private final boolean appState;
    private final boolean secretState;
    private final boolean modelContent;

    private ClientPolicy(boolean appState, boolean secretState, boolean modelContent) {
      this.appState = appState;
      this.secretState = secretState;
      this.modelContent = modelContent;
    }

    /** The default: no {@code app:} or {@code secret:} writes, user messages only. */
    public static ClientPolicy defaults() {
      return DEFAULTS;
    }

    /** Everything ADK's servers let a client do: app and secret state, any role. */
    public static ClientPolicy trustAll() {
      return TRUST_ALL;
    }

    /** This policy, with {@code app:} writes from clients allowed or not. */
    public ClientPolicy appState(boolean allowed) {
      return new ClientPolicy(allowed, secretState, modelContent);
    }

    /** This policy, with {@code secret:} writes from clients allowed or not. */
    public ClientPolicy secretState(boolean allowed) {
      return new ClientPolicy(appState, allowed, modelContent);
    }

    /** This policy, with messages of other roles than {@code user}, or model parts, allowed. */
    public ClientPolicy modelContent(boolean allowed) {
      return new ClientPolicy(appState, secretState, allowed);
    }

    /** Whether clients may write {@code app:} keys. */
    public boolean allowsAppState() {
      return appState;
    }

    /** Whether clients may write {@code secret:} keys. */
    public boolean allowsSecretState() {
      return secretState;
    }

    /** Whether clients may send messages of other roles than {@code user}, or model parts. */
    public boolean allowsModelContent() {
      return modelContent;
    }

    @Override
    public boolean equals(@Nullable Object o) {
      return o instanceof ClientPolicy p
          && p.appState == appState
          && p.secretState == secretState
          && p.modelContent == modelContent;
    }

    @Override
    public int hashCode() {
      return (appState ? 1 : 0) + (secretState ? 2 : 0) + (modelContent ? 4 : 0);
    }

    @Override
    public String toString() {
      return "ClientPolicy[appState="
          + appState
          + ", secretState="
          + secretState
          + ", modelContent="
          + modelContent
          + "]";
    }
  }

  /** Options of an {@link AdkServer}; {@link #start()} starts one. Not thread-safe. */
  public static final class Builder {
    private final Map<String, BaseAgent> apps = new LinkedHashMap<>();
    private @Nullable BaseSessionService sessionService;
    private @Nullable String store;
    private @Nullable String evalStore;
    private @Nullable BaseLlm evalJudge;
    private final Map<String, BaseLlm> evalJudges = new LinkedHashMap<>();
    private boolean traces;
    private @Nullable BaseArtifactService artifactService;
    private String host = DEFAULT_HOST;
    private int port = DEFAULT_PORT;
    private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private final List<String> corsOrigins = new ArrayList<>();
    private final List<String> allowedHosts = new ArrayList<>();
    private boolean allowAnyHost;
    private @Nullable Authenticator authenticator;
    private @Nullable String bearerToken;
    private boolean debug;
    private Duration heartbeat = Duration.ofSeconds(1);
    private ClientPolicy clientPolicy = ClientPolicy.defaults();
    private final Map<String, ClientPolicy> appPolicies = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Serves {@code agent} as the app {@code name} (the name the UI lists and the sessions are
     * stored under).
     *
     * @throws IllegalArgumentException if the name is blank, has a {@code /}, or is taken
     */
    public Builder app(String name, BaseAgent agent) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(agent, "agent");
      if (name.isBlank() || name.contains("/")) {
        throw new IllegalArgumentException(
            "app name must be non-blank without '/', got '" + name + "'");
      }
      if (apps.putIfAbsent(name, agent) != null) {
        throw new IllegalArgumentException("app '" + name + "' is registered twice");
      }
      return this;
    }

    /** The session service; default: {@link #store} if set, else an in-memory one. */
    public Builder sessionService(BaseSessionService sessionService) {
      this.sessionService = Objects.requireNonNull(sessionService, "sessionService");
      return this;
    }

    /**
     * Keeps sessions in the database at this JDBC URL (such as {@code jdbc:sqlite:data/server.db}),
     * through a {@link DatabaseSessionService} the server opens and closes.
     */
    public Builder store(String jdbcUrl) {
      this.store = Objects.requireNonNull(jdbcUrl, "jdbcUrl");
      return this;
    }

    /** The artifact service; default: an in-memory one. */
    /**
     * Keeps the evaluation endpoints' eval sets and results in the database at {@code jdbcUrl}
     * (SQLite or PostgreSQL, tables {@code adk_eval_sets} and {@code adk_eval_results}); default:
     * the database of {@link #store} when the server opens one, else memory. For a server given its
     * session service ({@link #sessionService}) that keeps sessions in a database, name it here.
     */
    public Builder evalStore(String jdbcUrl) {
      this.evalStore = Objects.requireNonNull(jdbcUrl, "jdbcUrl");
      return this;
    }

    /**
     * The judge model of the evaluation endpoints' judged metrics ({@code final_response_match_v2},
     * {@code rubric_based_final_response_quality_v1}): it judges those that name no judge model in
     * ADK's {@code judge_model_options.judge_model}, and those naming a model no {@link
     * #evalJudge(String, BaseLlm)} maps. Without any judge, a run asking for a judged metric is
     * refused (400, naming the metric) and {@code metrics-info} does not offer them.
     */
    public Builder evalJudge(BaseLlm judge) {
      this.evalJudge = Objects.requireNonNull(judge, "judge");
      return this;
    }

    /**
     * The judge model for the judged metrics whose {@code judge_model_options.judge_model} is
     * {@code judgeModel} (such as {@code gemini-2.5-flash}, ADK's default). A run uses one judge:
     * metrics asking for different ones in one run are refused (400).
     */
    public Builder evalJudge(String judgeModel, BaseLlm judge) {
      Objects.requireNonNull(judgeModel, "judgeModel");
      if (judgeModel.isBlank()) {
        throw new IllegalArgumentException("judgeModel must be non-blank");
      }
      this.evalJudges.put(judgeModel, Objects.requireNonNull(judge, "judge"));
      return this;
    }

    public Builder artifactService(BaseArtifactService artifactService) {
      this.artifactService = Objects.requireNonNull(artifactService, "artifactService");
      return this;
    }

    /** The address to bind, {@value #DEFAULT_HOST} by default ({@code 0.0.0.0}: every one). */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /** The port, {@value #DEFAULT_PORT} by default; 0 picks a free one ({@link #port()}). */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be 0..65535, got " + port);
      }
      this.port = port;
      return this;
    }

    /** The largest request body accepted (413 beyond), {@value #DEFAULT_MAX_BODY_BYTES} bytes. */
    public Builder maxBodyBytes(int maxBodyBytes) {
      if (maxBodyBytes < 1) {
        throw new IllegalArgumentException("maxBodyBytes must be positive, got " + maxBodyBytes);
      }
      this.maxBodyBytes = maxBodyBytes;
      return this;
    }

    /**
     * Origins allowed to call the API from a browser page of another origin (such as {@code
     * http://localhost:4200}), or {@code *} for any. None by default: no CORS headers, and
     * cross-origin requests are refused.
     */
    public Builder corsOrigins(List<String> origins) {
      for (String o : origins) {
        corsOrigins.add(stripTrailingSlash(Objects.requireNonNull(o, "origin")));
      }
      return this;
    }

    /**
     * Host names accepted in the {@code Host} header, beside loopback names, IP addresses and (on a
     * non-loopback bind) the machine's own name. A loopback bind accepts any Host unless this is
     * given; then it checks too.
     */
    public Builder allowedHosts(List<String> hosts) {
      for (String h : hosts) {
        allowedHosts.add(Objects.requireNonNull(h, "host").toLowerCase(Locale.ROOT));
      }
      return this;
    }

    /** Switches the {@code Host} check off (behind a proxy that makes up its own names). */
    public Builder allowAnyHost(boolean allowAnyHost) {
      this.allowAnyHost = allowAnyHost;
      return this;
    }

    /** The authentication hook; none by default. See {@link #bearerToken}. */
    public Builder authenticator(Authenticator authenticator) {
      this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
      return this;
    }

    /**
     * Requires {@code Authorization: Bearer <token>} on every API request (or the cookie the dev UI
     * gets by opening {@code /dev-ui/?token=<token>} once); compared in constant time.
     */
    public Builder bearerToken(String token) {
      Objects.requireNonNull(token, "token");
      if (token.isBlank()) {
        throw new IllegalArgumentException("the bearer token must not be blank");
      }
      this.bearerToken = token;
      return this;
    }

    /**
     * Debug mode: error responses and SSE error frames carry the exception's stack trace. Off by
     * default: clients get the message only.
     */
    public Builder debug(boolean debug) {
      this.debug = debug;
      return this;
    }

    /**
     * Keeps the spans the Runner records in memory for the dev UI's trace views ({@code
     * /debug/trace/...}), as ADK's dev server does: at start the server registers, as the global
     * OpenTelemetry, an SDK whose only processor keeps the newest spans. Off by default, because an
     * application that registers its own OpenTelemetry after the server started could not; when one
     * is registered first, the server leaves it alone (its spans go there) and the trace views stay
     * empty.
     */
    public Builder traces(boolean traces) {
      this.traces = traces;
      return this;
    }

    /**
     * How often an SSE stream with nothing to send writes a comment line, which is how the server
     * notices a client that went away (and cancels its run); 1 s by default.
     */
    public Builder sseHeartbeat(Duration interval) {
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("the heartbeat must be positive, got " + interval);
      }
      this.heartbeat = interval;
      return this;
    }

    /**
     * What clients may write into the sessions of every app without a policy of its own ({@link
     * ClientPolicy#defaults()} unless set).
     */
    public Builder clientPolicy(ClientPolicy policy) {
      this.clientPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * What clients may write into the sessions of app {@code app}; the app must be registered by
     * the time the server starts.
     */
    public Builder clientPolicy(String app, ClientPolicy policy) {
      appPolicies.put(Objects.requireNonNull(app, "app"), Objects.requireNonNull(policy, "policy"));
      return this;
    }

    /**
     * Applies command-line options: {@code --port N}, {@code --host ADDR}, {@code --store
     * JDBC_URL}, {@code --cors ORIGIN[,ORIGIN]}, {@code --allowed-hosts NAME[,NAME]}, {@code
     * --allow-any-host}, {@code --token TOKEN}, {@code --max-body-bytes N}, {@code --debug}, {@code
     * --traces} (also in the {@code --name=value} form), {@code --allow-client-writes WHAT[,WHAT]}
     * (for every app: {@code app-state}, {@code secret-state}, {@code model-content}, or {@code
     * all}; see {@link ClientPolicy}). The environment variable {@code ADK4J_SERVER_TOKEN} sets the
     * bearer token too, which keeps it out of the process list.
     *
     * @throws IllegalArgumentException naming an unknown option or a bad value
     */
    public Builder options(String... args) {
      String envToken = System.getenv("ADK4J_SERVER_TOKEN");
      if (envToken != null && !envToken.isBlank()) {
        bearerToken(envToken);
      }
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        if (arg.isBlank()) {
          continue;
        }
        String name = arg;
        String value = null;
        int eq = arg.indexOf('=');
        if (arg.startsWith("--") && eq > 0) {
          name = arg.substring(0, eq);
          value = arg.substring(eq + 1);
        }
        switch (name) {
          case "--debug" -> debug(true);
          case "--traces" -> traces(true);
          case "--allow-any-host" -> allowAnyHost(true);
          case "--port",
              "--host",
              "--store",
              "--cors",
              "--allowed-hosts",
              "--token",
              "--max-body-bytes",
              "--allow-client-writes" -> {
            if (value == null) {
              if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + name + " needs a value");
              }
              value = args[++i];
            }
            apply(name, value);
          }
          default ->
              throw new IllegalArgumentException(
                  "unknown option '"
                      + arg
                      + "'; options: --port, --host, --store, --cors, --allowed-hosts,"
                      + " --allow-any-host, --token, --max-body-bytes, --allow-client-writes,"
                      + " --debug, --traces");
        }
      }
      return this;
    }

    private void apply(String name, String value) {
      switch (name) {
        case "--port" -> port(parseInt(name, value));
        case "--host" -> host(value);
        case "--store" -> store(value);
        case "--cors" -> corsOrigins(splitList(value));
        case "--allowed-hosts" -> allowedHosts(splitList(value));
        case "--token" -> bearerToken(value);
        case "--max-body-bytes" -> maxBodyBytes(parseInt(name, value));
        case "--allow-client-writes" -> clientPolicy(allowing(clientPolicy, value));
        default -> throw new IllegalStateException(name);
      }
    }

    private static ClientPolicy allowing(ClientPolicy policy, String value) {
      ClientPolicy p = policy;
      List<String> what = splitList(value);
      if (what.isEmpty()) {
        throw new IllegalArgumentException(
            "--allow-client-writes needs app-state, secret-state, model-content or all");
      }
      for (String w : what) {
        switch (w) {
          case "app-state" -> p = p.appState(true);
          case "secret-state" -> p = p.secretState(true);
          case "model-content" -> p = p.modelContent(true);
          case "all" -> p = ClientPolicy.trustAll();
          default ->
              throw new IllegalArgumentException(
                  "--allow-client-writes: unknown '"
                      + w
                      + "'; allowed: app-state, secret-state, model-content, all");
        }
      }
      return p;
    }

    private static int parseInt(String name, String value) {
      try {
        return Integer.parseInt(value.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + " needs a number, got '" + value + "'", e);
      }
    }

    private static List<String> splitList(String value) {
      List<String> out = new ArrayList<>();
      for (String s : value.split(",")) {
        if (!s.isBlank()) {
          out.add(s.trim());
        }
      }
      return out;
    }

    /** The host this builder binds to (after {@link #options}). */
    public String host() {
      return host;
    }

    /**
     * Starts the server.
     *
     * @throws UncheckedIOException if it cannot listen (the port is taken, the host unknown)
     * @throws IllegalStateException if no app is registered
     */
    public AdkServer start() {
      if (apps.isEmpty()) {
        throw new IllegalStateException("no app registered: call app(name, agent) first");
      }
      for (String app : appPolicies.keySet()) {
        if (!apps.containsKey(app)) {
          throw new IllegalStateException(
              "clientPolicy for app '"
                  + app
                  + "', which is not registered; apps: "
                  + apps.keySet());
        }
      }
      try {
        return new AdkServer(this);
      } catch (UnknownHostException e) {
        throw new UncheckedIOException("unknown host '" + host + "'", e);
      } catch (IOException e) {
        throw new UncheckedIOException(e.getMessage(), e);
      }
    }
  }

  private static String stripTrailingSlash(String origin) {
    return origin.endsWith("/") ? origin.substring(0, origin.length() - 1) : origin;
  }

  /** Constant-time comparison of two tokens. */
  static boolean sameToken(@Nullable String a, String b) {
    if (a == null) {
      return false;
    }
    return MessageDigest.isEqual(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
