package dev.adk4j.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which workflow node produced an event (ADK 2.0's {@code NodeInfo}, an event's {@code nodeInfo} in
 * JSON).
 *
 * @param path the node's path from the root workflow, {@code /}-separated as in ADK 2.0 ({@code
 *     triage/billing}; a loop iteration adds {@code #n}: {@code main/refine#2/draft})
 * @param runId the run of the workflow the event belongs to (kept when a run is resumed), or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NodeInfo(
    @JsonProperty("path") String path, @JsonProperty("runId") @Nullable String runId) {

  public NodeInfo {
    Objects.requireNonNull(path, "path");
    if (path.isEmpty()) {
      throw new IllegalArgumentException("A node path must not be empty");
    }
  }

  /** The node's name: the last segment of its path. */
  @JsonIgnore
  public String name() {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
