package dev.adk4j.artifacts;

import java.util.List;

/** Artifact file names, sorted. */
public record ListArtifactsResponse(List<String> filenames) {
  public ListArtifactsResponse {
    filenames = List.copyOf(filenames);
  }

  /** ADK for Java's way to build one: {@code builder().filenames(names).build()}. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link ListArtifactsResponse}; no file names unless given. Not thread-safe. */
  public static final class Builder {
    private List<String> filenames = List.of();

    private Builder() {}

    public Builder filenames(List<String> filenames) {
      this.filenames = List.copyOf(filenames);
      return this;
    }

    public ListArtifactsResponse build() {
      return new ListArtifactsResponse(filenames);
    }
  }
}
