package dev.adk4j.state;

import java.util.AbstractCollection;
import java.util.Iterator;
import java.util.Map;

/**
 * {@link State#values()}: the live values, read through the entry set, so that removals through the
 * iterator go through the state and into its delta.
 */
final class StateValues extends AbstractCollection<Object> {
  private final State owner;

  StateValues(State owner) {
    this.owner = owner;
  }

  @Override
  public Iterator<Object> iterator() {
    Iterator<Map.Entry<String, Object>> it = owner.entrySet().iterator();
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
    return owner.size();
  }

  @Override
  public void clear() {
    owner.clear();
  }
}
