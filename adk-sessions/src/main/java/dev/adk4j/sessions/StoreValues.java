package dev.adk4j.sessions;

import dev.adk4j.internal.Json;
import org.jspecify.annotations.Nullable;

/**
 * The rules a {@link SessionStore} keeps for state values, for store authors: how values compare
 * and how they are handed out. State values are JSON values (null, booleans, numbers, strings,
 * lists and maps of them) as {@code State} checked and froze them at the write.
 */
public final class StoreValues {
  private StoreValues() {}

  /**
   * Whether two state values are the same JSON value: numbers compare by value ({@code 1}, {@code
   * 1L} and {@code 1.0} are the same), maps by their entries whatever their order, lists element by
   * element. This is how an append compares {@link PendingAppend#expected()} with what is stored.
   */
  public static boolean same(@Nullable Object a, @Nullable Object b) {
    return Json.sameValue(a, b);
  }

  /**
   * A copy of a state value that its receiver may change: maps and lists are copied all the way
   * down, everything else (immutable) is returned as it is. A store hands out copies of the values
   * it keeps, so that no caller can change them.
   */
  public static @Nullable Object copy(@Nullable Object value) {
    return Json.copy(value);
  }
}
