package dev.adk4j.sessions;

import dev.adk4j.internal.Json;
import dev.adk4j.state.Scope;
import dev.adk4j.state.State;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * A session's merged state (app ∪ user ∪ session keys) frozen at one moment, in three immutable
 * layers: {@code app:} keys, {@code user:} keys, and every other key. A key's prefix says which
 * layer holds it, so the layers never share a key and a lookup reads one of them.
 *
 * <p>Immutable, its values frozen ({@link Json#freeze}): any number of session copies share one
 * (see {@link CopyOnWriteStateMap}), and a store shares a layer between every snapshot whose scope
 * it is (one app layer for all the app's sessions) until that scope's state changes. Every mutator
 * throws {@link UnsupportedOperationException}.
 */
final class StateSnapshot extends AbstractMap<String, Object> {

  /** One scope's entries: an immutable map whose values are frozen. */
  static final class Layer {
    static final Layer EMPTY = new Layer(Map.of());

    final Map<String, Object> entries;

    /** Whether a value is a map or a list (the values {@link Json#copy} copies). */
    final boolean containers;

    /** Whether a key is a {@code secret:} key. */
    final boolean secrets;

    private Layer(Map<String, Object> entries) {
      this.entries = entries;
      boolean anyContainer = false;
      boolean anySecret = false;
      for (Map.Entry<String, Object> e : entries.entrySet()) {
        anyContainer |= isContainer(e.getValue());
        anySecret |= e.getKey().startsWith(State.SECRET_PREFIX);
      }
      this.containers = anyContainer;
      this.secrets = anySecret;
    }

    /**
     * A layer of {@code frozen}'s entries, which are taken as they are: the caller guarantees the
     * values are frozen (a store's stored values are).
     */
    static Layer of(Map<String, Object> frozen) {
      return frozen.isEmpty() ? EMPTY : new Layer(Map.copyOf(frozen));
    }
  }

  static final StateSnapshot EMPTY = new StateSnapshot(Layer.EMPTY, Layer.EMPTY, Layer.EMPTY);

  final Layer app;
  final Layer user;
  final Layer session;
  private final int size;
  private @Nullable Set<Entry<String, Object>> entrySet;

  StateSnapshot(Layer app, Layer user, Layer session) {
    this.app = app;
    this.user = user;
    this.session = session;
    this.size = app.entries.size() + user.entries.size() + session.entries.size();
  }

  /** A snapshot of {@code state} (any keys, values not null), its values frozen here. */
  static StateSnapshot freeze(Map<String, Object> state) {
    if (state.isEmpty()) {
      return EMPTY;
    }
    Map<String, Object> app = new HashMap<>();
    Map<String, Object> user = new HashMap<>();
    Map<String, Object> session = new HashMap<>();
    state.forEach(
        (k, v) -> {
          Scope scope = Scope.of(k);
          Map<String, Object> layer =
              scope == Scope.APP ? app : scope == Scope.USER ? user : session;
          layer.put(k, Objects.requireNonNull(Json.freeze(v), k));
        });
    return new StateSnapshot(Layer.of(app), Layer.of(user), Layer.of(session));
  }

  /** Whether {@code value} is a map or a list: mutable once copied out. */
  static boolean isContainer(@Nullable Object value) {
    return value instanceof Map || value instanceof List;
  }

  /** Whether a value is a map or a list. */
  boolean hasContainers() {
    return app.containers || user.containers || session.containers;
  }

  /** Whether a key is a {@code secret:} key (only the session layer can hold one). */
  boolean hasSecrets() {
    return session.secrets;
  }

  private Map<String, Object> layerOf(String key) {
    if (key.startsWith(State.APP_PREFIX)) {
      return app.entries;
    }
    return key.startsWith(State.USER_PREFIX) ? user.entries : session.entries;
  }

  @Override
  public @Nullable Object get(@Nullable Object key) {
    return key instanceof String ? layerOf((String) key).get(key) : null;
  }

  @Override
  public boolean containsKey(@Nullable Object key) {
    return key instanceof String && layerOf((String) key).containsKey(key);
  }

  @Override
  public boolean containsValue(@Nullable Object value) {
    return value != null
        && (app.entries.containsValue(value)
            || user.entries.containsValue(value)
            || session.entries.containsValue(value));
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean isEmpty() {
    return size == 0;
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super Object> action) {
    Objects.requireNonNull(action, "action");
    // Loops of this class rather than Map.forEach, a default method whose call sites every map
    // without its own forEach shares: it stays free of this class's types.
    forEachIn(app.entries, action);
    forEachIn(user.entries, action);
    forEachIn(session.entries, action);
  }

  private static void forEachIn(
      Map<String, Object> entries, BiConsumer<? super String, ? super Object> action) {
    for (Entry<String, Object> e : entries.entrySet()) {
      action.accept(e.getKey(), e.getValue());
    }
  }

  /** The entries of the three layers in turn; immutable, as the entries are. */
  @Override
  public Set<Entry<String, Object>> entrySet() {
    Set<Entry<String, Object>> es = entrySet;
    if (es == null) {
      es =
          new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Object>> iterator() {
              return new Entries();
            }

            @Override
            public int size() {
              return size;
            }
          };
      entrySet = es; // a race makes an equal view twice
    }
    return es;
  }

  /** Iterates the layers' entries one layer after the other. */
  private final class Entries implements Iterator<Entry<String, Object>> {
    private int layer;
    private Iterator<Entry<String, Object>> current = app.entries.entrySet().iterator();

    @Override
    public boolean hasNext() {
      while (!current.hasNext()) {
        if (layer == 2) {
          return false;
        }
        layer++;
        current = (layer == 1 ? user : session).entries.entrySet().iterator();
      }
      return true;
    }

    @Override
    public Entry<String, Object> next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return current.next(); // an immutable entry of Map.copyOf
    }
  }
}
