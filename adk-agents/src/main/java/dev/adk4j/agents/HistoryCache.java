package dev.adk4j.agents;

import com.google.genai.types.Content;
import dev.adk4j.events.Event;
import dev.adk4j.internal.AppendOnlyList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The model conversations an {@link LlmAgent} built last, per session and branch, so that the next
 * request of the same conversation converts only the events stored since ({@link
 * Histories#contentsFor}): a turn's request costs what its new events cost, not the whole history.
 *
 * <p>An entry is used only for the events it was built from: the session's events must start with
 * exactly those event objects (stored events are immutable, and a session copy's events only grow),
 * so a session read afresh from storage, trimmed, or loaded from a compaction on is converted
 * again. Entries are immutable and replaced whole; bounded, least recently used first out.
 * Thread-safe.
 */
final class HistoryCache {

  /** Sessions (times branches) remembered per agent: as many as a runner's session cache. */
  static final int MAX_ENTRIES = 1_000;

  /**
   * Histories shorter than this are converted whole and not remembered: a new conversation's
   * requests cost less to convert than to look up and remember (a CPU profile of one-turn
   * conversations showed the cache's put at 7 % of the turn).
   */
  static final int MIN_EVENTS = 8;

  /** A conversation: app, user, session, and the agent's branch (null: none). */
  record Key(String app, String user, String session, @Nullable String branch) {}

  /**
   * The contents built from the first {@code size} events of {@code source}, none of which is a
   * rewind, and with no long-running call from the latest compaction on (the histories whose
   * contents later events only extend).
   */
  record Built(List<Event> source, int size, AppendOnlyList<Content> contents) {}

  private final Map<Key, Built> entries = new LinkedHashMap<>(16, 0.75f, true);

  @Nullable Built get(Key key) {
    synchronized (entries) {
      return entries.get(key);
    }
  }

  void put(Key key, Built built) {
    synchronized (entries) {
      entries.put(key, built);
      if (entries.size() > MAX_ENTRIES) {
        entries.remove(entries.keySet().iterator().next());
      }
    }
  }

  /** Whether {@code events} starts with the first {@code n} events of {@code source}, the same. */
  static boolean samePrefix(List<Event> source, List<Event> events, int n) {
    if (events.size() < n) {
      return false;
    }
    if (source == events) {
      return true;
    }
    for (int i = n - 1; i >= 0; i--) {
      if (source.get(i) != events.get(i)) {
        return false;
      }
    }
    return true;
  }
}
