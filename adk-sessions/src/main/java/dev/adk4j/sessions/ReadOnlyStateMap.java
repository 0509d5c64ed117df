package dev.adk4j.sessions;

import java.util.AbstractMap;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The read-only face of a {@link Session}'s state: reads see the copy's current state, every
 * mutator (of the map and of its key, value and entry views) throws {@link
 * UnsupportedOperationException} saying how to change state instead. A {@link ConcurrentMap}, as
 * ADK's {@code Session.state()} is, so that code written against ADK keeps compiling.
 */
final class ReadOnlyStateMap extends AbstractMap<String, Object>
    implements ConcurrentMap<String, Object> {

  private final Session session;
  private final ConcurrentMap<String, Object> state;
  private final Map<String, Object> unmodifiable;

  ReadOnlyStateMap(Session session, ConcurrentMap<String, Object> state) {
    this.session = session;
    this.state = state;
    this.unmodifiable = Collections.unmodifiableMap(state);
  }

  private UnsupportedOperationException readOnly() {
    return new UnsupportedOperationException(
        "The state of session '"
            + session.id()
            + "' of user '"
            + session.userId()
            + "' in app '"
            + session.appName()
            + "' is a read-only copy: write state through a CallbackContext or ToolContext"
            + " during an invocation, or append an event whose EventActions.stateDelta holds the"
            + " change (BaseSessionService.appendEvent), which also updates this copy");
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
  public boolean containsKey(Object key) {
    return state.containsKey(key);
  }

  @Override
  public boolean containsValue(Object value) {
    return state.containsValue(value);
  }

  @Override
  public @Nullable Object get(Object key) {
    return state.get(key);
  }

  @Override
  public Object getOrDefault(Object key, Object defaultValue) {
    return state.getOrDefault(key, defaultValue);
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super Object> action) {
    state.forEach(action);
  }

  @Override
  public Set<String> keySet() {
    return unmodifiable.keySet();
  }

  @Override
  public Collection<Object> values() {
    return unmodifiable.values();
  }

  @Override
  public Set<Entry<String, Object>> entrySet() {
    return unmodifiable.entrySet();
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (o instanceof ReadOnlyStateMap) { // compared without taking a copy of either
      return state.equals(((ReadOnlyStateMap) o).state);
    }
    return o == this || state.equals(o);
  }

  @Override
  public int hashCode() {
    return state.hashCode();
  }

  @Override
  public String toString() {
    return state.toString();
  }

  @Override
  public Object put(String key, Object value) {
    throw readOnly();
  }

  @Override
  public void putAll(Map<? extends String, ?> m) {
    throw readOnly();
  }

  @Override
  public Object remove(Object key) {
    throw readOnly();
  }

  @Override
  public void clear() {
    throw readOnly();
  }

  @Override
  public @Nullable Object putIfAbsent(String key, Object value) {
    throw readOnly();
  }

  @Override
  public boolean remove(Object key, Object value) {
    throw readOnly();
  }

  @Override
  public boolean replace(String key, Object oldValue, Object newValue) {
    throw readOnly();
  }

  @Override
  public @Nullable Object replace(String key, Object value) {
    throw readOnly();
  }

  @Override
  public void replaceAll(BiFunction<? super String, ? super Object, ?> function) {
    throw readOnly();
  }

  @Override
  public Object computeIfAbsent(String key, Function<? super String, ?> mappingFunction) {
    throw readOnly();
  }

  @Override
  public Object computeIfPresent(
      String key, BiFunction<? super String, ? super Object, ?> remappingFunction) {
    throw readOnly();
  }

  @Override
  public Object compute(
      String key, BiFunction<? super String, ? super @Nullable Object, ?> remappingFunction) {
    throw readOnly();
  }

  @Override
  public Object merge(
      String key, Object value, BiFunction<? super Object, ? super Object, ?> remappingFunction) {
    throw readOnly();
  }
}
