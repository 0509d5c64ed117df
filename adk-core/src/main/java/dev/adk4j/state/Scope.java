package dev.adk4j.state;

import dev.adk4j.internal.Text;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The scope of a state key, decided by its prefix. This is the single place that knows the
 * prefixes; every session service routes keys through {@link #of(String)} and {@link #split(Map)}.
 *
 * <ul>
 *   <li>{@link #APP}: {@code app:}, one value per app, shared by all its users and sessions;
 *   <li>{@link #USER}: {@code user:}, one value per (app, user), shared by that user's sessions;
 *   <li>{@link #TEMP}: {@code temp:}, one invocation, never stored;
 *   <li>{@link #SECRET}: {@code secret:} (adk4j), one session like a session key, but kept apart:
 *       never in a stored event's delta, never in the session's stored state, never in clear in a
 *       database, redacted by {@code toString};
 *   <li>{@link #SESSION}: no prefix (or any other prefix, such as {@code a:b}), one session.
 * </ul>
 *
 * The prefix stays part of the key everywhere: scoped maps hold full keys such as {@code
 * user:name}.
 */
public enum Scope {
  APP(State.APP_PREFIX),
  USER(State.USER_PREFIX),
  TEMP(State.TEMP_PREFIX),
  /**
   * {@code secret:} keys (adk4j): readable for the whole session like a session key, by tools,
   * callbacks and (where the agent opts in) instructions. A session service keeps them apart from
   * the stored state and events: in its own memory (lost at restart), or encrypted with a key the
   * operator supplies. {@link #split} leaves them out, so a store never sees one in clear.
   */
  SECRET(State.SECRET_PREFIX),
  SESSION("");

  private final String prefix;

  Scope(String prefix) {
    this.prefix = prefix;
  }

  /** The key prefix of this scope; empty for {@link #SESSION}. */
  public String prefix() {
    return prefix;
  }

  /** The scope of {@code key}. */
  public static Scope of(String key) {
    // The first character tells which prefix the key can have (this runs several times per key
    // of every append): one comparison of the prefix at most.
    if (key.isEmpty()) {
      return SESSION;
    }
    switch (key.charAt(0)) {
      case 'a':
        return key.startsWith(State.APP_PREFIX) ? APP : SESSION;
      case 'u':
        return key.startsWith(State.USER_PREFIX) ? USER : SESSION;
      case 't':
        return key.startsWith(State.TEMP_PREFIX) ? TEMP : SESSION;
      case 's':
        return key.startsWith(State.SECRET_PREFIX) ? SECRET : SESSION;
      default:
        return SESSION;
    }
  }

  /**
   * Whether keys of this scope are stored with the session's state and in events' deltas: false for
   * {@link #TEMP} (never kept) and {@link #SECRET} (kept apart, see there).
   */
  public boolean isStored() {
    return this != TEMP && this != SECRET;
  }

  /**
   * Checks that {@code key} is a valid state key: non-null, non-empty, not a bare prefix, and at
   * most {@link State#MAX_KEY_BYTES} bytes of UTF-8.
   *
   * @throws IllegalArgumentException if it is not
   */
  public static String checkKey(@Nullable Object key) {
    if (!(key instanceof String)) {
      throw new IllegalArgumentException(
          "State keys are non-empty strings, got "
              + (key == null ? "null" : key.getClass().getName()));
    }
    String k = (String) key;
    if (k.isEmpty()) {
      throw new IllegalArgumentException("State keys are non-empty strings, got an empty key");
    }
    if (Text.longerThan(k, State.MAX_KEY_BYTES)) {
      throw new IllegalArgumentException(
          "State key "
              + Text.quote(k)
              + " is "
              + Text.utf8Length(k)
              + " bytes of UTF-8, over the limit of "
              + State.MAX_KEY_BYTES
              + " (State.MAX_KEY_BYTES)");
    }
    Scope scope = of(k);
    if (scope != SESSION && k.length() == scope.prefix.length()) {
      throw new IllegalArgumentException("State key '" + k + "' has a prefix but no name");
    }
    return k;
  }

  /**
   * A delta split by scope, {@code temp:} and {@code secret:} keys dropped. Each map keeps the full
   * keys and may hold {@code null} values, meaning removal. The maps are unmodifiable.
   */
  public record Split(
      Map<String, @Nullable Object> app,
      Map<String, @Nullable Object> user,
      Map<String, @Nullable Object> session) {

    /** Whether nothing is to be stored. */
    public boolean isEmpty() {
      return app.isEmpty() && user.isEmpty() && session.isEmpty();
    }
  }

  /**
   * Splits {@code delta} into its app, user and session parts, dropping {@code temp:} and {@code
   * secret:} keys. The parts are read-only; a read-only delta ({@link Collections#unmodifiableMap},
   * as an event's is) whose keys are all of one scope is that part as it is, not a copy, so it must
   * not change afterwards.
   */
  @SuppressWarnings("unchecked")
  public static Split split(Map<String, ? extends @Nullable Object> delta) {
    // A delta of one scope that cannot change (an event's, which every append splits) is that
    // scope's part as it is: nothing is copied.
    if (delta.getClass() == READ_ONLY_MAP && !delta.isEmpty()) {
      Scope only = null;
      for (String key : delta.keySet()) {
        Scope scope = of(key);
        if (only == null) {
          only = scope;
        } else if (scope != only) {
          only = null;
          break;
        }
      }
      Map<String, @Nullable Object> whole = (Map<String, @Nullable Object>) delta;
      if (only == APP) {
        return new Split(whole, Map.of(), Map.of());
      } else if (only == USER) {
        return new Split(Map.of(), whole, Map.of());
      } else if (only == SESSION) {
        return new Split(Map.of(), Map.of(), whole);
      }
    }
    Map<String, @Nullable Object> app = null;
    Map<String, @Nullable Object> user = null;
    Map<String, @Nullable Object> session = null;
    for (Map.Entry<String, ? extends @Nullable Object> e : delta.entrySet()) {
      String key = e.getKey();
      switch (of(key)) {
        case APP:
          app = add(app, key, e.getValue());
          break;
        case USER:
          user = add(user, key, e.getValue());
          break;
        case SESSION:
          session = add(session, key, e.getValue());
          break;
        case TEMP:
        case SECRET:
        default:
          break;
      }
    }
    return new Split(frozen(app), frozen(user), frozen(session));
  }

  /** Returns {@code delta} without its {@code temp:} keys (the same map if it has none). */
  public static <V> Map<String, V> withoutTemp(Map<String, V> delta) {
    boolean hasTemp = false;
    for (String key : delta.keySet()) {
      if (of(key) == TEMP) {
        hasTemp = true;
        break;
      }
    }
    if (!hasTemp) {
      return delta;
    }
    Map<String, V> kept = new HashMap<>();
    delta.forEach(
        (k, v) -> {
          if (of(k) != TEMP) {
            kept.put(k, v);
          }
        });
    return kept;
  }

  private static Map<String, @Nullable Object> add(
      @Nullable Map<String, @Nullable Object> map, String key, @Nullable Object value) {
    Map<String, @Nullable Object> m = map == null ? new HashMap<>() : map;
    m.put(key, value);
    return m;
  }

  /** The class of {@link Collections#unmodifiableMap}'s maps, which an event's delta is. */
  private static final Class<?> READ_ONLY_MAP =
      Collections.unmodifiableMap(new HashMap<>()).getClass();

  private static Map<String, @Nullable Object> frozen(@Nullable Map<String, @Nullable Object> map) {
    return map == null ? Map.of() : Collections.unmodifiableMap(map);
  }
}
