package dev.adk4j.memory;

import dev.adk4j.events.Event;
import dev.adk4j.internal.jdbc.JdbcDependencies;
import dev.adk4j.internal.jdbc.JdbcMemoryStore;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionException;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link BaseMemoryService} in the database of the sessions: SQLite or PostgreSQL, the same JDBC
 * URLs, {@link DatabaseSessionConfig} and schema migrations as {@code DatabaseSessionService}, so
 * that what the agent learned lives next to the sessions it learned it in.
 *
 * <pre>{@code
 * DatabaseSessionService sessions = new DatabaseSessionService(url);
 * DatabaseMemoryService memory = new DatabaseMemoryService(url);
 * Runner runner = Runner.builder().agent(agent).appName("app")
 *     .sessionService(sessions).memoryService(memory).build();
 * }</pre>
 *
 * <p>Memories are rows of the table {@code adk_memories} (one per remembered event, unique by app,
 * user, session and event id), searched with the database's full-text search: an FTS5 index on
 * SQLite, a GIN-indexed {@code tsvector} (configuration {@code simple}: whole words, no stemming)
 * on PostgreSQL. Both cut text into words at whatever is not a letter or digit and ignore case
 * (PostgreSQL by the database's locale). A search returns the {@code maxResults} most recent
 * matches ({@value MemoryText#DEFAULT_MAX_RESULTS} by default), oldest first.
 *
 * <p>Each operation is one transaction, retried after a transient failure and failing with a {@link
 * SessionException} as the session service's do. Thread-safe. Operations block the subscribing
 * thread on the database. {@link #close()} closes the connection pool this service opened; to share
 * one pool with a {@code DatabaseSessionService}, give both the same {@link DataSource}.
 */
public final class DatabaseMemoryService implements BaseMemoryService, AutoCloseable {

  private final JdbcMemoryStore store;
  private final int maxResults;

  /**
   * Opens a memory on a JDBC URL with the default settings.
   *
   * @param jdbcUrl {@code jdbc:sqlite:/path/sessions.db} or {@code
   *     jdbc:postgresql://host:port/db?user=...&password=...}
   * @throws IllegalArgumentException for an unsupported or in-memory URL
   * @throws SessionException if the database cannot be reached or its schema migrated
   */
  public DatabaseMemoryService(String jdbcUrl) {
    this(jdbcUrl, DatabaseSessionConfig.defaults(), MemoryText.DEFAULT_MAX_RESULTS);
  }

  /**
   * Opens a memory on a JDBC URL whose searches return up to {@code maxResults} matches.
   *
   * @throws IllegalArgumentException for an unsupported or in-memory URL, or {@code maxResults}
   *     below 1
   * @throws SessionException if the database cannot be reached or its schema migrated
   */
  public DatabaseMemoryService(String jdbcUrl, DatabaseSessionConfig config, int maxResults) {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(config, "config");
    this.maxResults = MemoryText.checkMaxResults(maxResults);
    JdbcDependencies.check("DatabaseMemoryService", jdbcUrl);
    this.store = JdbcMemoryStore.open(jdbcUrl, null, null, config);
  }

  /**
   * Opens a memory on a {@link DataSource} that the caller configures and closes (it may be the one
   * of a {@code DatabaseSessionService}); {@link #close()} leaves it open.
   *
   * @throws IllegalArgumentException if the database is neither SQLite nor PostgreSQL, or {@code
   *     maxResults} is below 1
   * @throws SessionException if the database cannot be reached or its schema migrated
   */
  public DatabaseMemoryService(
      DataSource dataSource, DatabaseSessionConfig config, int maxResults) {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(config, "config");
    this.maxResults = MemoryText.checkMaxResults(maxResults);
    JdbcDependencies.check("DatabaseMemoryService", null);
    this.store = JdbcMemoryStore.open(dataSource, config);
  }

  /**
   * Stores the session's remembered events that are not stored yet, in one transaction (the event
   * ids of the session already in memory are read first).
   */
  @Override
  public Completable addSessionToMemory(Session session) {
    Objects.requireNonNull(session, "session");
    return Completable.fromAction(
        () -> {
          String app = MemoryText.checkId(session.appName(), "appName");
          String user = MemoryText.checkId(session.userId(), "userId");
          List<JdbcMemoryStore.Row> rows = new ArrayList<>();
          for (Event event : session.events()) {
            @Nullable String text = MemoryText.rememberedText(event);
            if (text != null) {
              rows.add(
                  new JdbcMemoryStore.Row(
                      session.id(),
                      event.id(),
                      event.author(),
                      event.timestamp(),
                      event.content().orElseThrow(),
                      text));
            }
          }
          store.add(app, user, session.id(), rows);
        });
  }

  @Override
  public Single<SearchMemoryResponse> searchMemory(String appName, String userId, String query) {
    return Single.fromCallable(
        () -> {
          String app = MemoryText.checkId(appName, "appName");
          String user = MemoryText.checkId(userId, "userId");
          Objects.requireNonNull(query, "query");
          return SearchMemoryResponse.builder()
              .memories(store.search(app, user, MemoryText.words(query), maxResults))
              .build();
        });
  }

  /** The database behind this memory: {@code "SQLite"} or {@code "PostgreSQL"}. */
  public String databaseProduct() {
    return store.databaseProduct();
  }

  /**
   * Closes the connection pool this service opened (a {@link DataSource} passed in stays open).
   * Idempotent.
   */
  @Override
  public void close() {
    store.close();
  }

  @Override
  public String toString() {
    return "DatabaseMemoryService{" + databaseProduct() + "}";
  }
}
