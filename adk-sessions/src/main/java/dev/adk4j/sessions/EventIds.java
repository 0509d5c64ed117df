package dev.adk4j.sessions;

/**
 * The event ids of one in-memory session, to refuse an id appended twice: a set of strings in one
 * open-addressed table (linear probing, at most half full), with each id's hash beside it.
 *
 * <p>Compared with a {@link java.util.HashSet}, an append allocates no node, and a probe compares
 * hashes held in the table, so that only an equal hash (in practice, the same id) reads a stored
 * string; growing moves references and hashes only. Ids leave only in bulk, when retention drops a
 * session's oldest events ({@link #retainOnly}). Not thread-safe: guarded by the store's lock.
 */
final class EventIds {

  private static final int INITIAL = 32;

  private String[] ids = new String[INITIAL];
  private int[] hashes = new int[INITIAL];
  private int size;

  /** Whether the set holds {@code id}, whose {@link #hash} is {@code h}. */
  boolean contains(String id, int h) {
    return slotOf(id, h) < 0;
  }

  /**
   * Adds {@code id}, whose {@link #hash} is {@code h}; false, and nothing changed, if the set
   * already holds it.
   */
  boolean add(String id, int h) {
    int slot = slotOf(id, h);
    if (slot < 0) {
      return false;
    }
    ids[slot] = id;
    hashes[slot] = h;
    if (++size * 2 > ids.length) {
      grow();
    }
    return true;
  }

  /** Replaces the set's ids with {@code kept} (retention keeps a session's latest events only). */
  void retainOnly(Iterable<String> kept) {
    ids = new String[INITIAL];
    hashes = new int[INITIAL];
    size = 0;
    for (String id : kept) {
      add(id, hash(id));
    }
  }

  /** The free slot where {@code id} would go, or -1 if the set holds it. */
  private int slotOf(String id, int h) {
    String[] t = ids;
    int[] hs = hashes;
    int mask = t.length - 1;
    int i = h & mask;
    for (String held; (held = t[i]) != null; i = (i + 1) & mask) {
      if (hs[i] == h && held.equals(id)) {
        return -1;
      }
    }
    return i;
  }

  private void grow() {
    String[] oldIds = ids;
    int[] oldHashes = hashes;
    String[] t = new String[oldIds.length * 2];
    int[] hs = new int[t.length];
    int mask = t.length - 1;
    for (int j = 0; j < oldIds.length; j++) {
      if (oldIds[j] != null) {
        int i = oldHashes[j] & mask;
        while (t[i] != null) {
          i = (i + 1) & mask;
        }
        t[i] = oldIds[j];
        hs[i] = oldHashes[j];
      }
    }
    ids = t;
    hashes = hs;
  }

  /** The hash of an id in this set: its string hash, high bits mixed in to spread them. */
  static int hash(String id) {
    int h = id.hashCode();
    return h ^ (h >>> 16);
  }
}
