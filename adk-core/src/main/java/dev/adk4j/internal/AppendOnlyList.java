package dev.adk4j.internal;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An immutable list that can be extended without copying what it holds: {@link #plus} returns a
 * longer list sharing this one's elements. What a model request's history is built from, so that
 * the request of a long conversation costs what its new messages cost, not the whole conversation.
 *
 * <p>Versions of one history share an array: the first version extended writes its new elements in
 * the free slots after its own (amortized O(1) per element); a version extended when a longer one
 * exists already (a branch) gets an array of its own, copied once. The first {@code size()}
 * elements of a version never change, so a version is safe to share between threads once published
 * (through a concurrent map, a volatile field or a lock). Null elements are refused.
 */
public final class AppendOnlyList<E> extends AbstractList<E> implements RandomAccess {

  /** An array and how many of its slots some version uses (guarded by the block's monitor). */
  private static final class Block {
    final Object[] items;
    int used;

    Block(int capacity) {
      this.items = new Object[capacity];
    }
  }

  private static final AppendOnlyList<?> EMPTY = new AppendOnlyList<>(new Block(0), 0);

  private final Block block;
  private final int size;

  private AppendOnlyList(Block block, int size) {
    this.block = block;
    this.size = size;
  }

  /** The empty list. */
  @SuppressWarnings("unchecked")
  public static <E> AppendOnlyList<E> of() {
    return (AppendOnlyList<E>) EMPTY;
  }

  /** This list followed by {@code more}; this list itself when {@code more} is empty. */
  public AppendOnlyList<E> plus(List<? extends E> more) {
    int k = more.size();
    if (k == 0) {
      return this;
    }
    int total = size + k;
    Block b = block;
    synchronized (b) {
      if (b.used == size && total <= b.items.length) {
        copyInto(more, b.items, size);
        b.used = total;
        return new AppendOnlyList<>(b, total);
      }
    }
    Block grown = new Block(Math.max(total, Math.max(8, size * 2)));
    System.arraycopy(b.items, 0, grown.items, 0, size); // slots below size never change
    copyInto(more, grown.items, size);
    grown.used = total;
    return new AppendOnlyList<>(grown, total);
  }

  /** This list followed by {@code element}. */
  public AppendOnlyList<E> plus(E element) {
    return plus(List.of(element));
  }

  private static void copyInto(List<?> from, Object[] into, int at) {
    for (int i = 0; i < from.size(); i++) {
      into[at + i] = Objects.requireNonNull(from.get(i), "element");
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  public E get(int index) {
    Objects.checkIndex(index, size);
    return (E) block.items[index];
  }

  @Override
  public int size() {
    return size;
  }
}
