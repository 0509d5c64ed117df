package dev.adk4j.state;

import dev.adk4j.internal.Json;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A session's live state during an invocation, which records every mutation in a delta.
 *
 * <p>A {@code State} wraps two maps: the live state (shared by every context of the invocation, so
 * that a write is visible at once to every later read) and the delta of the event being built.
 * Every mutation through any {@link Map} method or view ({@link #entrySet()}, {@link #keySet()},
 * {@link #values()} and their iterators) updates both. A removal is recorded in the delta
 * explicitly; {@link #delta()} shows it as a {@code null} value.
 *
 * <p>Keys are non-empty strings whose prefix decides the scope (see {@link Scope}). Values are
 * stored as their JSON round trip, frozen: each write checks its key and makes the value's
 * immutable JSON copy once ({@link Json#frozen}; maps and lists unmodifiable), and the live state,
 * the delta, the event built from it and the session services all share that one copy. A value read
 * back after a write is therefore unmodifiable: to change a map or list, put a changed copy. A
 * value that cannot be serialized is refused at the write with an {@link IllegalArgumentException}
 * naming the key, and nothing changes. {@code put(key, null)} removes the key.
 *
 * <p><b>Reads, conflicts and increments.</b> A {@code State} also remembers the value each key had
 * when it was first read through {@link #get}, {@link #getOrDefault}, {@link #containsKey} or a
 * read-modify-write method ({@link #compute}, {@link #merge}, {@link #putIfAbsent}, {@link
 * #replace}, ...), unless this state had already written it. A key that is read and then written is
 * a read-modify-write: {@link #expectations()} lists it with the value read, and the session
 * service refuses the event with a conflict if the stored value has changed since (another session
 * or instance wrote it). A key written without being read is a blind write: the last writer wins.
 * {@link #increment(String, long)} is the atomic alternative for counters: the store adds the
 * amount to whatever value it holds, inside its own transaction, so concurrent increments never
 * conflict and never lose each other.
 *
 * <p>{@link #discard()} undoes this state's writes in the live state (used when a tool fails).
 *
 * <p>Thread-safe: each mutation of a key is atomic together with its delta entry.
 *
 * <p>Final: a subclass could change the live state without recording it in the delta.
 */
public final class State extends java.util.AbstractMap<String, Object>
    implements ConcurrentMap<String, Object>, ReadonlyState {

  public static final String APP_PREFIX = "app:";
  public static final String USER_PREFIX = "user:";
  public static final String TEMP_PREFIX = "temp:";

  /**
   * The prefix of secret keys (adk4j): read like session keys for the whole session, but never in a
   * stored event, never stored in clear, and shown as {@link #REDACTED} by every {@code toString}.
   * See {@link Scope#SECRET}.
   */
  public static final String SECRET_PREFIX = "secret:";

  /** What {@code toString} methods (and the server's JSON) show instead of a secret's value. */
  public static final String REDACTED = "***";

  /**
   * The longest state key, in bytes of UTF-8: a longer key is refused at the write, naming it. The
   * same bound applies to the keys of maps inside a value. Every session service applies it the
   * same way, so that no key can make a stored state unreadable or exceed a database index's limit.
   */
  public static final int MAX_KEY_BYTES = 1024;

  /** How deeply maps and lists may nest in a value: deeper values are refused at the write. */
  public static final int MAX_DEPTH = 500;

  /**
   * Marks a removal in a hand-built delta map that cannot hold {@code null} (such as a {@link
   * ConcurrentHashMap}). {@code EventActions} turns it into {@code null}.
   */
  public static final Object REMOVED =
      new Object() {
        @Override
        public String toString() {
          return "REMOVED";
        }
      };

  /** Returned by a change function to leave the key as it is. */
  private static final Object UNCHANGED = new Object();

  /** Marks a key that was absent when read or first changed. */
  private static final Object ABSENT = new Object();

  private final ConcurrentMap<String, Object> state;

  // The tracking maps are made on first use (most states of a turn, such as a model step's
  // callback context or a request's tool contexts, never write, and many never read): until then
  // null, read as empty. Made with a compare-and-set, so that concurrent first writes share one.

  /** The delta: key to its new value, or {@link #REMOVED}; null until the first write. */
  private volatile @Nullable ConcurrentMap<String, Object> delta;

  /** Key to the value it had when this state first read it (or {@link #ABSENT}); lazy. */
  private volatile @Nullable ConcurrentMap<String, Object> reads;

  /** Key to the amount by which this state incremented it, for keys whose last write is one. */
  private volatile @Nullable ConcurrentMap<String, Long> increments;

  /** Key to the value it had before this state first changed it (or {@link #ABSENT}); lazy. */
  private volatile @Nullable ConcurrentMap<String, Object> originals;

  private static final java.lang.invoke.VarHandle DELTA_MAP;
  private static final java.lang.invoke.VarHandle READS_MAP;
  private static final java.lang.invoke.VarHandle INCREMENTS_MAP;
  private static final java.lang.invoke.VarHandle ORIGINALS_MAP;

  static {
    try {
      java.lang.invoke.MethodHandles.Lookup l = java.lang.invoke.MethodHandles.lookup();
      DELTA_MAP = l.findVarHandle(State.class, "delta", ConcurrentMap.class);
      READS_MAP = l.findVarHandle(State.class, "reads", ConcurrentMap.class);
      INCREMENTS_MAP = l.findVarHandle(State.class, "increments", ConcurrentMap.class);
      ORIGINALS_MAP = l.findVarHandle(State.class, "originals", ConcurrentMap.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The map {@code handle} holds, made (once, whoever wins the race) if there is none yet. */
  @SuppressWarnings("unchecked")
  private <V> ConcurrentMap<String, V> made(java.lang.invoke.VarHandle handle) {
    ConcurrentMap<String, V> m = (ConcurrentMap<String, V>) handle.getVolatile(this);
    if (m != null) {
      return m;
    }
    ConcurrentMap<String, V> fresh = new ConcurrentHashMap<>();
    ConcurrentMap<String, V> witness =
        (ConcurrentMap<String, V>) handle.compareAndExchange(this, null, fresh);
    return witness == null ? fresh : witness;
  }

  /** The delta map, made if there is none yet: for writes. */
  private ConcurrentMap<String, Object> writableDelta() {
    return made(DELTA_MAP);
  }

  /** A state over {@code state} with a fresh, empty delta. */
  public State(ConcurrentMap<String, Object> state) {
    this.state = Objects.requireNonNull(state, "state");
  }

  /**
   * A state over {@code state} recording into {@code delta}, where a removal is stored as {@link
   * #REMOVED}.
   */
  public State(ConcurrentMap<String, Object> state, @Nullable ConcurrentMap<String, Object> delta) {
    this.state = Objects.requireNonNull(state, "state");
    this.delta = delta;
  }

  /**
   * ADK's constructor for any map: a state over {@code state} with a fresh delta. See {@link
   * #State(Map, Map)}.
   */
  public State(Map<String, ? extends @Nullable Object> state) {
    this(state, null);
  }

  /**
   * ADK's constructor for any map. A {@link ConcurrentMap} is used as it is (as by {@link
   * #State(ConcurrentMap, ConcurrentMap)}); another map is copied, each value as its JSON round
   * trip, and a {@code null} value leaves its key out (ADK stores {@link #REMOVED} there), so later
   * writes do not reach it. A {@code null} {@code delta} is a fresh one; a plain map is copied into
   * one (a {@code null} value there records a removal).
   *
   * @throws IllegalArgumentException if a key is invalid or a value cannot be stored, naming the
   *     key
   */
  @SuppressWarnings("unchecked")
  public State(
      Map<String, ? extends @Nullable Object> state,
      @Nullable Map<String, ? extends @Nullable Object> delta) {
    this(
        copyOf(Objects.requireNonNull(state, "state")),
        delta == null || delta instanceof ConcurrentMap
            ? (ConcurrentMap<String, Object>) delta
            : deltaCopy(delta));
  }

  private static ConcurrentMap<String, Object> deltaCopy(
      Map<String, ? extends @Nullable Object> d) {
    ConcurrentMap<String, Object> copy = new ConcurrentHashMap<>();
    d.forEach((k, v) -> copy.put(k, v == null ? REMOVED : v));
    return copy;
  }

  @SuppressWarnings("unchecked")
  private static ConcurrentMap<String, Object> copyOf(Map<String, ? extends @Nullable Object> m) {
    if (m instanceof ConcurrentMap) {
      return (ConcurrentMap<String, Object>) m;
    }
    ConcurrentMap<String, Object> copy = new ConcurrentHashMap<>();
    m.forEach(
        (k, v) -> {
          if (v != null) {
            copy.put(k, Objects.requireNonNull(normalize(k, v), k));
          }
        });
    return copy;
  }

  /** Same as {@link #put}: stores {@code value} under {@code key}, or removes it when null. */
  public void set(String key, @Nullable Object value) {
    put(key, value);
  }

  /** An immutable snapshot of the live state. */
  @Override
  public Map<String, Object> all() {
    return Map.copyOf(state);
  }

  /** Whether any mutation has been recorded. */
  public boolean hasDelta() {
    ConcurrentMap<String, Object> d = delta;
    return d != null && !d.isEmpty();
  }

  /**
   * The read-modify-writes recorded: each key this state read (before writing it) and then wrote,
   * other than by {@link #increment}, with the value it read ({@code null} if it was absent).
   * {@code temp:} and {@code secret:} keys are left out: they are not stored with the session's
   * state, so they cannot conflict (a secret is last-writer-wins).
   */
  public Map<String, @Nullable Object> expectations() {
    Map<String, @Nullable Object> out = new java.util.LinkedHashMap<>();
    ConcurrentMap<String, Object> d = delta;
    ConcurrentMap<String, Object> r = reads;
    if (d == null || r == null) {
      return out; // nothing written, or nothing read
    }
    ConcurrentMap<String, Long> inc = increments;
    for (String key : d.keySet()) {
      Object read = r.get(key);
      if (read != null && (inc == null || !inc.containsKey(key)) && Scope.of(key).isStored()) {
        out.put(key, read == ABSENT ? null : read);
      }
    }
    return out;
  }

  /**
   * The increments recorded: each key whose last write here was {@link #increment}, with the total
   * amount. The delta holds the value the increment gave in the live state; the session service
   * applies the amount to the stored value instead and records the value that results.
   */
  public Map<String, Long> increments() {
    ConcurrentMap<String, Long> inc = increments;
    return inc == null || inc.isEmpty() ? Map.of() : Map.copyOf(inc);
  }

  /**
   * Adds {@code amount} to the integer under {@code key} (absent counts as 0) and returns the new
   * live value. Unlike {@code put(key, get(key) + amount)}, this is not a read-modify-write that
   * can conflict: the session service applies the amount to the value it holds when the event is
   * appended, inside its transaction, so concurrent increments from other sessions or instances all
   * count. The event's stored {@code stateDelta} records the value the store computed, which may be
   * larger than the live value returned here if others incremented the key meanwhile.
   *
   * <p>If this state already wrote the key with a plain write, the increment adds to that value and
   * the write stays a plain one; a plain write after an increment replaces it.
   *
   * @throws IllegalArgumentException naming the key if its value is not an integer, or the sum does
   *     not fit in a {@code long}; nothing changes
   */
  public long increment(String key, long amount) {
    Scope.checkKey(key);
    long[] result = new long[1];
    state.compute(
        key,
        (k, old) -> {
          long next;
          try {
            next = Math.addExact(integerValue(k, old), amount);
          } catch (ArithmeticException e) {
            throw new IllegalArgumentException(
                "Cannot increment state key '"
                    + k
                    + "' by "
                    + amount
                    + ": the sum overflows a long",
                e);
          }
          ConcurrentMap<String, Object> d = writableDelta();
          ConcurrentMap<String, Long> inc = made(INCREMENTS_MAP);
          this.<Object>made(ORIGINALS_MAP).putIfAbsent(k, old == null ? ABSENT : old);
          boolean plainWritePending = d.containsKey(k) && !inc.containsKey(k);
          if (!plainWritePending) {
            inc.merge(k, amount, Math::addExact);
          }
          Object value = Json.normalize(k, next);
          d.put(k, value);
          result[0] = next;
          return value;
        });
    return result[0];
  }

  /**
   * The stored value of {@code key} after adding {@code amount} to {@code current} (absent counts
   * as 0), normalized. Session services use it to apply an increment inside their transaction.
   *
   * @throws IllegalArgumentException naming the key if {@code current} is not an integer or the sum
   *     overflows a long
   */
  public static Object incremented(String key, @Nullable Object current, long amount) {
    try {
      return Objects.requireNonNull(
          Json.normalize(key, Math.addExact(integerValue(key, current), amount)),
          "a long normalizes to an Integer or a Long, never null");
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "Cannot increment state key '" + key + "' by " + amount + ": the sum overflows a long",
          e);
    }
  }

  /** The value of {@code old} as a long, for an increment of {@code key}. */
  static long integerValue(String key, @Nullable Object old) {
    if (old == null) {
      return 0;
    }
    if (old instanceof Integer
        || old instanceof Long
        || old instanceof Short
        || old instanceof Byte) {
      return ((Number) old).longValue();
    }
    if (old instanceof java.math.BigInteger && ((java.math.BigInteger) old).bitLength() < 64) {
      return ((java.math.BigInteger) old).longValue();
    }
    throw new IllegalArgumentException(
        "Cannot increment state key '"
            + key
            + "': its value is "
            + (old instanceof Number
                ? "the number " + old + ", not a long integer"
                : "a " + old.getClass().getSimpleName() + ", not an integer"));
  }

  /**
   * Undoes this state's writes: every key it changed gets back the value it had before, unless
   * something else changed the key since, and the recorded delta, reads and increments are cleared.
   * Used to drop the writes of a tool that failed.
   */
  public void discard() {
    ConcurrentMap<String, Object> d = delta;
    ConcurrentMap<String, Object> o = originals;
    if (d != null && o != null) {
      for (Map.Entry<String, Object> e : o.entrySet()) {
        String key = e.getKey();
        Object original = e.getValue() == ABSENT ? null : e.getValue();
        Object written = d.get(key);
        if (written == null) {
          continue;
        }
        state.compute(
            key,
            (k, current) -> {
              boolean ours = written == REMOVED ? current == null : written.equals(current);
              return ours ? original : current;
            });
      }
    }
    clear(d);
    clear(reads);
    clear(increments);
    clear(originals);
  }

  private static void clear(@Nullable Map<String, ?> map) {
    if (map != null) {
      map.clear();
    }
  }

  private void recordRead(Object key, @Nullable Object value) {
    ConcurrentMap<String, Object> d = delta;
    if (key instanceof String && (d == null || !d.containsKey(key))) {
      // A frozen value (every value written through a State) is kept as it is; a mutable one (as
      // read from a session copy) is copied, so that changing it later does not change the read.
      this.<Object>made(READS_MAP)
          .putIfAbsent(
              (String) key,
              value == null ? ABSENT : Json.isFrozen(value) ? value : Json.copy(value));
    }
  }

  /**
   * A snapshot of the recorded changes: each changed key with its new (frozen) value, or {@code
   * null} if it was removed. A new map, the caller's own ({@link
   * dev.adk4j.events.EventActions.Builder#state} takes it over without copying it).
   */
  public Map<String, @Nullable Object> delta() {
    Map<String, @Nullable Object> copy = new java.util.LinkedHashMap<>();
    ConcurrentMap<String, Object> d = delta;
    if (d != null) {
      d.forEach((k, v) -> copy.put(k, v == REMOVED ? null : v));
    }
    return copy;
  }

  // ---- reads ----

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
    if (key == null) {
      return false;
    }
    Object v = state.get(key);
    recordRead(key, v);
    return v != null;
  }

  @Override
  public boolean containsValue(Object value) {
    return value != null && state.containsValue(value);
  }

  @Override
  public @Nullable Object get(Object key) {
    if (key == null) {
      return null;
    }
    Object v = state.get(key);
    recordRead(key, v);
    return v;
  }

  @Override
  public @Nullable Object getOrDefault(Object key, @Nullable Object defaultValue) {
    Object v = get(key);
    return v == null ? defaultValue : v;
  }

  // ---- writes: every one goes through mutate(), which records the delta atomically ----

  @Override
  public @Nullable Object put(String key, @Nullable Object value) {
    Object normalized = normalize(key, value);
    return mutate(key, CHECKED, old -> normalized)[0];
  }

  @Override
  public void putAll(Map<? extends String, ?> m) {
    // Validate everything first so that a bad value leaves nothing half-written.
    Map<String, Object> normalized = new HashMap<>();
    for (Map.Entry<? extends String, ?> e : m.entrySet()) {
      normalized.put(e.getKey(), normalize(e.getKey(), e.getValue()));
    }
    normalized.forEach((k, v) -> mutate(k, CHECKED, old -> v));
  }

  @Override
  public @Nullable Object remove(Object key) {
    if (!(key instanceof String)) {
      return null;
    }
    return mutate((String) key, BLIND, old -> old == null ? UNCHANGED : null)[0];
  }

  @Override
  public boolean remove(Object key, Object value) {
    if (!(key instanceof String) || value == null) {
      return false;
    }
    Object[] r = mutate((String) key, READS, old -> Objects.equals(old, value) ? null : UNCHANGED);
    return r[2] == Boolean.TRUE;
  }

  @Override
  public @Nullable Object putIfAbsent(String key, Object value) {
    Object normalized = normalize(key, value);
    return mutate(
        key, READS | CHECKED, old -> old == null && normalized != null ? normalized : UNCHANGED)[0];
  }

  @Override
  public boolean replace(String key, Object oldValue, Object newValue) {
    Object normalized = normalize(key, newValue);
    Object[] r =
        mutate(
            key,
            READS | CHECKED,
            old -> old != null && old.equals(oldValue) ? normalized : UNCHANGED);
    return r[2] == Boolean.TRUE;
  }

  @Override
  public @Nullable Object replace(String key, Object value) {
    Object normalized = normalize(key, value);
    return mutate(key, READS | CHECKED, old -> old == null ? UNCHANGED : normalized)[0];
  }

  @Override
  public @Nullable Object computeIfAbsent(
      String key, Function<? super String, ? extends Object> mappingFunction) {
    Objects.requireNonNull(mappingFunction);
    return mutate(
        key,
        READS,
        old -> {
          if (old != null) {
            return UNCHANGED;
          }
          Object v = mappingFunction.apply(key);
          return v == null ? UNCHANGED : frozenValue(key, v);
        })[1];
  }

  @Override
  public @Nullable Object computeIfPresent(
      String key, BiFunction<? super String, ? super Object, ? extends Object> remappingFunction) {
    Objects.requireNonNull(remappingFunction);
    return mutate(
        key,
        READS,
        old -> {
          if (old == null) {
            return UNCHANGED;
          }
          return frozenValue(key, remappingFunction.apply(key, old));
        })[1];
  }

  @Override
  public @Nullable Object compute(
      String key, BiFunction<? super String, ? super Object, ? extends Object> remappingFunction) {
    Objects.requireNonNull(remappingFunction);
    return mutate(
        key,
        READS,
        old -> {
          Object v = remappingFunction.apply(key, old);
          return v == null && old == null ? UNCHANGED : frozenValue(key, v);
        })[1];
  }

  @Override
  public @Nullable Object merge(
      String key,
      Object value,
      BiFunction<? super Object, ? super Object, ? extends Object> remappingFunction) {
    Objects.requireNonNull(remappingFunction);
    Objects.requireNonNull(value, "value");
    return mutate(
        key,
        READS,
        old ->
            old == null
                ? frozenValue(key, value)
                : frozenValue(key, remappingFunction.apply(old, value)))[1];
  }

  @Override
  public void replaceAll(BiFunction<? super String, ? super Object, ? extends Object> function) {
    Objects.requireNonNull(function);
    for (String key : state.keySet()) {
      computeIfPresent(key, function);
    }
  }

  @Override
  public void clear() {
    for (String key : state.keySet()) {
      remove(key);
    }
  }

  /** {@link #mutate} flag: a blind change (the outcome does not depend on the old value). */
  private static final int BLIND = 0;

  /** {@link #mutate} flag: the outcome depends on the old value, which is recorded as read. */
  private static final int READS = 1;

  /** {@link #mutate} flag: the key was checked already (by {@link #normalize}). */
  private static final int CHECKED = 2;

  /**
   * Applies {@code change} to {@code key} atomically and records the result in the delta. {@code
   * change} returns the new value (frozen), {@code null} to remove the key, or {@link #UNCHANGED}.
   * {@code flags}: {@link #READS}, {@link #CHECKED}.
   *
   * @return {previous value, new value, Boolean.TRUE if something changed}
   */
  private Object[] mutate(String key, int flags, UnaryOperator<@Nullable Object> change) {
    if ((flags & CHECKED) == 0) {
      Scope.checkKey(key);
    }
    boolean readsOld = (flags & READS) != 0;
    Object[] result = new Object[3];
    state.compute(
        key,
        (k, old) -> {
          result[0] = old;
          if (readsOld) {
            recordRead(k, old);
          }
          Object next = change.apply(old);
          if (next == UNCHANGED) {
            result[1] = old;
            return old;
          }
          result[2] = Boolean.TRUE;
          result[1] = next;
          this.<Object>made(ORIGINALS_MAP).putIfAbsent(k, old == null ? ABSENT : old);
          ConcurrentMap<String, Long> inc = increments;
          if (inc != null) {
            inc.remove(k);
          }
          writableDelta().put(k, next == null ? REMOVED : next);
          return next;
        });
    return result;
  }

  /**
   * {@code value} as the state stores it under {@code key} ({@link #REMOVED}: null), the key
   * checked: the write's one check of its key, and its one normalization and freeze ({@link
   * Json#frozen}). The live state, the delta, the event and the store then share that value.
   */
  static @Nullable Object normalize(String key, @Nullable Object value) {
    Scope.checkKey(key);
    return frozenValue(key, value);
  }

  /** {@link #normalize} of a key already checked. */
  private static @Nullable Object frozenValue(String key, @Nullable Object value) {
    if (value == REMOVED) {
      return null;
    }
    return Json.frozen(key, value);
  }

  // ---- views: AbstractMap's keySet() and values() read and remove through entrySet() ----

  /**
   * The live entries. A removal through this set or its iterator (and so through {@link #keySet()}
   * and {@link #values()}) and each entry's {@code setValue} go through this state, and so into its
   * delta.
   */
  @Override
  public Set<Entry<String, Object>> entrySet() {
    return new java.util.AbstractSet<>() {
      @Override
      public java.util.Iterator<Entry<String, Object>> iterator() {
        java.util.Iterator<Entry<String, Object>> live = state.entrySet().iterator();
        return new java.util.Iterator<>() {
          private @Nullable String last;

          @Override
          public boolean hasNext() {
            return live.hasNext();
          }

          @Override
          public Entry<String, Object> next() {
            Entry<String, Object> e = live.next();
            last = e.getKey();
            return new SimpleEntry<>(e) {
              @Override
              public Object setValue(Object value) {
                Object normalized = normalize(getKey(), value);
                State.this.put(getKey(), normalized);
                return super.setValue(normalized);
              }
            };
          }

          @Override
          public void remove() {
            String key = last;
            if (key == null) {
              throw new IllegalStateException(
                  "next() was not called, or remove() was already called");
            }
            last = null;
            State.this.remove(key);
          }
        };
      }

      @Override
      public int size() {
        return state.size();
      }

      @Override
      public boolean contains(Object o) { // a read of the key, as get records it
        if (!(o instanceof Entry)) {
          return false;
        }
        Object value = State.this.get(((Entry<?, ?>) o).getKey());
        return value != null && value.equals(((Entry<?, ?>) o).getValue());
      }

      @Override
      public boolean remove(Object o) { // remove(key, value): a read-modify-write
        return o instanceof Entry
            && State.this.remove(((Entry<?, ?>) o).getKey(), ((Entry<?, ?>) o).getValue());
      }
    };
  }

  // ---- Object ----

  @Override
  public boolean equals(Object o) {
    return o == this || (o instanceof Map && state.equals(o));
  }

  @Override
  public int hashCode() {
    return state.hashCode();
  }

  /** The live state, {@code secret:} values shown as {@link #REDACTED}. */
  @Override
  public String toString() {
    return redacted(state).toString();
  }

  /**
   * {@code map} with the value of every {@code secret:} key replaced by {@link #REDACTED}: what to
   * print, log or send instead of a state map or delta. Returns {@code map} itself when it has no
   * secret key; otherwise a new, insertion-ordered map.
   */
  public static <V> Map<String, ?> redacted(Map<String, V> map) {
    boolean any = false;
    for (String key : map.keySet()) {
      if (key.startsWith(SECRET_PREFIX)) {
        any = true;
        break;
      }
    }
    if (!any) {
      return map;
    }
    Map<String, @Nullable Object> out = new java.util.LinkedHashMap<>();
    map.forEach((k, v) -> out.put(k, k.startsWith(SECRET_PREFIX) ? REDACTED : v));
    return out;
  }
}
