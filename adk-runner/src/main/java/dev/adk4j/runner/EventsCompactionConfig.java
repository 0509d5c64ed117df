package dev.adk4j.runner;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Event compaction, as in Google's ADK: every {@code compactionInterval} invocations of a session,
 * the Runner summarizes the history since the latest compaction (with the last {@code overlapSize}
 * invocations already summarized included again, for continuity) into a compaction event. Requests
 * to a model are then built from the latest summary plus the events after it, so their size stays
 * bounded however long the session grows. Stored events are never rewritten or deleted: the full
 * history stays readable with {@code listEvents}.
 *
 * <p>Each summary covers the whole conversation up to its end (it is made from the previous summary
 * and the events since), so one summary is ever sent. Without a summarizer, the root agent's model
 * is asked, through {@link LlmEventSummarizer}.
 *
 * <p>Agents, callbacks and tools read it as {@code InvocationContext.eventsCompactionConfig()}.
 */
public final class EventsCompactionConfig implements dev.adk4j.agents.CompactionSettings {
  private final int compactionInterval;
  private final int overlapSize;
  private final @Nullable EventSummarizer summarizer;

  private EventsCompactionConfig(
      int compactionInterval, int overlapSize, @Nullable EventSummarizer summarizer) {
    if (compactionInterval < 1) {
      throw new IllegalArgumentException(
          "compactionInterval must be >= 1, got " + compactionInterval);
    }
    if (overlapSize < 0) {
      throw new IllegalArgumentException("overlapSize must be >= 0, got " + overlapSize);
    }
    this.compactionInterval = compactionInterval;
    this.overlapSize = overlapSize;
    this.summarizer = summarizer;
  }

  /** ADK for Java's constructor: the same as {@link #of(int, int)}. */
  public EventsCompactionConfig(int compactionInterval, int overlapSize) {
    this(compactionInterval, overlapSize, null);
  }

  /** Compacts every {@code compactionInterval} invocations, with {@code overlapSize} overlap. */
  public static EventsCompactionConfig of(int compactionInterval, int overlapSize) {
    return new EventsCompactionConfig(compactionInterval, overlapSize, null);
  }

  /** This configuration with {@code summarizer} instead of the root agent's model. */
  public EventsCompactionConfig withSummarizer(EventSummarizer summarizer) {
    return new EventsCompactionConfig(
        compactionInterval, overlapSize, Objects.requireNonNull(summarizer, "summarizer"));
  }

  /** How many invocations run between two compactions. */
  @Override
  public int compactionInterval() {
    return compactionInterval;
  }

  /** How many already summarized invocations the next summary sees again. */
  @Override
  public int overlapSize() {
    return overlapSize;
  }

  public Optional<EventSummarizer> summarizer() {
    return Optional.ofNullable(summarizer);
  }

  @Override
  public String toString() {
    return "EventsCompactionConfig{compactionInterval="
        + compactionInterval
        + ", overlapSize="
        + overlapSize
        + (summarizer == null ? "" : ", summarizer=" + summarizer)
        + "}";
  }
}
