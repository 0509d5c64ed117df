package dev.adk4j.runner;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventCompaction;
import io.reactivex.rxjava3.core.Maybe;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Turns a stretch of a session's history into a summary that stands in for it (see {@link
 * EventsCompactionConfig}). {@link LlmEventSummarizer} asks a model.
 */
@FunctionalInterface
public interface EventSummarizer {

  /**
   * Summarizes {@code previous} (the latest summary, if any) together with {@code events} (the
   * events after it, oldest first, overlap included) into one summary of the whole conversation so
   * far. Completes empty to skip this compaction.
   *
   * @return a compaction whose content is the new summary; its time range should run from {@code
   *     previous}'s start (or the first event's timestamp) to the last event's timestamp
   */
  Maybe<EventCompaction> summarize(@Nullable EventCompaction previous, List<Event> events);
}
