package dev.adk4j.artifacts;

import com.google.genai.types.Part;
import dev.adk4j.internal.Text;
import dev.adk4j.internal.artifacts.ArtifactNames;
import dev.adk4j.internal.jdbc.JdbcArtifactStore;
import dev.adk4j.internal.jdbc.JdbcDependencies;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.SessionException;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link BaseArtifactService} in the database of the sessions: SQLite or PostgreSQL, the same
 * JDBC URLs, {@link DatabaseSessionConfig} and schema migrations as {@code DatabaseSessionService},
 * so that the files an agent saved live next to the sessions it saved them in.
 *
 * <pre>{@code
 * DatabaseSessionService sessions = new DatabaseSessionService(url);
 * DatabaseArtifactService artifacts = new DatabaseArtifactService(url);
 * Runner runner = Runner.builder().agent(agent).appName("app")
 *     .sessionService(sessions).artifactService(artifacts).build();
 * }</pre>
 *
 * <p>Behaves as {@link InMemoryArtifactService}: versions count from 0 per file; a file name
 * starting with {@code user:} belongs to the user and is shared by all their sessions; deleting a
 * file deletes every version (a later save starts again at 0); names are checked by the same rule,
 * so none leaves its session. Artifacts are not deleted with their session.
 *
 * <p>Each version is a row of the table {@code adk_artifacts}, the {@link Part} as its JSON text
 * (bytes in base64, so a stored artifact takes about 4/3 of its size). A save allocates its version
 * in the transaction that inserts it, so concurrent saves of one file, from this process or
 * another, get distinct consecutive versions.
 *
 * <p>Each operation is one transaction, retried after a transient failure and failing with a {@link
 * SessionException} that names the artifact, session, user and app, as the session service's do.
 * Thread-safe. Operations block the subscribing thread on the database. {@link #close()} closes the
 * connection pool this service opened; to share one pool with a {@code DatabaseSessionService},
 * give both the same {@link DataSource}.
 */
public final class DatabaseArtifactService implements BaseArtifactService, AutoCloseable {

  private static final String USER_PREFIX = "user:";

  private final JdbcArtifactStore store;

  /**
   * Opens an artifact service on a JDBC URL with the default settings.
   *
   * @param jdbcUrl {@code jdbc:sqlite:/path/sessions.db} or {@code
   *     jdbc:postgresql://host:port/db?user=...&password=...}
   * @throws IllegalArgumentException for an unsupported or in-memory URL
   * @throws SessionException if the database cannot be reached or its schema migrated
   */
  public DatabaseArtifactService(String jdbcUrl) {
    this(jdbcUrl, DatabaseSessionConfig.defaults());
  }

  /**
   * Opens an artifact service on a JDBC URL with its own connection pool, configured by {@code
   * config}.
   *
   * @throws IllegalArgumentException for an unsupported or in-memory URL
   * @throws SessionException if the database cannot be reached or its schema migrated
   */
  public DatabaseArtifactService(String jdbcUrl, DatabaseSessionConfig config) {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(config, "config");
    JdbcDependencies.check("DatabaseArtifactService", jdbcUrl);
    this.store = JdbcArtifactStore.open(jdbcUrl, null, null, config);
  }

  /**
   * Opens an artifact service on a {@link DataSource} that the caller configures and closes (it may
   * be the one of a {@code DatabaseSessionService}); {@link #close()} leaves it open.
   *
   * @throws IllegalArgumentException if the database is neither SQLite nor PostgreSQL
   * @throws SessionException if the database cannot be reached or its schema migrated
   */
  public DatabaseArtifactService(DataSource dataSource, DatabaseSessionConfig config) {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(config, "config");
    JdbcDependencies.check("DatabaseArtifactService", null);
    this.store = JdbcArtifactStore.open(dataSource, config);
  }

  /** The checked key of one file: its scope is the session, or "" for a user's file. */
  private record Key(String app, String user, String scope, String filename, String what) {}

  private static Key key(
      String appName, @Nullable String userId, @Nullable String sessionId, String filename) {
    Objects.requireNonNull(appName, "appName");
    Objects.requireNonNull(userId, "userId");
    ArtifactNames.check(filename);
    if (filename.startsWith(USER_PREFIX)) {
      String what =
          "artifact "
              + Text.quote(filename)
              + " of user "
              + Text.quote(userId)
              + " in app "
              + Text.quote(appName);
      return new Key(appName, userId, "", filename, what);
    }
    String session =
        Objects.requireNonNull(
            sessionId, () -> "sessionId (artifact " + Text.quote(filename) + " is per session)");
    String what =
        "artifact "
            + Text.quote(filename)
            + " of "
            + SessionException.describe(appName, userId, session);
    return new Key(appName, userId, session, filename, what);
  }

  @Override
  public Single<Integer> saveArtifact(
      String appName, String userId, String sessionId, String filename, Part artifact) {
    Objects.requireNonNull(artifact, "artifact");
    return Single.fromCallable(
        () -> {
          Key k = key(appName, userId, sessionId, filename);
          return store.save(k.app(), k.user(), k.scope(), k.filename(), artifact, k.what());
        });
  }

  @Override
  public Maybe<Part> loadArtifact(
      String appName, String userId, String sessionId, String filename, Optional<Integer> version) {
    Objects.requireNonNull(version, "version");
    return Maybe.fromCallable(
        () -> {
          Key k = key(appName, userId, sessionId, filename);
          return store.load(
              k.app(), k.user(), k.scope(), k.filename(), version.orElse(null), k.what());
        });
  }

  @Override
  public Single<ListArtifactsResponse> listArtifactKeys(
      String appName, String userId, String sessionId) {
    return Single.fromCallable(
        () -> {
          Objects.requireNonNull(appName, "appName");
          Objects.requireNonNull(userId, "userId");
          Objects.requireNonNull(sessionId, "sessionId");
          String what = "the artifacts of " + SessionException.describe(appName, userId, sessionId);
          List<String> names = new ArrayList<>(store.names(appName, userId, sessionId, what));
          Collections.sort(names);
          return new ListArtifactsResponse(names);
        });
  }

  @Override
  public Completable deleteArtifact(
      String appName, String userId, String sessionId, String filename) {
    return Completable.fromAction(
        () -> {
          Key k = key(appName, userId, sessionId, filename);
          store.delete(k.app(), k.user(), k.scope(), k.filename(), k.what());
        });
  }

  @Override
  public Single<List<Integer>> listVersions(
      String appName, String userId, String sessionId, String filename) {
    return Single.fromCallable(
        () -> {
          Key k = key(appName, userId, sessionId, filename);
          return List.copyOf(store.versions(k.app(), k.user(), k.scope(), k.filename(), k.what()));
        });
  }

  /** The database behind this service: {@code "SQLite"} or {@code "PostgreSQL"}. */
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
    return "DatabaseArtifactService{" + databaseProduct() + "}";
  }
}
