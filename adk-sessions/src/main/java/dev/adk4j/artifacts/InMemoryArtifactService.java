package dev.adk4j.artifacts;

import com.google.genai.types.Part;
import dev.adk4j.internal.artifacts.ArtifactNames;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/** A {@link BaseArtifactService} in memory. Parts are immutable, so they are stored as given. */
public final class InMemoryArtifactService implements BaseArtifactService {

  private static final String USER_PREFIX = "user:";

  private record Key(String appName, String userId, String sessionId, String filename) {}

  private final Map<Key, List<Part>> artifacts = new ConcurrentHashMap<>();

  private static Key key(String appName, String userId, String sessionId, String filename) {
    Objects.requireNonNull(appName, "appName");
    Objects.requireNonNull(userId, "userId");
    ArtifactNames.check(filename);
    // A user-scoped file is shared by all the user's sessions.
    String scope = filename.startsWith(USER_PREFIX) ? "" : Objects.requireNonNull(sessionId);
    return new Key(appName, userId, scope, filename);
  }

  @Override
  public Single<Integer> saveArtifact(
      String appName, String userId, String sessionId, String filename, Part artifact) {
    Objects.requireNonNull(artifact, "artifact");
    return Single.fromCallable(
        () -> {
          Key key = key(appName, userId, sessionId, filename);
          int[] version = new int[1];
          artifacts.compute(
              key,
              (k, versions) -> {
                List<Part> next = versions == null ? new ArrayList<>() : new ArrayList<>(versions);
                next.add(artifact);
                version[0] = next.size() - 1;
                return List.copyOf(next);
              });
          return version[0];
        });
  }

  @Override
  public Maybe<Part> loadArtifact(
      String appName, String userId, String sessionId, String filename, Optional<Integer> version) {
    return Maybe.fromCallable(
        () -> {
          List<Part> versions = artifacts.get(key(appName, userId, sessionId, filename));
          if (versions == null || versions.isEmpty()) {
            return null;
          }
          int v = version.orElse(versions.size() - 1);
          return v >= 0 && v < versions.size() ? versions.get(v) : null;
        });
  }

  @Override
  public Single<ListArtifactsResponse> listArtifactKeys(
      String appName, String userId, String sessionId) {
    return Single.fromCallable(
        () -> {
          TreeSet<String> names = new TreeSet<>();
          artifacts.forEach(
              (k, v) -> {
                if (k.appName().equals(appName)
                    && k.userId().equals(userId)
                    && (k.sessionId().equals(sessionId) || k.sessionId().isEmpty())) {
                  names.add(k.filename());
                }
              });
          return new ListArtifactsResponse(new ArrayList<>(names));
        });
  }

  @Override
  public Completable deleteArtifact(
      String appName, String userId, String sessionId, String filename) {
    return Completable.fromAction(
        () -> artifacts.remove(key(appName, userId, sessionId, filename)));
  }

  @Override
  public Single<List<Integer>> listVersions(
      String appName, String userId, String sessionId, String filename) {
    return Single.fromCallable(
        () -> {
          List<Part> versions = artifacts.get(key(appName, userId, sessionId, filename));
          int n = versions == null ? 0 : versions.size();
          return IntStream.range(0, n).boxed().toList();
        });
  }
}
