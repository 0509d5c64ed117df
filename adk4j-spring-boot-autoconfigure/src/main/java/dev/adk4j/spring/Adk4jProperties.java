package dev.adk4j.spring;

import dev.adk4j.agents.RunConfig;
import dev.adk4j.sessions.DatabaseSessionConfig;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code adk4j.*} properties: sessions (every setting of {@link DatabaseSessionConfig}),
 * artifacts, memory, expiry cleanup, {@link RunConfig} defaults, compaction, the REST API, the
 * model, shutdown and tracing. Each has a default; {@code docs/spring-boot.md} lists them. Not
 * thread-safe (Spring binds it once).
 */
@ConfigurationProperties(prefix = "adk4j")
public class Adk4jProperties {

  private final Sessions sessions = new Sessions();
  private final Artifacts artifacts = new Artifacts();
  private final Memory memory = new Memory();
  private final Cleanup cleanup = new Cleanup();
  private final Run run = new Run();
  private final Compaction compaction = new Compaction();
  private final Server server = new Server();
  private final Model model = new Model();
  private final Shutdown shutdown = new Shutdown();
  private final Tracing tracing = new Tracing();

  public Sessions getSessions() {
    return sessions;
  }

  public Artifacts getArtifacts() {
    return artifacts;
  }

  public Memory getMemory() {
    return memory;
  }

  public Cleanup getCleanup() {
    return cleanup;
  }

  public Run getRun() {
    return run;
  }

  public Compaction getCompaction() {
    return compaction;
  }

  public Server getServer() {
    return server;
  }

  public Model getModel() {
    return model;
  }

  public Shutdown getShutdown() {
    return shutdown;
  }

  public Tracing getTracing() {
    return tracing;
  }

  /** Where services keep their data. */
  public enum Store {
    /** The database when the application has a DataSource (or a JDBC URL is set), else memory. */
    AUTO,
    /** In memory, lost at restart. */
    MEMORY,
    /** The database; fails at start without a DataSource or JDBC URL. */
    DATABASE,
    /** None (memory only: the runners get no memory service). */
    NONE
  }

  /** {@code adk4j.sessions.*}: the session service and {@link DatabaseSessionConfig}. */
  public static class Sessions {
    /** Where sessions are kept: auto (the DataSource if any), memory or database. */
    private Store store = Store.AUTO;

    /**
     * A JDBC URL of a database of adk4j's own (a pool adk4j opens), instead of the application's
     * DataSource.
     */
    private @Nullable String jdbcUrl;

    /**
     * Run adk4j's schema migrations at start; false when the application manages them (the schema
     * is then only validated).
     */
    private boolean migrate = true;

    /** Pool size of the pool adk4j opens for jdbc-url (the DataSource's own settings apply). */
    private int maximumPoolSize = 10;

    /** Idle connections of the pool adk4j opens for jdbc-url. */
    private int minimumIdle = 1;

    /** How long to wait for a connection of the pool adk4j opens for jdbc-url. */
    private Duration connectionTimeout = Duration.ofSeconds(30);

    /** The largest state value, in bytes of JSON. */
    private int maxValueBytes = DatabaseSessionConfig.DEFAULT_MAX_VALUE_BYTES;

    /** The largest event, in bytes of JSON. */
    private int maxEventBytes = DatabaseSessionConfig.DEFAULT_MAX_EVENT_BYTES;

    /** SQLite: how long a write waits for the database lock. */
    private Duration busyTimeout = Duration.ofSeconds(5);

    /** How long a session lease lasts without renewal (renewed every third of it). */
    private Duration leaseDuration = Duration.ofSeconds(30);

    /** PostgreSQL: the socket read timeout. */
    private Duration socketTimeout = Duration.ofSeconds(30);

    /** PostgreSQL: the statement timeout. */
    private Duration statementTimeout = Duration.ofSeconds(25);

    /**
     * The time to live of new sessions after their last activity; unset: sessions do not expire.
     */
    private @Nullable Duration defaultTimeToLive;

    /**
     * The AES key (128, 192 or 256 bits, base64) that encrypts secret: state in the database; set
     * it from the environment (ADK4J_SESSIONS_SECRET_KEY), never in a committed file.
     */
    private @Nullable String secretKey;

    public Store getStore() {
      return store;
    }

    public void setStore(Store store) {
      this.store = store;
    }

    public @Nullable String getJdbcUrl() {
      return jdbcUrl;
    }

    public void setJdbcUrl(@Nullable String jdbcUrl) {
      this.jdbcUrl = jdbcUrl;
    }

    public boolean isMigrate() {
      return migrate;
    }

    public void setMigrate(boolean migrate) {
      this.migrate = migrate;
    }

    public int getMaximumPoolSize() {
      return maximumPoolSize;
    }

    public void setMaximumPoolSize(int maximumPoolSize) {
      this.maximumPoolSize = maximumPoolSize;
    }

    public int getMinimumIdle() {
      return minimumIdle;
    }

    public void setMinimumIdle(int minimumIdle) {
      this.minimumIdle = minimumIdle;
    }

    public Duration getConnectionTimeout() {
      return connectionTimeout;
    }

    public void setConnectionTimeout(Duration connectionTimeout) {
      this.connectionTimeout = connectionTimeout;
    }

    public int getMaxValueBytes() {
      return maxValueBytes;
    }

    public void setMaxValueBytes(int maxValueBytes) {
      this.maxValueBytes = maxValueBytes;
    }

    public int getMaxEventBytes() {
      return maxEventBytes;
    }

    public void setMaxEventBytes(int maxEventBytes) {
      this.maxEventBytes = maxEventBytes;
    }

    public Duration getBusyTimeout() {
      return busyTimeout;
    }

    public void setBusyTimeout(Duration busyTimeout) {
      this.busyTimeout = busyTimeout;
    }

    public Duration getLeaseDuration() {
      return leaseDuration;
    }

    public void setLeaseDuration(Duration leaseDuration) {
      this.leaseDuration = leaseDuration;
    }

    public Duration getSocketTimeout() {
      return socketTimeout;
    }

    public void setSocketTimeout(Duration socketTimeout) {
      this.socketTimeout = socketTimeout;
    }

    public Duration getStatementTimeout() {
      return statementTimeout;
    }

    public void setStatementTimeout(Duration statementTimeout) {
      this.statementTimeout = statementTimeout;
    }

    public @Nullable Duration getDefaultTimeToLive() {
      return defaultTimeToLive;
    }

    public void setDefaultTimeToLive(@Nullable Duration defaultTimeToLive) {
      this.defaultTimeToLive = defaultTimeToLive;
    }

    public @Nullable String getSecretKey() {
      return secretKey;
    }

    public void setSecretKey(@Nullable String secretKey) {
      this.secretKey = secretKey;
    }
  }

  /** {@code adk4j.artifacts.*}: the artifact service the runners save files in. */
  public static class Artifacts {
    /** Where artifacts are kept: auto (the sessions' database if any), memory or database. */
    private Store store = Store.AUTO;

    public Store getStore() {
      return store;
    }

    public void setStore(Store store) {
      this.store = store;
    }
  }

  /** {@code adk4j.memory.*}: the memory service the runners search. */
  public static class Memory {
    /** Where memory is kept: auto (the sessions' database if any), memory, database or none. */
    private Store store = Store.AUTO;

    /** The most matches a search returns (database memory). */
    private int maxResults = 100;

    public Store getStore() {
      return store;
    }

    public void setStore(Store store) {
      this.store = store;
    }

    public int getMaxResults() {
      return maxResults;
    }

    public void setMaxResults(int maxResults) {
      this.maxResults = maxResults;
    }
  }

  /** {@code adk4j.cleanup.*}: deleting expired sessions on a schedule (off by default). */
  public static class Cleanup {
    /** Run the cleanup on a schedule. */
    private boolean enabled;

    /** The delay between the end of a run and the start of the next. */
    private Duration interval = Duration.ofMinutes(10);

    /** Sessions deleted per transaction. */
    private int batchSize = 500;

    /** Batches per run at most. */
    private int maxBatches = 1000;

    /** Keep only this many last events of sessions idle longer than retain-idle-for (-1: all). */
    private int retainLastEvents = -1;

    /** How long a session must be idle before retain-last-events trims it. */
    private Duration retainIdleFor = Duration.ofDays(30);

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getInterval() {
      return interval;
    }

    public void setInterval(Duration interval) {
      this.interval = interval;
    }

    public int getBatchSize() {
      return batchSize;
    }

    public void setBatchSize(int batchSize) {
      this.batchSize = batchSize;
    }

    public int getMaxBatches() {
      return maxBatches;
    }

    public void setMaxBatches(int maxBatches) {
      this.maxBatches = maxBatches;
    }

    public int getRetainLastEvents() {
      return retainLastEvents;
    }

    public void setRetainLastEvents(int retainLastEvents) {
      this.retainLastEvents = retainLastEvents;
    }

    public Duration getRetainIdleFor() {
      return retainIdleFor;
    }

    public void setRetainIdleFor(Duration retainIdleFor) {
      this.retainIdleFor = retainIdleFor;
    }
  }

  /** {@code adk4j.run.*}: the defaults of the {@link RunConfig} bean. */
  public static class Run {
    /** How model responses stream: none or sse. */
    private RunConfig.StreamingMode streamingMode = RunConfig.StreamingMode.NONE;

    /** Model calls one invocation may make. */
    private int maxLlmCalls = 500;

    /** Create a session a turn names when it does not exist. */
    private boolean autoCreateSession;

    /** Retries of a turn whose append met a state conflict. */
    private int stateConflictRetries;

    /** How long a turn waits for a session another turn holds. */
    private Duration maxSessionWait = Duration.ofMinutes(2);

    /** The timeout of one model call. */
    private Duration llmCallTimeout = Duration.ofMinutes(5);

    /** How the tool calls of one response run: none (parallel), sequential or parallel. */
    private RunConfig.ToolExecutionMode toolExecutionMode = RunConfig.ToolExecutionMode.NONE;

    /** Tool calls of one response running at once at most. */
    private int maxParallelToolCalls = RunConfig.DEFAULT_MAX_PARALLEL_TOOL_CALLS;

    public RunConfig.StreamingMode getStreamingMode() {
      return streamingMode;
    }

    public void setStreamingMode(RunConfig.StreamingMode streamingMode) {
      this.streamingMode = streamingMode;
    }

    public int getMaxLlmCalls() {
      return maxLlmCalls;
    }

    public void setMaxLlmCalls(int maxLlmCalls) {
      this.maxLlmCalls = maxLlmCalls;
    }

    public boolean isAutoCreateSession() {
      return autoCreateSession;
    }

    public void setAutoCreateSession(boolean autoCreateSession) {
      this.autoCreateSession = autoCreateSession;
    }

    public int getStateConflictRetries() {
      return stateConflictRetries;
    }

    public void setStateConflictRetries(int stateConflictRetries) {
      this.stateConflictRetries = stateConflictRetries;
    }

    public Duration getMaxSessionWait() {
      return maxSessionWait;
    }

    public void setMaxSessionWait(Duration maxSessionWait) {
      this.maxSessionWait = maxSessionWait;
    }

    public Duration getLlmCallTimeout() {
      return llmCallTimeout;
    }

    public void setLlmCallTimeout(Duration llmCallTimeout) {
      this.llmCallTimeout = llmCallTimeout;
    }

    public RunConfig.ToolExecutionMode getToolExecutionMode() {
      return toolExecutionMode;
    }

    public void setToolExecutionMode(RunConfig.ToolExecutionMode toolExecutionMode) {
      this.toolExecutionMode = toolExecutionMode;
    }

    public int getMaxParallelToolCalls() {
      return maxParallelToolCalls;
    }

    public void setMaxParallelToolCalls(int maxParallelToolCalls) {
      this.maxParallelToolCalls = maxParallelToolCalls;
    }
  }

  /** {@code adk4j.compaction.*}: summarizing old events (off unless interval is set). */
  public static class Compaction {
    /** Compact every this many invocations (0: no compaction). */
    private int interval;

    /** Invocations each compaction overlaps with the previous one. */
    private int overlap = 1;

    public int getInterval() {
      return interval;
    }

    public void setInterval(int interval) {
      this.interval = interval;
    }

    public int getOverlap() {
      return overlap;
    }

    public void setOverlap(int overlap) {
      this.overlap = overlap;
    }
  }

  /** {@code adk4j.server.*}: the ADK REST API in Spring MVC. */
  public static class Server {
    /** Serve the ADK REST API (Spring MVC applications). */
    private boolean enabled = true;

    /** The path the API is served under, below the servlet context path. */
    private String basePath = "/adk";

    /** Serve ADK's web dev UI under {base-path}/dev-ui/ (off: keep it out of production). */
    private boolean devUi;

    /** Error responses carry stack traces. */
    private boolean debug;

    /** Clients may write app: keys (through a run's stateDelta, a new session, a PATCH). */
    private boolean allowAppStateWrites;

    /** Clients may write secret: keys. */
    private boolean allowSecretStateWrites;

    /** Clients may send messages of other roles than user, or model parts. */
    private boolean allowModelContent;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public String getBasePath() {
      return basePath;
    }

    public void setBasePath(String basePath) {
      this.basePath = basePath;
    }

    public boolean isDevUi() {
      return devUi;
    }

    public void setDevUi(boolean devUi) {
      this.devUi = devUi;
    }

    public boolean isDebug() {
      return debug;
    }

    public void setDebug(boolean debug) {
      this.debug = debug;
    }

    public boolean isAllowAppStateWrites() {
      return allowAppStateWrites;
    }

    public void setAllowAppStateWrites(boolean allowAppStateWrites) {
      this.allowAppStateWrites = allowAppStateWrites;
    }

    public boolean isAllowSecretStateWrites() {
      return allowSecretStateWrites;
    }

    public void setAllowSecretStateWrites(boolean allowSecretStateWrites) {
      this.allowSecretStateWrites = allowSecretStateWrites;
    }

    public boolean isAllowModelContent() {
      return allowModelContent;
    }

    public void setAllowModelContent(boolean allowModelContent) {
      this.allowModelContent = allowModelContent;
    }
  }

  /** {@code adk4j.model.*}: a model bean resolved through adk4j's LlmRegistry. */
  public static class Model {
    /**
     * The provider (gemini, openai, anthropic, ollama, vllm, lmstudio): the scheme of the name
     * LlmRegistry resolves; unset: the name alone (gemini-2.5-flash).
     */
    private @Nullable String provider;

    /**
     * The model name; setting it declares a BaseLlm bean. API keys come from the environment
     * (GOOGLE_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY...), read through Spring's Environment.
     */
    private @Nullable String name;

    public @Nullable String getProvider() {
      return provider;
    }

    public void setProvider(@Nullable String provider) {
      this.provider = provider;
    }

    public @Nullable String getName() {
      return name;
    }

    public void setName(@Nullable String name) {
      this.name = name;
    }
  }

  /** {@code adk4j.shutdown.*}: turns in flight when the application stops. */
  public static class Shutdown {
    /**
     * How long the application's stop waits for turns in flight before closing the runners and
     * services (turns still running then fail).
     */
    private Duration timeout = Duration.ofSeconds(30);

    public Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }
  }

  /** {@code adk4j.tracing.*}: adk4j's spans in the application's tracing. */
  public static class Tracing {
    /**
     * Whether adk4j's spans (turns, agents, model and tool calls) go to the application's
     * OpenTelemetry bean, registered as the global OpenTelemetry adk4j uses; unless one is
     * registered already (the OpenTelemetry Java agent's, or the application's own).
     */
    private boolean enabled = true;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }
}
