package dev.adk4j.state;

import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * An iterator over the live entries of a {@link State}, handing out a view of each ({@code view}),
 * whose {@code remove} removes the last key through the state, so that the removal is recorded in
 * its delta. For {@link State}'s key and entry sets.
 */
final class RemovingIterator<T> implements Iterator<T> {
  private final State owner;
  private final Iterator<Map.Entry<String, Object>> entries;
  private final Function<Map.Entry<String, Object>, T> view;
  private @Nullable String last;

  RemovingIterator(
      State owner, Map<String, Object> live, Function<Map.Entry<String, Object>, T> view) {
    this.owner = owner;
    this.entries = live.entrySet().iterator();
    this.view = view;
  }

  @Override
  public boolean hasNext() {
    return entries.hasNext();
  }

  @Override
  public T next() {
    Map.Entry<String, Object> e = entries.next();
    last = e.getKey();
    return view.apply(e);
  }

  @Override
  public void remove() {
    String key = last;
    if (key == null) {
      throw new IllegalStateException("next() was not called, or remove() was already called");
    }
    last = null;
    owner.remove(key);
  }
}
