package dev.adk4j.state;

import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** A read-only view of a map. */
final class ReadonlyStateView implements ReadonlyState {
  private final Map<String, Object> state;

  ReadonlyStateView(Map<String, Object> state) {
    this.state = Objects.requireNonNull(state, "state");
  }

  @Override
  public @Nullable Object get(Object key) {
    return state.get(key);
  }

  @Override
  public boolean containsKey(Object key) {
    return state.containsKey(key);
  }

  @Override
  public Map<String, Object> all() {
    return Map.copyOf(state);
  }

  @Override
  public String toString() {
    return state.toString();
  }
}
