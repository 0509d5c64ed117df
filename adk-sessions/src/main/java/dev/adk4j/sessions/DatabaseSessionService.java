package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import dev.adk4j.internal.jdbc.JdbcDependencies;
import dev.adk4j.internal.jdbc.JdbcSessionStore;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link BaseSessionService} that keeps sessions, events and state in a relational database
 * through JDBC: SQLite (a file, the embedded default, nothing to install) or PostgreSQL (a server
 * several application instances can share).
 *
 * <pre>{@code
 * try (DatabaseSessionService sessions =
 *     new DatabaseSessionService("jdbc:sqlite:/var/lib/myapp/sessions.db")) {
 *   Session s = sessions.createSession("app", "user").blockingGet();
 * }
 * }</pre>
 *
 * <p>At start the service opens a HikariCP connection pool (unless given a {@link DataSource}) and
 * migrates the schema with Flyway (tables prefixed {@code adk_}, history in {@code
 * adk_schema_history}). Before it returns it checks that the store can work, and fails with a
 * {@link SessionException} saying what is wrong otherwise: every table and column the service uses
 * exists, and a SQLite file is a readable, uncorrupted database this process may write. {@link
 * #close()} closes the pool it opened. Settings, with their defaults (PostgreSQL socket and
 * statement timeouts among them), are in {@link DatabaseSessionConfig}; {@code
 * docs/configuration.md} lists URL forms, {@code docs/reliability.md} what happens on database
 * faults.
 *
 * <p>Semantics are those of {@link InMemorySessionService}, and the two pass the same contract
 * tests. Values read back are their JSON round trip; {@code temp:} keys are never stored. State
 * values larger than {@link DatabaseSessionConfig#maxValueBytes()} and events larger than {@link
 * DatabaseSessionConfig#maxEventBytes()} (as UTF-8 JSON) are refused with an {@link
 * IllegalArgumentException}, exactly as {@link InMemorySessionService} refuses them under the same
 * {@link SessionLimits}. A stored value or event that is not valid JSON (written by something else)
 * makes reads of its session fail with a {@link SessionException} naming it.
 *
 * <p>Concurrency and ordering: each operation is one database transaction, so it happens entirely
 * or not at all, and the database orders appends to one session by its revision counter; appends
 * through one {@link Session} copy are also ordered in process, by that copy's monitor. Several
 * service instances (in one process or many) may share one database or SQLite file: stale copies
 * are refused with {@link StaleSessionException}, and writes of different {@code app:}/{@code
 * user:} keys from different sessions never lose each other. Thread-safe. Operations block the
 * subscribing thread on the database; subscribe on an I/O scheduler if that matters.
 *
 * <p>It is the {@link StoreBackedSessionService} over a {@link JdbcSessionStore}: ids, values,
 * limits, {@code temp:} keys and the caller's copy are handled there as for every backend; the
 * store runs the SQL.
 */
public final class DatabaseSessionService implements BaseSessionService, AutoCloseable {

  private final JdbcSessionStore store;
  private final StoreBackedSessionService service;

  /**
   * Opens a service on a JDBC URL with the default settings.
   *
   * @param jdbcUrl {@code jdbc:sqlite:/path/sessions.db} or {@code
   *     jdbc:postgresql://host:port/db?user=...&password=...}
   * @throws IllegalArgumentException for an unsupported or in-memory URL
   * @throws SessionException if the database cannot be reached, its schema migrated or checked, or
   *     (SQLite) its file read and written
   */
  public DatabaseSessionService(String jdbcUrl) {
    this(jdbcUrl, DatabaseSessionConfig.defaults());
  }

  /**
   * Opens a service on a JDBC URL.
   *
   * @throws IllegalArgumentException for an unsupported or in-memory URL
   * @throws SessionException if the database cannot be reached, its schema migrated or checked, or
   *     (SQLite) its file read and written
   */
  public DatabaseSessionService(String jdbcUrl, DatabaseSessionConfig config) {
    this(jdbcUrl, null, null, config);
  }

  /**
   * Opens a service on a JDBC URL with credentials.
   *
   * @param user nullable; null leaves it to the URL
   * @param password nullable; null leaves it to the URL
   * @throws IllegalArgumentException for an unsupported or in-memory URL
   * @throws SessionException if the database cannot be reached, its schema migrated or checked, or
   *     (SQLite) its file read and written
   */
  public DatabaseSessionService(
      String jdbcUrl,
      @Nullable String user,
      @Nullable String password,
      DatabaseSessionConfig config) {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(config, "config");
    JdbcDependencies.check("DatabaseSessionService", jdbcUrl);
    this.store = JdbcSessionStore.open(jdbcUrl, user, password, config);
    this.service = service(store, config);
  }

  /**
   * Opens a service on a {@link DataSource} that the caller configures and closes ({@link #close()}
   * leaves it open). The pool settings of {@code config} do not apply.
   *
   * @throws IllegalArgumentException if the database is neither SQLite nor PostgreSQL
   * @throws SessionException if the database cannot be reached, its schema migrated or checked, or
   *     (SQLite) its file read and written
   */
  public DatabaseSessionService(DataSource dataSource, DatabaseSessionConfig config) {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(config, "config");
    JdbcDependencies.check("DatabaseSessionService", null);
    this.store = JdbcSessionStore.open(dataSource, config);
    this.service = service(store, config);
  }

  private static StoreBackedSessionService service(
      JdbcSessionStore store, DatabaseSessionConfig config) {
    return StoreBackedSessionService.builder(store)
        .limits(config.limits())
        .secretKey(config.secretKey())
        .defaultTimeToLive(config.defaultTimeToLive())
        .build();
  }

  /**
   * Creates a session that expires {@code timeToLive} after its last activity, by the
   * configuration's clock (its {@code expire_at} column, indexed for the cleanup).
   */
  @Override
  public Single<Session> createSession(
      String appName,
      String userId,
      @Nullable Map<String, ? extends @Nullable Object> state,
      @Nullable String sessionId,
      Duration timeToLive) {
    return service.createSession(appName, userId, state, sessionId, timeToLive);
  }

  /**
   * Deletes expired sessions in batches, each one short transaction ({@code DELETE ... WHERE pk IN
   * (the batch's oldest expired sessions through the index adk_sessions_by_expiry)}, skipping rows
   * locked by others on PostgreSQL), then trims idle sessions if {@code cleanup} asks for it.
   */
  @Override
  public Single<SessionCleanup.Result> purgeExpired(SessionCleanup cleanup) {
    return service.purgeExpired(cleanup);
  }

  @Override
  public Single<Session> createSession(
      String appName,
      String userId,
      @Nullable Map<String, ? extends @Nullable Object> state,
      @Nullable String sessionId) {
    return service.createSession(appName, userId, state, sessionId);
  }

  @Override
  public Maybe<Session> getSession(
      String appName, String userId, String sessionId, Optional<GetSessionConfig> config) {
    return service.getSession(appName, userId, sessionId, config);
  }

  @Override
  public Single<ListSessionsResponse> listSessions(String appName, String userId) {
    return service.listSessions(appName, userId);
  }

  /**
   * Reads one page through the index {@code adk_sessions_by_update} ({@code app_name, user_id,
   * update time descending, session_id}): a seek to the position the token names and a scan of
   * {@code pageSize + 1} rows, then the app and user state once and the session state of the page's
   * sessions. The cost does not grow with the sessions in the store or the user's.
   */
  @Override
  public Single<ListSessionsResponse> listSessions(
      String appName, String userId, ListSessionsRequest request) {
    return service.listSessions(appName, userId, request);
  }

  @Override
  public Completable deleteSession(String appName, String userId, String sessionId) {
    return service.deleteSession(appName, userId, sessionId);
  }

  @Override
  public Single<ListEventsResponse> listEvents(String appName, String userId, String sessionId) {
    return service.listEvents(appName, userId, sessionId);
  }

  /** Reads one page by a range scan of the events' primary key {@code (session_pk, seq)}. */
  @Override
  public Single<ListEventsResponse> listEvents(
      String appName, String userId, String sessionId, ListEventsRequest request) {
    return service.listEvents(appName, userId, sessionId, request);
  }

  @Override
  public Single<Event> appendEvent(Session session, Event event) {
    return service.appendEvent(session, event);
  }

  /**
   * Takes the session's lease in the database, waiting up to {@code maxWait} (polling, with a claim
   * on the next turn so that waiters in other processes are not starved). The lease lasts {@link
   * DatabaseSessionConfig#leaseDuration()} and is renewed every third of that until {@link
   * SessionLease#close()}; a lease whose holder died is taken over once it has expired.
   */
  @Override
  public Single<SessionLease> acquireLease(
      String appName, String userId, String sessionId, Duration maxWait) {
    return service.acquireLease(appName, userId, sessionId, maxWait);
  }

  /** {@inheritDoc} */
  @Override
  public Single<SessionLease> acquireLease(
      String appName,
      String userId,
      String sessionId,
      Duration maxWait,
      java.util.function.Consumer<SessionWait> onWait) {
    return service.acquireLease(appName, userId, sessionId, maxWait, onWait);
  }

  /**
   * A lease taken by the first append through a copy attached to it, in the append's own statement
   * that bumps the session's revision, if nobody holds the lease and nobody waits for it (see
   * {@link BaseSessionService#leaseOnFirstAppend}).
   */
  @Override
  public @Nullable SessionLease leaseOnFirstAppend(
      String appName, String userId, String sessionId) {
    return service.leaseOnFirstAppend(appName, userId, sessionId);
  }

  /**
   * Reads the history through the index {@code adk_state_history}, which every append writes in its
   * transaction (a row per key of the event's delta, pointing at the event): only the events that
   * changed the key are read, in the order the appends applied them.
   */
  @Override
  public Single<List<StateChange>> stateHistory(
      String appName, String userId, String sessionId, String key) {
    return service.stateHistory(appName, userId, sessionId, key);
  }

  /** The database behind this service: {@code "SQLite"} or {@code "PostgreSQL"}. */
  public String databaseProduct() {
    return store.databaseProduct();
  }

  /**
   * How this service's session leases are being renewed: the leases held now, the renewals, the
   * late ones, the failed rounds, the leases lost to another instance, and whether the latest round
   * was on time. For health checks; a cheap read of counters, no database access.
   */
  public LeaseStats leaseStats() {
    return store.leaseStats();
  }

  /**
   * Closes the connection pool this service opened (a {@link DataSource} passed in stays open).
   * Operations after this fail with {@link IllegalStateException}. Idempotent.
   */
  @Override
  public void close() {
    store.close();
  }
}
