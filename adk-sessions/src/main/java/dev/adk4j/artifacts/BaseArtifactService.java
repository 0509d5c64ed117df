package dev.adk4j.artifacts;

import com.google.genai.types.Part;
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
}
