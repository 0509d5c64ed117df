package dev.adk4j.runner;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.artifacts.BaseArtifactService;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code RunConfig.saveInputBlobsAsArtifacts}: the inline data of the user's message saved as
 * artifacts before the turn, each part replaced by a text naming the artifact, as ADK does.
 */
final class InputBlobs {

  /** The message as stored (blobs replaced) and the artifact versions saved (name to version). */
  record Saved(Content message, Map<String, Integer> artifactDelta) {}

  private InputBlobs() {}

  /**
   * Saves every inline-data part of {@code message} as the artifact {@code
   * artifact_<invocationId>_<index of the part>}; null if the message has none.
   *
   * @throws IllegalStateException if it has some and there is no artifact service (naming the
   *     session)
   */
  static @Nullable Saved save(
      @Nullable BaseArtifactService artifacts,
      String appName,
      String userId,
      String sessionId,
      String invocationId,
      Content message) {
    List<Part> parts = message.parts().orElse(List.of());
    if (parts.stream().noneMatch(p -> p.inlineData().isPresent())) {
      return null;
    }
    if (artifacts == null) {
      throw new IllegalStateException(
          "RunConfig.saveInputBlobsAsArtifacts is set but the runner of app '"
              + appName
              + "' has no artifact service to save the message of session '"
              + sessionId
              + "' of user '"
              + userId
              + "' in");
    }
    List<Part> replaced = new ArrayList<>(parts);
    Map<String, Integer> delta = new LinkedHashMap<>();
    for (int i = 0; i < parts.size(); i++) {
      Part part = parts.get(i);
      if (part.inlineData().isEmpty()) {
        continue;
      }
      String name = "artifact_" + invocationId + "_" + i;
      int version = artifacts.saveArtifact(appName, userId, sessionId, name, part).blockingGet();
      delta.put(name, version);
      replaced.set(i, Part.fromText("Uploaded file: " + name + ". It is saved into artifacts"));
    }
    return new Saved(message.toBuilder().parts(replaced).build(), delta);
  }
}
