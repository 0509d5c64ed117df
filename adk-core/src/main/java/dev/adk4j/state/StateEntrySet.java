package dev.adk4j.state;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Map.Entry;

/**
 * {@link State#entrySet()}: the live entries; removals (through the set or its iterator) and each
 * entry's {@code setValue} go through the state and so into its delta.
 */
final class StateEntrySet extends AbstractSet<Entry<String, Object>> {
  private final State owner;
  private final Map<String, Object> live;

  StateEntrySet(State owner, Map<String, Object> live) {
    this.owner = owner;
    this.live = live;
  }

  @Override
  public Iterator<Entry<String, Object>> iterator() {
    return new RemovingIterator<>(
        owner, live, e -> new TrackedEntry(owner, e.getKey(), e.getValue()));
  }

  @Override
  public int size() {
    return live.size();
  }

  @Override
  public boolean contains(Object o) {
    if (!(o instanceof Entry)) {
      return false;
    }
    Entry<?, ?> e = (Entry<?, ?>) o;
    Object v = owner.get(e.getKey());
    return v != null && v.equals(e.getValue());
  }

  @Override
  public boolean remove(Object o) {
    if (!(o instanceof Entry)) {
      return false;
    }
    Entry<?, ?> e = (Entry<?, ?>) o;
    return owner.remove(e.getKey(), e.getValue());
  }

  @Override
  public void clear() {
    owner.clear();
  }

  /** An entry whose {@code setValue} writes through the state, and so into the delta. */
  private static final class TrackedEntry extends AbstractMap.SimpleEntry<String, Object> {
    private static final long serialVersionUID = 1L;

    private final transient State owner;

    TrackedEntry(State owner, String key, Object value) {
      super(key, value);
      this.owner = owner;
    }

    @Override
    public Object setValue(Object value) {
      Object normalized = State.normalize(getKey(), value);
      owner.put(getKey(), normalized);
      return super.setValue(normalized);
    }
  }
}
