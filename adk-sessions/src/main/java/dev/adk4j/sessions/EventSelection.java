package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The events a {@link GetSessionConfig} keeps, and the events of a page, of a session's history
 * held as a list (the event at index i has sequence number i + 1).
 */
final class EventSelection {

  private EventSelection() {}

  /**
   * The events {@code config} keeps of {@code events} (the event at index i has revision i + 1):
   * the window after {@code afterRevision} and from the latest compaction on is a sub-list view (no
   * event looked at); {@code numRecentEvents} walks back from the end only until it has N events
   * (that pass {@code afterTimestamp}).
   *
   * @param lastCompactionSeq the revision of the latest compaction event; 0 if there is none
   * @param config {@code null} keeps them all (and returns {@code events} itself)
   */
  static List<Event> select(
      List<Event> events, long lastCompactionSeq, @Nullable GetSessionConfig config) {
    if (config == null) {
      return events;
    }
    int size = events.size();
    long from = config.afterRevision().orElse(0L);
    if (config.fromLatestCompaction() && lastCompactionSeq > 0) {
      from = Math.max(from, lastCompactionSeq - 1);
    }
    int start = (int) Math.min(size, from);
    @Nullable Long after = config.afterTimestamp().map(Instant::toEpochMilli).orElse(null);
    @Nullable Integer last = config.numRecentEvents().orElse(null);
    if (last != null && after == null) {
      // A window of the (immutable) list, sharing its events: O(1).
      return events.subList(Math.max(start, size - Math.max(0, last)), size);
    }
    List<Event> window = events.subList(start, size);
    if (last != null) {
      List<Event> kept = new ArrayList<>(Math.min(last, window.size()));
      for (int i = window.size() - 1; i >= 0 && kept.size() < last; i--) {
        Event e = window.get(i);
        if (after == null || e.timestamp() >= after) {
          kept.add(e);
        }
      }
      Collections.reverse(kept);
      return kept;
    }
    if (after != null) {
      List<Event> kept = new ArrayList<>();
      for (Event e : window) {
        if (e.timestamp() >= after) {
          kept.add(e);
        }
      }
      return kept;
    }
    return window;
  }

  /**
   * Up to {@code limit} events of {@code events} with a sequence number above {@code bound}, oldest
   * first, or with {@code newestFirst} below it, newest first; only those events are looked at.
   */
  static List<SessionStore.NumberedEvent> page(
      List<Event> events, boolean newestFirst, long bound, int limit) {
    int size = events.size();
    List<SessionStore.NumberedEvent> page = new ArrayList<>(Math.min(limit, size));
    if (newestFirst) {
      long below = Math.min(bound, size + 1L);
      for (long seq = below - 1; seq >= 1 && page.size() < limit; seq--) {
        page.add(new SessionStore.NumberedEvent(seq, events.get((int) (seq - 1))));
      }
    } else {
      long after = Math.max(0, Math.min(bound, size)); // no overflow past Long.MAX_VALUE
      for (long seq = after + 1; seq <= size && page.size() < limit; seq++) {
        page.add(new SessionStore.NumberedEvent(seq, events.get((int) (seq - 1))));
      }
    }
    return page;
  }
}
