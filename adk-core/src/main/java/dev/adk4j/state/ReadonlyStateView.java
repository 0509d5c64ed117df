package dev.adk4j.state;

import dev.adk4j.internal.Json;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A read-only view of a state map. It reflects later writes to the map; every value it hands out is
 * a copy ({@link Json#copy}), so changing one changes nothing. It is also a {@link Map} (for code
 * that treats state as one), and every write through it, its key, value and entry views, or an
 * entry, is refused with an {@link UnsupportedOperationException} naming the key.
 *
 * <p>Why this class, under issue 25's simplicity budget: not for speed (no benchmark row depends on
 * it), but because the JDK has nothing that keeps its documented behaviour: {@code
 * Collections.unmodifiableMap} is not a {@link ReadonlyState}, hands out the values themselves, and
 * refuses writes without naming the key ({@code ReadonlyStateTest}, {@code docs/reliability.md}).
 */
final class ReadonlyStateView extends AbstractMap<String, Object> implements ReadonlyState {
  private final Map<String, Object> state;

  ReadonlyStateView(Map<String, Object> state) {
    this.state = Objects.requireNonNull(state, "state");
  }

  // ---- reads ----

  @Override
  public @Nullable Object get(Object key) {
    return key == null ? null : Json.copy(state.get(key));
  }

  @Override
  public boolean containsKey(Object key) {
    return key != null && state.containsKey(key);
  }

  @Override
  public int size() {
    return state.size();
  }

  @Override
  public boolean isEmpty() {
    return state.isEmpty();
  }

  @Override
  public Map<String, Object> all() {
    Map<String, Object> copy = new HashMap<>();
    state.forEach((k, v) -> copy.put(k, Json.copy(v)));
    return Map.copyOf(copy);
  }

  @Override
  public Set<Map.Entry<String, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, Object>> iterator() {
        Iterator<Map.Entry<String, Object>> it = state.entrySet().iterator();
        return new Iterator<>() {
          private @Nullable String last;

          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public Map.Entry<String, Object> next() {
            Map.Entry<String, Object> e = it.next();
            last = e.getKey();
            return new ReadonlyEntry(e.getKey(), Json.copy(e.getValue()));
          }

          @Override
          public void remove() {
            throw refused(String.valueOf(last));
          }
        };
      }

      @Override
      public int size() {
        return state.size();
      }
    };
  }

  @Override
  public String toString() {
    return state.toString();
  }

  // ---- writes: all refused ----

  private static final String READ_ONLY =
      "this state is read-only (the state of a ReadonlyContext, such as the one an instruction"
          + " provider gets); write state from a callback or a tool, through its CallbackContext"
          + " or ToolContext";

  static UnsupportedOperationException refused(String key) {
    return new UnsupportedOperationException("Cannot write state key '" + key + "': " + READ_ONLY);
  }

  /** For writes of every key (clear, replaceAll): names the first one, if there is one. */
  private UnsupportedOperationException refusedAll() {
    Iterator<String> keys = state.keySet().iterator();
    return keys.hasNext()
        ? refused(keys.next())
        : new UnsupportedOperationException("Cannot write state: " + READ_ONLY);
  }

  @Override
  public Object put(String key, Object value) {
    throw refused(key);
  }

  @Override
  public Object remove(Object key) {
    throw refused(String.valueOf(key));
  }

  @Override
  public void putAll(Map<? extends String, ?> m) {
    if (m.isEmpty()) {
      throw new UnsupportedOperationException("Cannot write state: " + READ_ONLY);
    }
    throw refused(String.join("', '", m.keySet()));
  }

  @Override
  public void clear() {
    throw refusedAll();
  }

  @Override
  public Object putIfAbsent(String key, Object value) {
    throw refused(key);
  }

  @Override
  public boolean remove(Object key, Object value) {
    throw refused(String.valueOf(key));
  }

  @Override
  public boolean replace(String key, Object oldValue, Object newValue) {
    throw refused(key);
  }

  @Override
  public Object replace(String key, Object value) {
    throw refused(key);
  }

  @Override
  public Object computeIfAbsent(String key, Function<? super String, ?> mappingFunction) {
    throw refused(key);
  }

  @Override
  public Object computeIfPresent(
      String key, BiFunction<? super String, ? super Object, ?> remappingFunction) {
    throw refused(key);
  }

  @Override
  public Object compute(
      String key, BiFunction<? super String, ? super Object, ?> remappingFunction) {
    throw refused(key);
  }

  @Override
  public Object merge(
      String key, Object value, BiFunction<? super Object, ? super Object, ?> remappingFunction) {
    throw refused(key);
  }

  @Override
  public void replaceAll(BiFunction<? super String, ? super Object, ?> function) {
    throw refusedAll();
  }

  /** An entry of the view: its value is a copy, and {@link #setValue} is refused. */
  private static final class ReadonlyEntry
      extends AbstractMap.SimpleImmutableEntry<String, Object> {
    ReadonlyEntry(String key, @Nullable Object value) {
      super(key, value);
    }

    @Override
    public Object setValue(Object value) {
      throw refused(getKey());
    }
  }
}
