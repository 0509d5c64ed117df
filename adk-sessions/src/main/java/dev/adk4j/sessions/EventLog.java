package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.RandomAccess;
import org.jspecify.annotations.Nullable;

/**
 * An append-only list of events whose snapshots cost nothing to take and share their storage.
 *
 * <p>Events are kept in chunks of {@value #CHUNK}. A chunk is only ever written at indexes past
 * every snapshot taken of it, so a snapshot (the chunks and a size) stays valid however the log
 * grows afterwards. A log made from a snapshot ({@link #of}) shares the snapshot's chunks and
 * copies only its last, partial chunk (and the table of chunks) on its first append, so that it
 * never writes where the log it came from may write. Reading the events of a 10,000-event session
 * is then O(1), and appending is O(1) whatever the length.
 *
 * <p>Appends must be serialized by the caller: the in-memory store's write lock, the monitor of the
 * session copy. Readers need no lock: an append writes its event before it publishes the new size
 * through a volatile field.
 */
final class EventLog {

  private static final int SHIFT = 6;
  static final int CHUNK = 1 << SHIFT;
  private static final int MASK = CHUNK - 1;

  /**
   * Chunks, a start and a size: an immutable view of the {@code size} events from index {@code
   * start} of the chunks (the first {@code size} events of a log, or a window of them).
   */
  private static final class Snapshot extends AbstractList<Event> implements RandomAccess {
    private static final Snapshot EMPTY = new Snapshot(new Event[0][], 0, 0);

    final Event[][] chunks;
    final int start;
    final int size;

    Snapshot(Event[][] chunks, int start, int size) {
      this.chunks = chunks;
      this.start = start;
      this.size = size;
    }

    /** The index in the chunks of the event after the last one of this view. */
    int end() {
      return start + size;
    }

    @Override
    public Event get(int index) {
      if (index < 0 || index >= size) {
        throw new IndexOutOfBoundsException("Index " + index + " out of bounds for " + size);
      }
      int at = start + index;
      return chunks[at >>> SHIFT][at & MASK];
    }

    @Override
    public int size() {
      return size;
    }

    /** A snapshot of the window, sharing the chunks: O(1). */
    @Override
    public List<Event> subList(int fromIndex, int toIndex) {
      if (fromIndex < 0 || toIndex > size || fromIndex > toIndex) {
        throw new IndexOutOfBoundsException(
            "subList(" + fromIndex + ", " + toIndex + ") of " + size);
      }
      return new Snapshot(chunks, start + fromIndex, toIndex - fromIndex);
    }

    @Override
    public Iterator<Event> iterator() {
      return new Iterator<>() {
        private int next;

        @Override
        public boolean hasNext() {
          return next < size;
        }

        @Override
        public Event next() {
          if (next >= size) {
            throw new NoSuchElementException();
          }
          int at = start + next;
          next++;
          return chunks[at >>> SHIFT][at & MASK];
        }
      };
    }
  }

  /** Where this log's events start in its chunks (a log made from a window of another). */
  private final int start;

  /**
   * The chunks; replaced when a table or chunk is copied. Written before {@link #size}, so a reader
   * that reads {@code size} first finds at least that many events in whatever chunks it reads.
   */
  private volatile Event[][] chunks;

  /** The number of events; written last by an append, which publishes it. */
  private volatile int size;

  /**
   * The last snapshot handed out, reused by reads until an append (immutable with final fields, so
   * it may be shared without a lock). Appends make no snapshot: a read makes one when it needs it.
   */
  private @Nullable Snapshot last;

  /** Whether the last chunk and the chunk table may be written in place. */
  private boolean ownsTail;

  private EventLog(Snapshot from, boolean ownsTail) {
    this.start = from.start;
    this.chunks = from.chunks;
    this.size = from.size;
    this.last = from;
    this.ownsTail = ownsTail;
  }

  /** An empty log. */
  static EventLog empty() {
    return new EventLog(Snapshot.EMPTY, false);
  }

  /**
   * A log that starts with {@code events}: a snapshot of another log is shared, any other list is
   * copied.
   */
  static EventLog of(List<Event> events) {
    if (events instanceof Snapshot) {
      return new EventLog((Snapshot) events, false);
    }
    EventLog log = empty();
    for (Event e : events) {
      log.add(java.util.Objects.requireNonNull(e, "event"));
    }
    return log;
  }

  /** An immutable view of the events appended so far; O(1). */
  List<Event> snapshot() {
    int n = size; // before the chunks: see there
    Event[][] c = chunks;
    Snapshot s = last;
    if (s == null || s.size != n || s.chunks != c) {
      s = new Snapshot(c, start, n);
      last = s;
    }
    return s;
  }

  int size() {
    return size;
  }

  /** Appends {@code event}; never called concurrently (see the class). */
  void add(Event event) {
    int n = size;
    int end = start + n;
    int chunk = end >>> SHIFT;
    int offset = end & MASK;
    Event[][] c = chunks;
    if (!ownsTail) {
      // The chunks may be shared with the log this one came from, which may write past our end:
      // write into copies of the table and of the partial last chunk.
      c = Arrays.copyOf(c, Math.max(c.length, chunk + 1));
      if (offset > 0) {
        c[chunk] = Arrays.copyOf(c[chunk], CHUNK);
      }
      ownsTail = true;
    }
    if (chunk >= c.length) {
      c = Arrays.copyOf(c, Math.max(4, c.length * 2));
    }
    if (offset == 0) {
      c[chunk] = new Event[CHUNK];
    }
    c[chunk][offset] = event;
    if (c != chunks) {
      chunks = c;
    }
    size = n + 1;
  }
}
