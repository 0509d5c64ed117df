package dev.adk4j.internal.jdbc;

import com.google.genai.types.Part;
import dev.adk4j.internal.Json;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.SessionException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The storage of {@code DatabaseArtifactService}: the table {@code adk_artifacts} (migration V14)
 * in the session store's database, through the same connection handling ({@link Transactions}: one
 * transaction per call, retried after transient failures) and the same schema migration as {@link
 * JdbcSessionStore}, which it opens and closes.
 *
 * <p>Concurrency. A save allocates its version in the statement that inserts it: {@code INSERT ...
 * SELECT max(version) + 1 ... ON CONFLICT DO NOTHING RETURNING version}. On SQLite writers are
 * serialized (the store's write lock and {@code BEGIN IMMEDIATE}), so the statement always inserts.
 * On PostgreSQL (READ COMMITTED) two saves of one file may compute the same version: the second
 * waits for the first's commit and inserts nothing; it then runs the statement again, which sees
 * the committed row in its new snapshot and takes the next version. So versions are unique, dense
 * and in commit order. Under a stricter isolation the conflict is a serialization failure, which
 * {@link Transactions} retries.
 *
 * <p>{@code scope} is the session id, or {@code ""} for a user's file (shared by their sessions).
 * Not API. Thread-safe.
 */
public final class JdbcArtifactStore implements AutoCloseable {

  private static final String KEY =
      " WHERE app_name = ? AND user_id = ? AND session_id = ? AND filename = ?";

  private static final String INSERT =
      "INSERT INTO adk_artifacts"
          + " (app_name, user_id, session_id, filename, version, part, saved_at)"
          + " SELECT ?, ?, ?, ?, COALESCE(MAX(version) + 1, 0), ?, ? FROM adk_artifacts"
          + KEY
          + " ON CONFLICT DO NOTHING RETURNING version";

  private static final String LOAD_VERSION =
      "SELECT part FROM adk_artifacts" + KEY + " AND version = ?";

  private static final String LOAD_LATEST =
      "SELECT part FROM adk_artifacts" + KEY + " ORDER BY version DESC LIMIT 1";

  private static final String VERSIONS =
      "SELECT version FROM adk_artifacts" + KEY + " ORDER BY version";

  private static final String DELETE = "DELETE FROM adk_artifacts" + KEY;

  private static final String NAMES =
      "SELECT DISTINCT filename FROM adk_artifacts"
          + " WHERE app_name = ? AND user_id = ? AND session_id IN (?, '')";

  /** Attempts of one save's insert within its transaction before it gives up. */
  private static final int MAX_INSERTS = 100;

  private final JdbcSessionStore sessions;
  private final Transactions tx;

  private JdbcArtifactStore(JdbcSessionStore sessions) {
    this.sessions = sessions;
    this.tx = sessions.transactions();
  }

  /**
   * Opens a store on {@code jdbcUrl} with its own connection pool, as {@link JdbcSessionStore#open}
   * does (schema migrated, checked).
   */
  public static JdbcArtifactStore open(
      String jdbcUrl,
      @Nullable String user,
      @Nullable String password,
      DatabaseSessionConfig config) {
    return new JdbcArtifactStore(JdbcSessionStore.open(jdbcUrl, user, password, config));
  }

  /** Opens a store on a {@link DataSource} the caller owns, as {@link JdbcSessionStore#open}. */
  public static JdbcArtifactStore open(DataSource dataSource, DatabaseSessionConfig config) {
    return new JdbcArtifactStore(JdbcSessionStore.open(dataSource, config));
  }

  /** The database product: {@code "SQLite"} or {@code "PostgreSQL"}. */
  public String databaseProduct() {
    return sessions.databaseProduct();
  }

  /**
   * Saves {@code part} as the next version of the file, in one transaction.
   *
   * @param what the artifact for messages: "artifact 'a.txt' of session ..."
   * @return the version saved, from 0
   * @throws IllegalArgumentException if the part cannot be serialized or the database cannot store
   *     the text (a NUL character on PostgreSQL)
   */
  public int save(String app, String user, String scope, String filename, Part part, String what) {
    String json = Json.toJson(part);
    long now = System.currentTimeMillis();
    return tx.run(
        true,
        "save " + what,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            ps.setString(1, app);
            ps.setString(2, user);
            ps.setString(3, scope);
            ps.setString(4, filename);
            ps.setString(5, json);
            ps.setLong(6, now);
            key(ps, 7, app, user, scope, filename);
            for (int attempt = 1; attempt <= MAX_INSERTS; attempt++) {
              try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                  return rs.getInt(1);
                }
              }
              // A concurrent save committed this version first: the next statement sees it.
            }
          }
          throw new SQLException(
              "no free version after " + MAX_INSERTS + " attempts of concurrent saves");
        });
  }

  /** The part of a version, the latest when {@code version} is null; null if there is none. */
  public @Nullable Part load(
      String app,
      String user,
      String scope,
      String filename,
      @Nullable Integer version,
      String what) {
    Optional<String> json =
        tx.run(
            false,
            "load " + what,
            c -> {
              try (PreparedStatement ps =
                  c.prepareStatement(version == null ? LOAD_LATEST : LOAD_VERSION)) {
                key(ps, 1, app, user, scope, filename);
                if (version != null) {
                  ps.setInt(5, version);
                }
                try (ResultSet rs = ps.executeQuery()) {
                  return rs.next() ? Optional.of(rs.getString(1)) : Optional.<String>empty();
                }
              }
            });
    if (json.isEmpty()) {
      return null;
    }
    try {
      return Json.fromJson(json.get(), Part.class);
    } catch (IllegalArgumentException e) {
      throw new SessionException(
          "Cannot load " + what + ": the stored part is not valid JSON of a part", e);
    }
  }

  /** The versions of the file, ascending. */
  public List<Integer> versions(
      String app, String user, String scope, String filename, String what) {
    return tx.run(
        false,
        "list the versions of " + what,
        c -> {
          List<Integer> versions = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement(VERSIONS)) {
            key(ps, 1, app, user, scope, filename);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                versions.add(rs.getInt(1));
              }
            }
          }
          return versions;
        });
  }

  /** Deletes every version of the file; returns how many there were. */
  public int delete(String app, String user, String scope, String filename, String what) {
    return tx.run(
        true,
        "delete " + what,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(DELETE)) {
            key(ps, 1, app, user, scope, filename);
            return ps.executeUpdate();
          }
        });
  }

  /**
   * The file names of the session's files and the user's, unsorted (the caller sorts them as Java
   * does, whatever the database's collation).
   */
  public List<String> names(String app, String user, String sessionId, String what) {
    return tx.run(
        false,
        "list " + what,
        c -> {
          List<String> names = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement(NAMES)) {
            ps.setString(1, app);
            ps.setString(2, user);
            ps.setString(3, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                names.add(rs.getString(1));
              }
            }
          }
          return names;
        });
  }

  private static void key(
      PreparedStatement ps, int first, String app, String user, String scope, String filename)
      throws SQLException {
    ps.setString(first, app);
    ps.setString(first + 1, user);
    ps.setString(first + 2, scope);
    ps.setString(first + 3, filename);
  }

  /** Closes the connection pool if this store opened it. Idempotent. */
  @Override
  public void close() {
    sessions.close();
  }

  @Override
  public String toString() {
    return "JdbcArtifactStore{" + databaseProduct() + "}";
  }
}
