package dev.adk4j.sessions;

import dev.adk4j.internal.Json;
import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The state map of a session copy read from the in-memory store: a view of a shared, frozen {@link
 * StateSnapshot} until the copy needs a map of its own, then that map. Reading a session thus costs
 * nothing per key; the copy pays for its own map only if it is written (an invocation's state
 * writes, {@code appendEvent} through it) or hands out a value that could be changed.
 *
 * <p><b>When the copy is taken.</b> The first mutating call (every {@link ConcurrentMap} mutator,
 * and every mutation through a view, its iterators or an entry) copies the snapshot into a {@link
 * ConcurrentHashMap}, each value a mutable deep copy ({@link Json#copy}), exactly what a copy
 * loaded eagerly would hold; from then on every operation is that map's. A call that would hand out
 * a map or list value (a {@code get} of one, {@code forEach}, or iterating {@code values()} or
 * {@code entrySet()} of a snapshot that holds one) takes the copy first too, so callers get the
 * copy's own mutable values, which stay the same objects for later reads, as with an eager copy.
 * Strings, numbers and booleans are immutable and handed out from the snapshot as they are.
 * Removing an absent key, or clearing an empty map, changes nothing and takes no copy.
 *
 * <p><b>Concurrency.</b> Safe for any number of readers and writers: the copy is made once, under
 * this map's monitor, and published through a volatile field before any write reaches it, so no
 * write is lost and a reader sees either the snapshot (before the first write) or the map that
 * holds every write. Iterators are weakly consistent, as {@link ConcurrentHashMap}'s: one begun on
 * the snapshot goes on over the snapshot; its removals and {@code setValue}s go to the map. Null
 * keys and values are refused with a {@link NullPointerException}, as there.
 *
 * <p>Isolation: nothing written here reaches the snapshot (it is immutable), the store, or another
 * copy sharing it.
 */
final class CopyOnWriteStateMap extends AbstractMap<String, Object>
    implements ConcurrentMap<String, Object> {

  private final StateSnapshot snapshot;

  /** The snapshot's entries. */
  private final Map<String, Object> shared;

  private volatile @Nullable ConcurrentHashMap<String, Object> own;
  private @Nullable Set<String> keySet;
  private @Nullable Collection<Object> values;
  private @Nullable Set<Entry<String, Object>> entrySet;

  CopyOnWriteStateMap(StateSnapshot snapshot) {
    this.snapshot = snapshot;
    this.shared = snapshot.entries;
  }

  /**
   * A copy of this map's entries for another session copy: the same snapshot while this map has
   * none of its own (nothing to copy), otherwise a snapshot of this map frozen now.
   */
  CopyOnWriteStateMap copy() {
    ConcurrentHashMap<String, Object> o = own;
    return new CopyOnWriteStateMap(o == null ? snapshot : StateSnapshot.freeze(o));
  }

  /** Whether {@code state} may hold a {@code secret:} key (false: it certainly holds none). */
  static boolean mayHoldSecrets(Map<String, Object> state) {
    if (state instanceof CopyOnWriteStateMap) {
      CopyOnWriteStateMap cow = (CopyOnWriteStateMap) state;
      return cow.own != null || cow.snapshot.secrets;
    }
    return true;
  }

  /** This copy's own map, made from the snapshot by the first call. */
  private ConcurrentHashMap<String, Object> own() {
    ConcurrentHashMap<String, Object> o = own;
    if (o != null) {
      return o;
    }
    synchronized (this) {
      o = own;
      if (o == null) {
        ConcurrentHashMap<String, Object> made =
            new ConcurrentHashMap<>(Math.max(4, shared.size()));
        shared.forEach((k, v) -> made.put(k, Objects.requireNonNull(Json.copy(v), k)));
        own = made; // published complete
        o = made;
      }
      return o;
    }
  }

  /** Whether reading every value (forEach, values, entries) would hand out a map or list. */
  private boolean valuesNeedOwnMap() {
    return own != null || snapshot.containers;
  }

  /** The current entries, without taking a copy: for reads that hand out no value. */
  private Map<String, Object> current() {
    ConcurrentHashMap<String, Object> o = own;
    return o != null ? o : shared;
  }

  // ---- reads ----

  @Override
  public int size() {
    return current().size();
  }

  @Override
  public boolean isEmpty() {
    return current().isEmpty();
  }

  @Override
  public boolean containsKey(Object key) {
    return current().containsKey(Objects.requireNonNull(key, "key"));
  }

  @Override
  public boolean containsValue(Object value) {
    return current().containsValue(Objects.requireNonNull(value, "value"));
  }

  @Override
  public @Nullable Object get(Object key) {
    Objects.requireNonNull(key, "key");
    ConcurrentHashMap<String, Object> o = own;
    if (o != null) {
      return o.get(key);
    }
    Object v = shared.get(key);
    return StateSnapshot.isContainer(v) ? own().get(key) : v;
  }

  @Override
  public @Nullable Object getOrDefault(Object key, @Nullable Object defaultValue) {
    Object v = get(key);
    return v == null ? defaultValue : v;
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super Object> action) {
    Objects.requireNonNull(action, "action");
    if (valuesNeedOwnMap()) {
      own().forEach(action);
    } else {
      shared.forEach(action);
    }
  }

  // ---- writes: each on this copy's own map ----

  @Override
  public @Nullable Object put(String key, Object value) {
    return own().put(key, value);
  }

  @Override
  public void putAll(Map<? extends String, ?> m) {
    own().putAll(m);
  }

  @Override
  public @Nullable Object remove(Object key) {
    Objects.requireNonNull(key, "key");
    if (own == null && !shared.containsKey(key)) {
      return null; // nothing to remove (as of now): no copy needed
    }
    return own().remove(key);
  }

  @Override
  public void clear() {
    if (own == null && shared.isEmpty()) {
      return;
    }
    own().clear();
  }

  @Override
  public @Nullable Object putIfAbsent(String key, Object value) {
    return own().putIfAbsent(key, value);
  }

  @Override
  public boolean remove(Object key, Object value) {
    return own().remove(key, value);
  }

  @Override
  public boolean replace(String key, Object oldValue, Object newValue) {
    return own().replace(key, oldValue, newValue);
  }

  @Override
  public @Nullable Object replace(String key, Object value) {
    return own().replace(key, value);
  }

  @Override
  public void replaceAll(BiFunction<? super String, ? super Object, ?> function) {
    own().replaceAll(function);
  }

  @Override
  public @Nullable Object computeIfAbsent(
      String key, Function<? super String, ? extends @Nullable Object> mappingFunction) {
    return own().computeIfAbsent(key, mappingFunction);
  }

  @Override
  public @Nullable Object computeIfPresent(
      String key,
      BiFunction<? super String, ? super Object, ? extends @Nullable Object> remappingFunction) {
    return own().computeIfPresent(key, remappingFunction);
  }

  @Override
  public @Nullable Object compute(
      String key,
      BiFunction<? super String, ? super @Nullable Object, ? extends @Nullable Object>
          remappingFunction) {
    return own().compute(key, remappingFunction);
  }

  @Override
  public @Nullable Object merge(
      String key,
      Object value,
      BiFunction<? super Object, ? super Object, ? extends @Nullable Object> remappingFunction) {
    return own().merge(key, value, remappingFunction);
  }

  // ---- views: live, over whichever map is current when they are used ----

  @Override
  public Set<String> keySet() {
    Set<String> ks = keySet;
    if (ks == null) {
      ks = new KeySet();
      keySet = ks; // a race makes an equivalent view twice
    }
    return ks;
  }

  @Override
  public Collection<Object> values() {
    Collection<Object> vs = values;
    if (vs == null) {
      vs = new Values();
      values = vs;
    }
    return vs;
  }

  @Override
  public Set<Entry<String, Object>> entrySet() {
    Set<Entry<String, Object>> es = entrySet;
    if (es == null) {
      es = new EntrySet();
      entrySet = es;
    }
    return es;
  }

  // ---- Object: a map's, computed without taking a copy ----

  @Override
  public boolean equals(@Nullable Object o) {
    if (o == this) {
      return true;
    }
    if (o instanceof CopyOnWriteStateMap) {
      return current().equals(((CopyOnWriteStateMap) o).current());
    }
    return o instanceof Map && current().equals(o);
  }

  @Override
  public int hashCode() {
    return current().hashCode();
  }

  @Override
  public String toString() {
    return current().toString();
  }

  /** Iterates the snapshot; a removal goes through the map (which then takes its copy). */
  private abstract class SnapshotIterator<T> implements Iterator<T> {
    private final Iterator<Entry<String, Object>> it = shared.entrySet().iterator();
    private @Nullable String last;

    abstract T of(Entry<String, Object> e);

    @Override
    public boolean hasNext() {
      return it.hasNext();
    }

    @Override
    public T next() {
      Entry<String, Object> e = it.next();
      last = e.getKey();
      return of(e);
    }

    @Override
    public void remove() {
      String key = last;
      if (key == null) {
        throw new IllegalStateException("next() was not called, or remove() already was");
      }
      CopyOnWriteStateMap.this.remove(key);
      last = null;
    }
  }

  private final class KeySet extends AbstractSet<String> {
    @Override
    public Iterator<String> iterator() {
      ConcurrentHashMap<String, Object> o = own;
      if (o != null) {
        return o.keySet().iterator();
      }
      return new SnapshotIterator<>() {
        @Override
        String of(Entry<String, Object> e) {
          return e.getKey();
        }
      };
    }

    @Override
    public int size() {
      return CopyOnWriteStateMap.this.size();
    }

    @Override
    public boolean isEmpty() {
      return CopyOnWriteStateMap.this.isEmpty();
    }

    @Override
    public boolean contains(Object o) {
      return containsKey(o);
    }

    @Override
    public boolean remove(Object o) {
      return CopyOnWriteStateMap.this.remove(o) != null;
    }

    @Override
    public void clear() {
      CopyOnWriteStateMap.this.clear();
    }
  }

  private final class Values extends AbstractCollection<Object> {
    @Override
    public Iterator<Object> iterator() {
      if (valuesNeedOwnMap()) {
        return own().values().iterator();
      }
      return new SnapshotIterator<>() {
        @Override
        Object of(Entry<String, Object> e) {
          return e.getValue(); // immutable: the snapshot holds no map or list
        }
      };
    }

    @Override
    public int size() {
      return CopyOnWriteStateMap.this.size();
    }

    @Override
    public boolean isEmpty() {
      return CopyOnWriteStateMap.this.isEmpty();
    }

    @Override
    public boolean contains(Object o) {
      return containsValue(o);
    }

    @Override
    public void clear() {
      CopyOnWriteStateMap.this.clear();
    }
  }

  private final class EntrySet extends AbstractSet<Entry<String, Object>> {
    @Override
    public Iterator<Entry<String, Object>> iterator() {
      if (valuesNeedOwnMap()) {
        return own().entrySet().iterator(); // its entries write through to the own map
      }
      return new SnapshotIterator<>() {
        @Override
        Entry<String, Object> of(Entry<String, Object> e) {
          return new WriteThroughEntry(e.getKey(), e.getValue());
        }
      };
    }

    @Override
    public int size() {
      return CopyOnWriteStateMap.this.size();
    }

    @Override
    public boolean isEmpty() {
      return CopyOnWriteStateMap.this.isEmpty();
    }

    @Override
    public boolean contains(Object o) {
      if (!(o instanceof Entry)) {
        return false;
      }
      Entry<?, ?> e = (Entry<?, ?>) o;
      Object key = e.getKey();
      Object value = key == null ? null : current().get(key);
      return value != null && value.equals(e.getValue());
    }

    @Override
    public boolean remove(Object o) {
      if (!(o instanceof Entry)) {
        return false;
      }
      Entry<?, ?> e = (Entry<?, ?>) o;
      Object key = e.getKey();
      Object value = e.getValue();
      return key != null && value != null && CopyOnWriteStateMap.this.remove(key, value);
    }

    @Override
    public void clear() {
      CopyOnWriteStateMap.this.clear();
    }
  }

  /**
   * An entry read from the snapshot whose {@code setValue} writes through to the map, as a {@link
   * ConcurrentHashMap}'s entries do.
   */
  private final class WriteThroughEntry extends SimpleEntry<String, Object> {
    private static final long serialVersionUID = 1L;

    WriteThroughEntry(String key, Object value) {
      super(key, value);
    }

    @Override
    public Object setValue(Object value) {
      Objects.requireNonNull(value, "value");
      Object previous = super.setValue(value);
      put(getKey(), value);
      return previous;
    }
  }
}
