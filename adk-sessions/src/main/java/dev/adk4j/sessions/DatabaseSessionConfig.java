package dev.adk4j.sessions;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Settings of a {@link DatabaseSessionService}. Immutable; {@link #defaults()} gives the documented
 * defaults, {@link #toBuilder()} a changed copy. Every setting is checked when it is built, with an
 * {@link IllegalArgumentException} naming the setting and the value.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code maximumPoolSize}</td><td>10</td><td>connections the service's own pool opens
 *       at most (ignored for a {@code DataSource} you pass in)</td></tr>
 *   <tr><td>{@code minimumIdle}</td><td>1</td><td>idle connections the pool keeps open</td></tr>
 *   <tr><td>{@code connectionTimeout}</td><td>30 s</td><td>how long an operation waits for a
 *       pooled connection before failing (at least 250 ms)</td></tr>
 *   <tr><td>{@code maxValueBytes}</td><td>1 MiB</td><td>largest state value, as UTF-8 JSON</td></tr>
 *   <tr><td>{@code maxEventBytes}</td><td>4 MiB</td><td>largest event, as UTF-8 JSON</td></tr>
 *   <tr><td>{@code busyTimeout}</td><td>5 s</td><td>SQLite only: how long a writer waits for
 *       another connection or process holding the file's write lock</td></tr>
 *   <tr><td>{@code socketTimeout}</td><td>30 s</td><td>PostgreSQL only: how long the driver waits
 *       for the server to answer before it gives the connection up and the operation fails (0:
 *       forever; else at least 1 s, counted in whole seconds when connecting)</td></tr>
 *   <tr><td>{@code statementTimeout}</td><td>25 s</td><td>PostgreSQL only: the server cancels a
 *       statement that runs (or waits for a lock) longer than this, and the operation fails (0:
 *       never); keep it below {@code socketTimeout} so that a slow statement is canceled cleanly
 *       before the connection is given up</td></tr>
 *   <tr><td>{@code migrate}</td><td>true</td><td>migrate the schema at start; when false the
 *       schema is only validated and start fails if it is missing or behind</td></tr>
 *   <tr><td>{@code leaseDuration}</td><td>30 s</td><td>how long a session lease lasts unless
 *       renewed (it is renewed every third of that while held); after a holder dies, another
 *       instance takes the session over within this time (at least 100 ms)</td></tr>
 *   <tr><td>{@code secretKey}</td><td>none</td><td>an AES key (128, 192 or 256 bits): {@code
 *       secret:} keys are then stored encrypted with it (AES-GCM) and survive restarts; without
 *       it they are kept in this service's memory only (see {@code docs/state.md})</td></tr>
 *   <tr><td>{@code defaultTimeToLive}</td><td>none</td><td>sessions created without a time to
 *       live expire this long after their last activity (none: they never expire)</td></tr>
 *   <tr><td>{@code clock}</td><td>UTC system clock</td><td>the clock of creation times, expiry,
 *       retention and session leases (their expiry, renewal and waits; a test's clock)</td></tr>
 *   <tr><td>{@code scheduler}</td><td>one daemon thread shared by all services</td><td>runs the
 *       renewal of held leases (a test's scheduler, to stall or drive renewals)</td></tr>
 * </table>
 */
public final class DatabaseSessionConfig {

  /** 1 MiB, as {@link SessionLimits#DEFAULT_MAX_VALUE_BYTES}. */
  public static final int DEFAULT_MAX_VALUE_BYTES = SessionLimits.DEFAULT_MAX_VALUE_BYTES;

  /** 4 MiB, as {@link SessionLimits#DEFAULT_MAX_EVENT_BYTES}. */
  public static final int DEFAULT_MAX_EVENT_BYTES = SessionLimits.DEFAULT_MAX_EVENT_BYTES;

  private static final DatabaseSessionConfig DEFAULTS = builder().build();

  private final int maximumPoolSize;
  private final int minimumIdle;
  private final Duration connectionTimeout;
  private final int maxValueBytes;
  private final int maxEventBytes;
  private final Duration busyTimeout;
  private final boolean migrate;
  private final boolean allowAdkPythonTables;
  private final Duration leaseDuration;
  private final Duration socketTimeout;
  private final Duration statementTimeout;
  private final javax.crypto.@Nullable SecretKey secretKey;
  private final @Nullable Duration defaultTimeToLive;
  private final java.time.Clock clock;
  private final java.util.concurrent.ScheduledExecutorService scheduler;

  private DatabaseSessionConfig(Builder b) {
    this.scheduler = b.scheduler == null ? SharedScheduler.INSTANCE : b.scheduler;
    this.allowAdkPythonTables = b.allowAdkPythonTables;
    this.defaultTimeToLive = b.defaultTimeToLive;
    this.clock = b.clock;
    check(
        defaultTimeToLive == null
            || !(defaultTimeToLive.isNegative() || defaultTimeToLive.isZero()),
        "defaultTimeToLive must be positive (or unset), got " + defaultTimeToLive);
    this.secretKey = b.secretKey == null ? null : SecretCipher.checkKey(b.secretKey);
    this.leaseDuration = b.leaseDuration;
    this.socketTimeout = b.socketTimeout;
    this.statementTimeout = b.statementTimeout;
    this.maximumPoolSize = b.maximumPoolSize;
    this.minimumIdle = b.minimumIdle;
    this.connectionTimeout = b.connectionTimeout;
    this.maxValueBytes = b.maxValueBytes;
    this.maxEventBytes = b.maxEventBytes;
    this.busyTimeout = b.busyTimeout;
    this.migrate = b.migrate;
    check(maximumPoolSize >= 1, "maximumPoolSize must be >= 1, got " + maximumPoolSize);
    check(
        minimumIdle >= 0 && minimumIdle <= maximumPoolSize,
        "minimumIdle must be between 0 and maximumPoolSize ("
            + maximumPoolSize
            + "), got "
            + minimumIdle);
    check(
        connectionTimeout.toMillis() >= 250,
        "connectionTimeout must be at least 250 ms, got " + connectionTimeout);
    check(maxValueBytes >= 1, "maxValueBytes must be >= 1, got " + maxValueBytes);
    check(maxEventBytes >= 1, "maxEventBytes must be >= 1, got " + maxEventBytes);
    check(
        !busyTimeout.isNegative() && busyTimeout.toMillis() <= Integer.MAX_VALUE,
        "busyTimeout must be between 0 and " + Integer.MAX_VALUE + " ms, got " + busyTimeout);
    check(
        leaseDuration.toMillis() >= 100,
        "leaseDuration must be at least 100 ms, got " + leaseDuration);
    check(
        socketTimeout.isZero()
            || (socketTimeout.toMillis() >= 1000 && socketTimeout.toMillis() <= Integer.MAX_VALUE),
        "socketTimeout must be 0 (none) or between 1 s and "
            + Integer.MAX_VALUE
            + " ms, got "
            + socketTimeout);
    check(
        statementTimeout.isZero()
            || (statementTimeout.toMillis() >= 1
                && statementTimeout.toMillis() <= Integer.MAX_VALUE),
        "statementTimeout must be 0 (none) or between 1 and "
            + Integer.MAX_VALUE
            + " ms, got "
            + statementTimeout);
  }

  /** The defaults listed in the class comment. */
  public static DatabaseSessionConfig defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder()
        .maximumPoolSize(maximumPoolSize)
        .minimumIdle(minimumIdle)
        .connectionTimeout(connectionTimeout)
        .maxValueBytes(maxValueBytes)
        .maxEventBytes(maxEventBytes)
        .busyTimeout(busyTimeout)
        .migrate(migrate)
        .leaseDuration(leaseDuration)
        .socketTimeout(socketTimeout)
        .statementTimeout(statementTimeout)
        .secretKey(secretKey)
        .defaultTimeToLive(defaultTimeToLive)
        .clock(clock)
        .scheduler(scheduler);
  }

  /** The time to live of sessions created without one; {@code null}: they never expire. */
  public @Nullable Duration defaultTimeToLive() {
    return defaultTimeToLive;
  }

  /** The clock of creation times, expiry, retention and session leases. */
  public java.time.Clock clock() {
    return clock;
  }

  /** What runs the renewal of held session leases. */
  public java.util.concurrent.ScheduledExecutorService scheduler() {
    return scheduler;
  }

  /** The default scheduler: one daemon thread, created when first needed. */
  private static final class SharedScheduler {
    static final java.util.concurrent.ScheduledExecutorService INSTANCE =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "adk4j-lease-renewal");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * The key {@code secret:} values are encrypted with in the database (AES-GCM), or {@code null}:
   * secrets are then kept in the service's memory only, and lost when it closes.
   */
  public javax.crypto.@Nullable SecretKey secretKey() {
    return secretKey;
  }

  public int maximumPoolSize() {
    return maximumPoolSize;
  }

  public int minimumIdle() {
    return minimumIdle;
  }

  public Duration connectionTimeout() {
    return connectionTimeout;
  }

  public int maxValueBytes() {
    return maxValueBytes;
  }

  public int maxEventBytes() {
    return maxEventBytes;
  }

  /** {@link #maxValueBytes()} and {@link #maxEventBytes()}, as the limits every service applies. */
  public SessionLimits limits() {
    return SessionLimits.of(maxValueBytes, maxEventBytes);
  }

  public Duration busyTimeout() {
    return busyTimeout;
  }

  public Duration leaseDuration() {
    return leaseDuration;
  }

  public boolean migrate() {
    return migrate;
  }

  /**
   * Whether the store starts on a database that also holds ADK for Python's session tables; false
   * (the default) refuses, since adk4j would ignore those sessions (see {@link
   * Builder#allowAdkPythonTables}).
   */
  public boolean allowAdkPythonTables() {
    return allowAdkPythonTables;
  }

  /** PostgreSQL only: how long to wait for the server's answer; zero for no limit. */
  public Duration socketTimeout() {
    return socketTimeout;
  }

  /** PostgreSQL only: the server-side limit on one statement; zero for no limit. */
  public Duration statementTimeout() {
    return statementTimeout;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DatabaseSessionConfig)) {
      return false;
    }
    DatabaseSessionConfig that = (DatabaseSessionConfig) o;
    return maximumPoolSize == that.maximumPoolSize
        && minimumIdle == that.minimumIdle
        && connectionTimeout.equals(that.connectionTimeout)
        && maxValueBytes == that.maxValueBytes
        && maxEventBytes == that.maxEventBytes
        && leaseDuration.equals(that.leaseDuration)
        && busyTimeout.equals(that.busyTimeout)
        && migrate == that.migrate
        && allowAdkPythonTables == that.allowAdkPythonTables
        && socketTimeout.equals(that.socketTimeout)
        && statementTimeout.equals(that.statementTimeout)
        && Objects.equals(secretKey, that.secretKey)
        && Objects.equals(defaultTimeToLive, that.defaultTimeToLive)
        && clock.equals(that.clock)
        && scheduler.equals(that.scheduler);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        maximumPoolSize,
        minimumIdle,
        connectionTimeout,
        maxValueBytes,
        maxEventBytes,
        busyTimeout,
        migrate,
        allowAdkPythonTables,
        leaseDuration,
        socketTimeout,
        statementTimeout,
        secretKey,
        defaultTimeToLive,
        clock,
        scheduler);
  }

  @Override
  public String toString() {
    return "DatabaseSessionConfig{maximumPoolSize="
        + maximumPoolSize
        + ", minimumIdle="
        + minimumIdle
        + ", connectionTimeout="
        + connectionTimeout
        + ", maxValueBytes="
        + maxValueBytes
        + ", maxEventBytes="
        + maxEventBytes
        + ", busyTimeout="
        + busyTimeout
        + ", migrate="
        + migrate
        + ", allowAdkPythonTables="
        + allowAdkPythonTables
        + ", leaseDuration="
        + leaseDuration
        + ", socketTimeout="
        + socketTimeout
        + ", statementTimeout="
        + statementTimeout
        + ", secretKey="
        + (secretKey == null ? "none" : "AES-" + secretKey.getEncoded().length * 8 + " (hidden)")
        + ", defaultTimeToLive="
        + (defaultTimeToLive == null ? "none" : defaultTimeToLive)
        + ", clock="
        + clock
        + (scheduler == SharedScheduler.INSTANCE ? "" : ", scheduler=" + scheduler)
        + "}";
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException("Invalid DatabaseSessionConfig: " + message);
    }
  }

  /**
   * Builds a {@link DatabaseSessionConfig}; unset settings keep their defaults. Not thread-safe.
   */
  public static final class Builder {
    private int maximumPoolSize = 10;
    private int minimumIdle = 1;
    private Duration connectionTimeout = Duration.ofSeconds(30);
    private int maxValueBytes = DEFAULT_MAX_VALUE_BYTES;
    private int maxEventBytes = DEFAULT_MAX_EVENT_BYTES;
    private Duration busyTimeout = Duration.ofSeconds(5);
    private boolean migrate = true;
    private boolean allowAdkPythonTables;
    private Duration leaseDuration = Duration.ofSeconds(30);
    private Duration socketTimeout = Duration.ofSeconds(30);
    private Duration statementTimeout = Duration.ofSeconds(25);
    private javax.crypto.@Nullable SecretKey secretKey;
    private @Nullable Duration defaultTimeToLive;
    private java.time.Clock clock = java.time.Clock.systemUTC();
    private java.util.concurrent.@Nullable ScheduledExecutorService scheduler;

    private Builder() {}

    /**
     * What runs the renewal of held session leases, every third of {@link #leaseDuration}. Default:
     * one daemon thread shared by every service of this JVM. A test gives a scheduler it controls,
     * to stall renewals or run them when it chooses; the service never shuts it down.
     */
    public Builder scheduler(java.util.concurrent.ScheduledExecutorService scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /**
     * Sessions created without a time to live expire this long after their last activity (their
     * creation, then each append): they are then invisible, and {@code purgeExpired} deletes them
     * (their app and user state stay). {@code null} (the default): they never expire.
     */
    public Builder defaultTimeToLive(@Nullable Duration defaultTimeToLive) {
      this.defaultTimeToLive = defaultTimeToLive;
      return this;
    }

    /**
     * The clock of sessions' creation times, expiry and retention, and of session leases (when one
     * expires, how long a waiter waits); tests give a clock they move. Default {@link
     * java.time.Clock#systemUTC()}. Instances on several machines sharing one database need clocks
     * in step (NTP): a waiter takes an unreleased lease only a third of {@link #leaseDuration}
     * after it expired by its own clock, which absorbs a skew smaller than that.
     */
    public Builder clock(java.time.Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The key to encrypt {@code secret:} values with at rest (AES-GCM through the JDK, a random
     * 12-byte IV per value): an AES key of 128, 192 or 256 bits, for example {@code new
     * SecretKeySpec(bytes, "AES")} from your secret manager. Secrets then survive restarts and are
     * shared by the instances on one database that have the same key; a read of a secret with
     * another key fails naming the session. {@code null} (the default) keeps secrets in the
     * service's memory only: never in the database, lost when the service closes.
     */
    public Builder secretKey(javax.crypto.@Nullable SecretKey secretKey) {
      this.secretKey = secretKey;
      return this;
    }

    /**
     * PostgreSQL only: how long the driver waits for an answer from the server (pgjdbc's {@code
     * socketTimeout}), so that an operation on a server that stopped answering (frozen, or cut off
     * by the network) fails instead of blocking. The connection is then given up, and the operation
     * fails with a {@link SessionException}; a transaction it was in never committed unless the
     * wait was for the commit's answer, which the message then says. Zero waits forever; otherwise
     * at least one second (pgjdbc counts it in whole seconds while connecting). Schema migration at
     * start is exempt. Default 30 seconds.
     */
    public Builder socketTimeout(Duration socketTimeout) {
      this.socketTimeout = Objects.requireNonNull(socketTimeout, "socketTimeout");
      return this;
    }

    /**
     * PostgreSQL only: the server's {@code statement_timeout} on the service's connections. A
     * statement running (or waiting for a lock) longer is canceled by the server, its transaction
     * rolled back, and the operation fails with a {@link SessionException}. Keep it below {@link
     * #socketTimeout(Duration)}, so that a slow statement is canceled cleanly before the driver
     * gives the connection up. Zero sets none (a {@code DataSource}'s connections are then left as
     * they are). Schema migration at start is exempt. Default 25 seconds.
     */
    public Builder statementTimeout(Duration statementTimeout) {
      this.statementTimeout = Objects.requireNonNull(statementTimeout, "statementTimeout");
      return this;
    }

    /**
     * How long a session lease lasts unless renewed; a held lease is renewed every third of it. An
     * instance that dies mid-invocation keeps its sessions busy for at most this long. Default 30
     * seconds.
     */
    public Builder leaseDuration(Duration leaseDuration) {
      this.leaseDuration = Objects.requireNonNull(leaseDuration, "leaseDuration");
      return this;
    }

    /** Connections the service's own pool opens at most. Default 10. */
    public Builder maximumPoolSize(int maximumPoolSize) {
      this.maximumPoolSize = maximumPoolSize;
      return this;
    }

    /** Idle connections the service's own pool keeps open. Default 1. */
    public Builder minimumIdle(int minimumIdle) {
      this.minimumIdle = minimumIdle;
      return this;
    }

    /** How long an operation waits for a pooled connection. Default 30 seconds. */
    public Builder connectionTimeout(Duration connectionTimeout) {
      this.connectionTimeout = Objects.requireNonNull(connectionTimeout, "connectionTimeout");
      return this;
    }

    /**
     * The largest state value accepted, measured as its UTF-8 JSON text. Larger values are refused
     * with an {@link IllegalArgumentException} and nothing is stored. Default 1 MiB.
     */
    public Builder maxValueBytes(int maxValueBytes) {
      this.maxValueBytes = maxValueBytes;
      return this;
    }

    /**
     * The largest event accepted, measured as its UTF-8 JSON text (content, actions and state delta
     * included). Larger events are refused with an {@link IllegalArgumentException} and nothing is
     * stored. Default 4 MiB.
     */
    public Builder maxEventBytes(int maxEventBytes) {
      this.maxEventBytes = maxEventBytes;
      return this;
    }

    /**
     * SQLite only: how long a writer waits for the file's write lock held by another connection or
     * process before the operation fails. Default 5 seconds.
     */
    public Builder busyTimeout(Duration busyTimeout) {
      this.busyTimeout = Objects.requireNonNull(busyTimeout, "busyTimeout");
      return this;
    }

    /**
     * Whether to migrate the schema at start (default). When false the schema is only validated,
     * for deployments where the application may not run DDL.
     */
    public Builder migrate(boolean migrate) {
      this.migrate = migrate;
      return this;
    }

    /**
     * Whether to start on a database that holds ADK for Python's session tables ({@code sessions},
     * {@code events}, {@code app_states}, {@code user_states}). By default the start is refused
     * with a message saying what was found: adk4j keeps its own tables ({@code adk_*}) and would
     * list none of those sessions. Copy them with {@link AdkPythonImporter}, or allow the tables
     * side by side with this.
     */
    public Builder allowAdkPythonTables(boolean allow) {
      this.allowAdkPythonTables = allow;
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the first invalid setting
     */
    public DatabaseSessionConfig build() {
      return new DatabaseSessionConfig(this);
    }
  }
}
