package dev.adk4j.artifacts;

import com.google.genai.types.Part;
import dev.adk4j.sessions.SessionKey;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Stores versioned artifacts ({@link Part}s: text or bytes) per app, user, session and file name.
 * Each save of a file name creates the next version, starting at 0. A file name starting with
 * {@code user:} belongs to the user and is shared by all their sessions.
 *
 * <p>Every operation also takes ADK for Java's {@link SessionKey} in place of the app name, user id
 * and session id; a key without a session id is refused with an {@link IllegalArgumentException}
 * naming its app and user.
 *
 * <p>Implementations are thread-safe; operations are lazy.
 */
public interface BaseArtifactService {

  /** Saves {@code artifact} as the next version of {@code filename}; returns that version. */
  Single<Integer> saveArtifact(
      String appName, String userId, String sessionId, String filename, Part artifact);

  /** Loads a version of {@code filename}, the latest when {@code version} is empty. */
  Maybe<Part> loadArtifact(
      String appName, String userId, String sessionId, String filename, Optional<Integer> version);

  /** Loads the latest version of {@code filename}. */
  default Maybe<Part> loadArtifact(
      String appName, String userId, String sessionId, String filename) {
    return loadArtifact(appName, userId, sessionId, filename, Optional.empty());
  }

  /** ADK for Java's spelling: loads version {@code version} of {@code filename}. */
  default Maybe<Part> loadArtifact(
      String appName, String userId, String sessionId, String filename, int version) {
    return loadArtifact(appName, userId, sessionId, filename, Optional.of(version));
  }

  /** ADK for Java's spelling: a null {@code version} loads the latest. */
  default Maybe<Part> loadArtifact(
      String appName, String userId, String sessionId, String filename, @Nullable Integer version) {
    return loadArtifact(appName, userId, sessionId, filename, Optional.ofNullable(version));
  }

  /**
   * ADK for Java's spelling: saves {@code artifact} as the next version of {@code filename} and
   * answers that version as stored.
   */
  default Single<Part> saveAndReloadArtifact(
      String appName, String userId, String sessionId, String filename, Part artifact) {
    return saveArtifact(appName, userId, sessionId, filename, artifact)
        .flatMap(
            version ->
                loadArtifact(appName, userId, sessionId, filename, Optional.of(version))
                    .toSingle());
  }

  /** The file names of the session's artifacts and the user's, sorted. */
  Single<ListArtifactsResponse> listArtifactKeys(String appName, String userId, String sessionId);

  /** Deletes every version of {@code filename}. */
  Completable deleteArtifact(String appName, String userId, String sessionId, String filename);

  /** The versions of {@code filename}, ascending; empty if there is none. */
  Single<List<Integer>> listVersions(
      String appName, String userId, String sessionId, String filename);

  /** ADK for Java's form of {@link #saveArtifact(String, String, String, String, Part)}. */
  default Single<Integer> saveArtifact(SessionKey key, String filename, Part artifact) {
    return saveArtifact(key.appName(), key.userId(), sessionIdOf(key), filename, artifact);
  }

  /**
   * ADK for Java's form of {@link #saveAndReloadArtifact(String, String, String, String, Part)}.
   */
  default Single<Part> saveAndReloadArtifact(SessionKey key, String filename, Part artifact) {
    return saveAndReloadArtifact(key.appName(), key.userId(), sessionIdOf(key), filename, artifact);
  }

  /** ADK for Java's form: loads the latest version of {@code filename}. */
  default Maybe<Part> loadArtifact(SessionKey key, String filename) {
    return loadArtifact(key.appName(), key.userId(), sessionIdOf(key), filename, Optional.empty());
  }

  /** ADK for Java's form: loads version {@code version} of {@code filename}. */
  default Maybe<Part> loadArtifact(SessionKey key, String filename, int version) {
    return loadArtifact(
        key.appName(), key.userId(), sessionIdOf(key), filename, Optional.of(version));
  }

  /** ADK for Java's form of {@link #listArtifactKeys(String, String, String)}. */
  default Single<ListArtifactsResponse> listArtifactKeys(SessionKey key) {
    return listArtifactKeys(key.appName(), key.userId(), sessionIdOf(key));
  }

  /** ADK for Java's form of {@link #deleteArtifact(String, String, String, String)}. */
  default Completable deleteArtifact(SessionKey key, String filename) {
    return deleteArtifact(key.appName(), key.userId(), sessionIdOf(key), filename);
  }

  /** ADK for Java's form of {@link #listVersions(String, String, String, String)}. */
  default Single<List<Integer>> listVersions(SessionKey key, String filename) {
    return listVersions(key.appName(), key.userId(), sessionIdOf(key), filename);
  }

  private static String sessionIdOf(SessionKey key) {
    String id = key.id();
    if (id != null) {
      return id;
    }
    throw new IllegalArgumentException(
        String.format(
            "Artifacts belong to a session: the SessionKey of app '%s' and user '%s' names none",
            key.appName(), key.userId()));
  }
}
