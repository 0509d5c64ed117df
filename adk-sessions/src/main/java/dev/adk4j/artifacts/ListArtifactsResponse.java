package dev.adk4j.artifacts;

import java.util.List;

/** Artifact file names, sorted. */
public record ListArtifactsResponse(List<String> filenames) {
  public ListArtifactsResponse {
    filenames = List.copyOf(filenames);
  }
}
