package dev.adk4j.events;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.google.genai.types.Content;
import java.util.Objects;

/**
 * A summary that stands in for a stretch of a session's history when requests to a model are built:
 * the events with timestamps from {@code startTimestamp} to {@code endTimestamp} (epoch millis,
 * inclusive) are replaced by {@code compactedContent}. Carried by the compaction event in {@link
 * EventActions#compaction()}; the events it covers stay stored.
 */
public record EventCompaction(
    @JsonProperty("startTimestamp") long startTimestamp,
    @JsonProperty("endTimestamp") long endTimestamp,
    @JsonProperty("compactedContent") Content compactedContent) {

  @JsonCreator
  public EventCompaction {
    Objects.requireNonNull(compactedContent, "compactedContent");
    if (endTimestamp < startTimestamp) {
      throw new IllegalArgumentException(
          "EventCompaction ends (" + endTimestamp + ") before it starts (" + startTimestamp + ")");
    }
  }
}
