package dev.adk4j.state;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Read access to a session's state: app, user, session and (during an invocation) temp keys,
 * prefixes included. Implementations are views: they reflect later writes.
 */
public interface ReadonlyState {

  /** The value under {@code key}, or {@code null} if the key is absent. */
  @Nullable Object get(Object key);

  /** Whether {@code key} is present. */
  boolean containsKey(Object key);

  /** An immutable snapshot of every key and value. */
  Map<String, Object> all();

  /**
   * A read-only view over {@code state}: it reflects later writes to {@code state} and hands out
   * copies of the values. It is also a {@link Map} whose every write (through the map, its views or
   * its entries) throws an {@link UnsupportedOperationException} naming the key.
   */
  static ReadonlyState of(Map<String, Object> state) {
    return new ReadonlyStateView(state);
  }
}
