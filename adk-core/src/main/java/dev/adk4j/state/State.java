package dev.adk4j.state;

import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A session's live state during an invocation, which records every mutation in a delta.
 *
 * <p>A {@code State} wraps two maps: the live state (shared by every context of the invocation, so
 * that a write is visible at once to every later read) and the delta of the event being built.
 * Every mutation through any {@link Map} method or view ({@link #entrySet()}, {@link #keySet()},
 * {@link #values()} and their iterators) updates both. A removal is recorded in the delta
 * explicitly; {@link #delta()} shows it as a {@code null} value.
 *
 * <p>Keys are non-empty strings whose prefix decides the scope (see {@link Scope}). Values are
 * stored as their JSON round trip ({@link Json#normalize}): a value that cannot be serialized is
 * refused at the write with an {@link IllegalArgumentException} naming the key, and nothing
 * changes. {@code put(key, null)} removes the key.
 *
 * <p>Thread-safe: each mutation of a key is atomic together with its delta entry.
 */
public class State implements ConcurrentMap<String, Object>, ReadonlyState {

  public static final String APP_PREFIX = "app:";
  public static final String USER_PREFIX = "user:";
  public static final String TEMP_PREFIX = "temp:";

  /**
   * Marks a removal in a hand-built delta map that cannot hold {@code null} (such as a {@link
   * ConcurrentHashMap}). {@code EventActions} turns it into {@code null}.
   */
  public static final Object REMOVED =
      new Object() {
        @Override
        public String toString() {
          return "REMOVED";
        }
      };

  /** Returned by a change function to leave the key as it is. */
  private static final Object UNCHANGED = new Object();

  private final ConcurrentMap<String, Object> state;
  private final ConcurrentMap<String, Object> delta;

  /** A state over {@code state} with a fresh, empty delta. */
  public State(ConcurrentMap<String, Object> state) {
    this(state, new ConcurrentHashMap<>());
  }

  /**
   * A state over {@code state} recording into {@code delta}, where a removal is stored as {@link
   * #REMOVED}.
   */
  public State(ConcurrentMap<String, Object> state, ConcurrentMap<String, Object> delta) {
    this.state = Objects.requireNonNull(state, "state");
    this.delta = Objects.requireNonNull(delta, "delta");
  }

  /** Same as {@link #put}: stores {@code value} under {@code key}, or removes it when null. */
  public void set(String key, @Nullable Object value) {
    put(key, value);
  }

  /** An immutable snapshot of the live state. */
  @Override
  public Map<String, Object> all() {
    return Map.copyOf(state);
  }

  /** Whether any mutation has been recorded. */
  public boolean hasDelta() {
    return !delta.isEmpty();
  }

  /**
   * A snapshot of the recorded changes: each changed key with its new value, or {@code null} if it
   * was removed.
   */
  public Map<String, @Nullable Object> delta() {
    Map<String, @Nullable Object> copy = new HashMap<>();
    delta.forEach((k, v) -> copy.put(k, v == REMOVED ? null : v));
    return copy;
  }

  // ---- reads ----

  @Override
  public int size() {
    return state.size();
  }

  @Override
  public boolean isEmpty() {
    return state.isEmpty();
  }

  @Override
  public boolean containsKey(Object key) {
    return key != null && state.containsKey(key);
  }

  @Override
  public boolean containsValue(Object value) {
    return value != null && state.containsValue(value);
  }

  @Override
  public @Nullable Object get(Object key) {
    return key == null ? null : state.get(key);
  }

  // ---- writes: every one goes through mutate(), which records the delta atomically ----

  @Override
  public @Nullable Object put(String key, @Nullable Object value) {
    Object normalized = normalize(key, value);
    return mutate(key, old -> normalized)[0];
  }

  @Override
  public void putAll(Map<? extends String, ?> m) {
    // Validate everything first so that a bad value leaves nothing half-written.
    Map<String, Object> normalized = new HashMap<>();
    for (Map.Entry<? extends String, ?> e : m.entrySet()) {
      normalized.put(e.getKey(), normalize(e.getKey(), e.getValue()));
    }
    normalized.forEach((k, v) -> mutate(k, old -> v));
  }

  @Override
  public @Nullable Object remove(Object key) {
    if (!(key instanceof String)) {
      return null;
    }
    return mutate((String) key, old -> old == null ? UNCHANGED : null)[0];
  }

  @Override
  public boolean remove(Object key, Object value) {
    if (!(key instanceof String) || value == null) {
      return false;
    }
    Object[] r = mutate((String) key, old -> Objects.equals(old, value) ? null : UNCHANGED);
    return r[2] == Boolean.TRUE;
  }

  @Override
  public @Nullable Object putIfAbsent(String key, Object value) {
    Object normalized = normalize(key, value);
    return mutate(key, old -> old == null && normalized != null ? normalized : UNCHANGED)[0];
  }

  @Override
  public boolean replace(String key, Object oldValue, Object newValue) {
    Object normalized = normalize(key, newValue);
    Object[] r = mutate(key, old -> old != null && old.equals(oldValue) ? normalized : UNCHANGED);
    return r[2] == Boolean.TRUE;
  }

  @Override
  public @Nullable Object replace(String key, Object value) {
    Object normalized = normalize(key, value);
    return mutate(key, old -> old == null ? UNCHANGED : normalized)[0];
  }

  @Override
  public @Nullable Object computeIfAbsent(
      String key, Function<? super String, ? extends Object> mappingFunction) {
    Objects.requireNonNull(mappingFunction);
    return mutate(
        key,
        old -> {
          if (old != null) {
            return UNCHANGED;
          }
          Object v = mappingFunction.apply(key);
          return v == null ? UNCHANGED : normalize(key, v);
        })[1];
  }

  @Override
  public @Nullable Object computeIfPresent(
      String key, BiFunction<? super String, ? super Object, ? extends Object> remappingFunction) {
    Objects.requireNonNull(remappingFunction);
    return mutate(
        key,
        old -> {
          if (old == null) {
            return UNCHANGED;
          }
          return normalize(key, remappingFunction.apply(key, old));
        })[1];
  }

  @Override
  public @Nullable Object compute(
      String key, BiFunction<? super String, ? super Object, ? extends Object> remappingFunction) {
    Objects.requireNonNull(remappingFunction);
    return mutate(
        key,
        old -> {
          Object v = remappingFunction.apply(key, old);
          return v == null && old == null ? UNCHANGED : normalize(key, v);
        })[1];
  }

  @Override
  public @Nullable Object merge(
      String key,
      Object value,
      BiFunction<? super Object, ? super Object, ? extends Object> remappingFunction) {
    Objects.requireNonNull(remappingFunction);
    Objects.requireNonNull(value, "value");
    return mutate(
        key,
        old ->
            old == null
                ? normalize(key, value)
                : normalize(key, remappingFunction.apply(old, value)))[1];
  }

  @Override
  public void replaceAll(BiFunction<? super String, ? super Object, ? extends Object> function) {
    Objects.requireNonNull(function);
    for (String key : state.keySet()) {
      computeIfPresent(key, function);
    }
  }

  @Override
  public void clear() {
    for (String key : state.keySet()) {
      remove(key);
    }
  }

  /**
   * Applies {@code change} to {@code key} atomically and records the result in the delta. {@code
   * change} returns the new value, {@code null} to remove the key, or {@link #UNCHANGED}.
   *
   * @return {previous value, new value, Boolean.TRUE if something changed}
   */
  private Object[] mutate(String key, UnaryOperator<@Nullable Object> change) {
    Scope.checkKey(key);
    Object[] result = new Object[3];
    state.compute(
        key,
        (k, old) -> {
          result[0] = old;
          Object next = change.apply(old);
          if (next == UNCHANGED) {
            result[1] = old;
            return old;
          }
          result[2] = Boolean.TRUE;
          result[1] = next;
          delta.put(k, next == null ? REMOVED : next);
          return next;
        });
    return result;
  }

  private static @Nullable Object normalize(String key, @Nullable Object value) {
    Scope.checkKey(key);
    if (value == REMOVED) {
      return null;
    }
    return Json.normalize(key, value);
  }

  // ---- views: removals through them are recorded ----

  @Override
  public Set<String> keySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<String> iterator() {
        Iterator<String> it = state.keySet().iterator();
        return new Iterator<>() {
          private @Nullable String last;

          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public String next() {
            last = it.next();
            return last;
          }

          @Override
          public void remove() {
            if (last == null) {
              throw new IllegalStateException();
            }
            State.this.remove(last);
            last = null;
          }
        };
      }

      @Override
      public int size() {
        return state.size();
      }

      @Override
      public boolean contains(Object o) {
        return containsKey(o);
      }

      @Override
      public boolean remove(Object o) {
        return State.this.remove(o) != null;
      }

      @Override
      public void clear() {
        State.this.clear();
      }
    };
  }

  @Override
  public Collection<Object> values() {
    return new AbstractCollection<>() {
      @Override
      public Iterator<Object> iterator() {
        Iterator<Entry<String, Object>> it = entrySet().iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public Object next() {
            return it.next().getValue();
          }

          @Override
          public void remove() {
            it.remove();
          }
        };
      }

      @Override
      public int size() {
        return state.size();
      }

      @Override
      public void clear() {
        State.this.clear();
      }
    };
  }

  @Override
  public Set<Entry<String, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Entry<String, Object>> iterator() {
        Iterator<Entry<String, Object>> it = state.entrySet().iterator();
        return new Iterator<>() {
          private @Nullable String last;

          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public Entry<String, Object> next() {
            Entry<String, Object> e = it.next();
            last = e.getKey();
            return new TrackedEntry(e.getKey(), e.getValue());
          }

          @Override
          public void remove() {
            if (last == null) {
              throw new IllegalStateException();
            }
            State.this.remove(last);
            last = null;
          }
        };
      }

      @Override
      public int size() {
        return state.size();
      }

      @Override
      public boolean contains(Object o) {
        if (!(o instanceof Entry)) {
          return false;
        }
        Entry<?, ?> e = (Entry<?, ?>) o;
        Object v = get(e.getKey());
        return v != null && v.equals(e.getValue());
      }

      @Override
      public boolean remove(Object o) {
        if (!(o instanceof Entry)) {
          return false;
        }
        Entry<?, ?> e = (Entry<?, ?>) o;
        return State.this.remove(e.getKey(), e.getValue());
      }

      @Override
      public void clear() {
        State.this.clear();
      }
    };
  }

  /** An entry whose {@code setValue} writes through the state, and so into the delta. */
  private final class TrackedEntry extends AbstractMap.SimpleEntry<String, Object> {
    private static final long serialVersionUID = 1L;

    TrackedEntry(String key, Object value) {
      super(key, value);
    }

    @Override
    public Object setValue(Object value) {
      Object normalized = normalize(getKey(), value);
      State.this.put(getKey(), normalized);
      return super.setValue(normalized);
    }
  }

  // ---- Object ----

  @Override
  public boolean equals(Object o) {
    return o == this || (o instanceof Map && state.equals(o));
  }

  @Override
  public int hashCode() {
    return state.hashCode();
  }

  @Override
  public String toString() {
    return state.toString();
  }
}
