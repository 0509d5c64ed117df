package dev.adk4j.state;

import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;

/**
 * {@link State#keySet()}: the live keys, whose removals (through the set or its iterator) go
 * through the state and so into its delta.
 */
final class StateKeySet extends AbstractSet<String> {
  private final State owner;
  private final Map<String, Object> live;

  StateKeySet(State owner, Map<String, Object> live) {
    this.owner = owner;
    this.live = live;
  }

  @Override
  public Iterator<String> iterator() {
    return new RemovingIterator<>(owner, live, Map.Entry::getKey);
  }

  @Override
  public int size() {
    return live.size();
  }

  @Override
  public boolean contains(Object o) {
    return owner.containsKey(o);
  }

  @Override
  public boolean remove(Object o) {
    return owner.remove(o) != null;
  }

  @Override
  public void clear() {
    owner.clear();
  }
}
