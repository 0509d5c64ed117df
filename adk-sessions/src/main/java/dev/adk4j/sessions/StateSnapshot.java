package dev.adk4j.sessions;

import dev.adk4j.internal.Json;
import dev.adk4j.state.State;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A session's merged state (app ∪ user ∪ session keys) frozen at one moment: {@link #entries}, an
 * immutable map ({@link Map#copyOf}) whose values are frozen ({@link Json#freeze}), shared by any
 * number of session copies (see {@link Session#stateMap()}). It remembers the three scope layers it
 * was merged from, so that a store can tell whether it is still current: a store keeps one {@link
 * Layer} per scope (one app layer for all the app's sessions) until that scope's state changes.
 */
final class StateSnapshot {

  /** One scope's entries: an immutable map whose values are frozen. */
  static final class Layer {
    static final Layer EMPTY = new Layer(Map.of());

    final Map<String, Object> entries;

    private Layer(Map<String, Object> entries) {
      this.entries = entries;
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

  /** The merged entries: immutable, the values frozen. */
  final Map<String, Object> entries;

  /** Whether a value is a map or a list (the values {@link Json#copy} copies). */
  final boolean containers;

  /** Whether a key is a {@code secret:} key. */
  final boolean secrets;

  StateSnapshot(Layer app, Layer user, Layer session) {
    this.app = app;
    this.user = user;
    this.session = session;
    Map<String, Object> merged =
        new HashMap<>(app.entries.size() + user.entries.size() + session.entries.size());
    merged.putAll(app.entries);
    merged.putAll(user.entries);
    merged.putAll(session.entries);
    this.entries = Map.copyOf(merged);
    boolean anyContainer = false;
    boolean anySecret = false;
    for (Map.Entry<String, Object> e : entries.entrySet()) {
      anyContainer |= isContainer(e.getValue());
      anySecret |= e.getKey().startsWith(State.SECRET_PREFIX);
    }
    this.containers = anyContainer;
    this.secrets = anySecret;
  }

  /** Whether {@code value} is a map or a list: mutable once copied out. */
  static boolean isContainer(@Nullable Object value) {
    return value instanceof Map || value instanceof List;
  }
}
