package dev.adk4j.history;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the store holds once the run is over, read by a fresh service: every session's events in
 * order, every session's final state (app, user and session keys merged), and the state history
 * ({@code stateHistory}) of every {@code app:} and {@code user:} register.
 *
 * @param events per session ({@code user/session}), oldest first
 * @param finalStates per session, its state at the end
 * @param keyHistories per app or user register key, its changes in the order the store applied them
 */
record Stored(
    Map<String, List<StoredEvent>> events,
    Map<String, Map<String, Object>> finalStates,
    Map<KeyRef, List<Change>> keyHistories) {

  /**
   * One change of a key: the value it got (null: removed), by which invocation, in which session.
   */
  record Change(@Nullable Object value, String invocationId, String session) {}

  static Stored empty() {
    return new Stored(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
  }
}
