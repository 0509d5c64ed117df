package dev.adk4j.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.adk4j.state.State;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The one JSON mapping of adk4j: state values, events and sessions are written and read with the
 * same {@link ObjectMapper}, so that a value reads back the same from every session service.
 *
 * <p>State values are normalized at the write: {@link #normalize(String, Object)} turns any value
 * into its JSON round trip (maps with string keys, lists, strings, numbers, booleans), refusing
 * what cannot be serialized. Normalized values are only {@link Map}, {@link List} and immutable
 * scalars, which lets {@link #copy(Object)} copy them cheaply.
 *
 * <p>Thread-safe.
 */
public final class Json {

  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .registerModule(new Jdk8Module())
          .registerModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .setDefaultPropertyInclusion(
              JsonInclude.Value.construct(
                  JsonInclude.Include.NON_ABSENT, JsonInclude.Include.ALWAYS));

  private static final ObjectReader READER = MAPPER.reader();

  /**
   * Reads what a session store holds: as {@link #READER}, but without Jackson's limit on the length
   * of a name (50,000 characters), so that a map key a store accepted before adk4j bounded keys
   * ({@link State#MAX_KEY_BYTES}) cannot make a stored state or event unreadable. What is stored
   * was bounded in size when it was written.
   */
  private static final ObjectReader STORED_READER = storedMapper().reader();

  private static ObjectMapper storedMapper() {
    ObjectMapper mapper = MAPPER.copy();
    mapper
        .getFactory()
        .setStreamReadConstraints(
            StreamReadConstraints.builder().maxNameLength(Integer.MAX_VALUE).build());
    return mapper;
  }

  private static final ObjectWriter WRITER = MAPPER.writer();

  private Json() {}

  /**
   * A reader with adk4j's settings. Immutable, like every {@link ObjectReader}: configure a copy
   * with its {@code with...} methods.
   */
  public static ObjectReader reader() {
    return READER;
  }

  /**
   * A reader for JSON a session store wrote (state values, events): {@link #reader()}'s settings
   * without a bound on the length of names.
   */
  public static ObjectReader storedReader() {
    return STORED_READER;
  }

  /**
   * A writer with adk4j's settings. Immutable, like every {@link ObjectWriter}: configure a copy
   * with its {@code with...} methods.
   */
  public static ObjectWriter writer() {
    return WRITER;
  }

  /**
   * A new mapper with adk4j's settings, for code that needs a mapper's type introspection or its
   * own configuration. The caller owns it; the shared one is never handed out, so nobody can
   * reconfigure how state is stored.
   */
  public static ObjectMapper newMapper() {
    return MAPPER.copy();
  }

  /**
   * Returns the JSON round trip of {@code value}: what a session service would give back after
   * storing it.
   *
   * @throws IllegalArgumentException naming {@code key} if the value cannot be serialized (a cyclic
   *     structure, an object Jackson cannot describe, a non-finite number)
   */
  public static @Nullable Object normalize(String key, @Nullable Object value) {
    return normalize(key, value, 0, false);
  }

  /**
   * {@link #normalize} and {@link #freeze} in one pass: the JSON round trip of {@code value} with
   * its maps and lists unmodifiable, copied once. A value that {@link #isFrozen} already is
   * returned as it is. This is how {@code State} stores every value written through it, so that
   * events, session copies and stores share the one frozen copy.
   *
   * @throws IllegalArgumentException naming {@code key} as {@link #normalize} does
   */
  public static @Nullable Object frozen(String key, @Nullable Object value) {
    if (isFrozen(value)) {
      return value;
    }
    return normalize(key, value, 0, true);
  }

  /**
   * Deeper than this is refused (Jackson's own limit is 1000): a value is 1 level deep when it is a
   * map or a list of scalars.
   */
  private static final int MAX_DEPTH = State.MAX_DEPTH;

  /** The longest key of a map inside a value, as of a state key. */
  private static final int MAX_KEY_BYTES = State.MAX_KEY_BYTES;

  /**
   * Walks maps with string keys and lists itself, copying them (the common case, and the hot path
   * of every append), and asks Jackson for the round trip of anything else.
   */
  @SuppressWarnings("unchecked")
  private static @Nullable Object normalize(
      String key, @Nullable Object value, int depth, boolean freeze) {
    if (value == null || value instanceof String || value instanceof Boolean) {
      return value;
    }
    if (value instanceof Integer) {
      return value;
    }
    if (value instanceof Long) {
      long l = (Long) value;
      return (l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) ? Integer.valueOf((int) l) : value;
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new IllegalArgumentException(
            "State value for key '" + key + "' is " + d + ", which is not a JSON number");
      }
      if (value instanceof Double) {
        return value;
      }
    }
    if (value instanceof Map && hasOnlyStringKeys((Map<?, ?>) value)) {
      checkDepth(key, depth);
      Map<String, Object> source = (Map<String, Object>) value;
      Map<String, Object> copy = new LinkedHashMap<>(Math.max(4, source.size() * 2));
      for (Map.Entry<String, Object> e : source.entrySet()) {
        checkInnerKey(key, e.getKey());
        copy.put(e.getKey(), normalize(key, e.getValue(), depth + 1, freeze));
      }
      return freeze ? java.util.Collections.unmodifiableMap(copy) : copy;
    }
    if (value instanceof List) {
      checkDepth(key, depth);
      List<Object> source = (List<Object>) value;
      List<Object> copy = new ArrayList<>(source.size());
      for (Object o : source) {
        copy.add(normalize(key, o, depth + 1, freeze));
      }
      return freeze ? java.util.Collections.unmodifiableList(copy) : copy;
    }
    Object tree = roundTrip(key, value);
    checkTree(key, tree, depth);
    return freeze ? sealInPlace(tree) : tree;
  }

  /**
   * A fresh JSON tree (nobody else holds it) made unmodifiable without copying: each map and list
   * is wrapped, its nested ones first.
   */
  @SuppressWarnings("unchecked")
  private static @Nullable Object sealInPlace(@Nullable Object tree) {
    if (tree instanceof Map) {
      Map<String, Object> map = (Map<String, Object>) tree;
      for (Map.Entry<String, Object> e : map.entrySet()) {
        if (e.getValue() instanceof Map || e.getValue() instanceof List) {
          e.setValue(sealInPlace(e.getValue()));
        }
      }
      return java.util.Collections.unmodifiableMap(map);
    }
    if (tree instanceof List) {
      List<Object> list = (List<Object>) tree;
      for (int i = 0; i < list.size(); i++) {
        Object v = list.get(i);
        if (v instanceof Map || v instanceof List) {
          list.set(i, sealInPlace(v));
        }
      }
      return java.util.Collections.unmodifiableList(list);
    }
    return tree;
  }

  /** Refuses a map or list that {@code depth} maps and lists already enclose, if too deep. */
  private static void checkDepth(String key, int depth) {
    if (depth >= MAX_DEPTH) {
      throw tooDeep(key);
    }
  }

  private static IllegalArgumentException tooDeep(String key) {
    return new IllegalArgumentException(
        "State value for key '"
            + key
            + "' is cyclic or nested too deeply: maps and lists more than "
            + MAX_DEPTH
            + " levels deep (State.MAX_DEPTH)");
  }

  /** Refuses a key of a map inside a value over {@link #MAX_KEY_BYTES}; never names it (data). */
  private static void checkInnerKey(String key, String inner) {
    if (Text.longerThan(inner, MAX_KEY_BYTES)) {
      throw new IllegalArgumentException(
          "State value for key '"
              + key
              + "' holds a map whose key is "
              + Text.utf8Length(inner)
              + " bytes of UTF-8, over the limit of "
              + MAX_KEY_BYTES
              + " (State.MAX_KEY_BYTES)");
    }
  }

  /**
   * Checks the depth and the map keys of a JSON tree that a record, POJO or other object became,
   * {@code depth} maps and lists enclosing it.
   */
  private static void checkTree(String key, @Nullable Object tree, int depth) {
    if (tree instanceof Map) {
      checkDepth(key, depth);
      for (Map.Entry<?, ?> e : ((Map<?, ?>) tree).entrySet()) {
        checkInnerKey(key, String.valueOf(e.getKey()));
        checkTree(key, e.getValue(), depth + 1);
      }
    } else if (tree instanceof List) {
      checkDepth(key, depth);
      for (Object v : (List<?>) tree) {
        checkTree(key, v, depth + 1);
      }
    }
  }

  /** Writes NaN and infinities as bare tokens, so that they are seen when read back. */
  private static final com.fasterxml.jackson.databind.ObjectWriter STRICT_WRITER =
      MAPPER.writer().without(JsonWriteFeature.WRITE_NAN_AS_STRINGS);

  /**
   * Reads bare NaN and infinity tokens, so that they can be refused with the key's name, and
   * decimals as {@code BigDecimal}, so that a number a double cannot hold is seen ({@link
   * #settle}).
   */
  private static final com.fasterxml.jackson.databind.ObjectReader LENIENT_READER =
      MAPPER
          .readerFor(Object.class)
          .with(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  /**
   * The JSON round trip of a value that is not a plain map, list or scalar: a record, a POJO, a
   * {@code BigDecimal}, a set, a map with other keys, an array, a {@code java.time} value. It is
   * accepted only if it is data: Jackson writes it, every number in it is finite, and (unless it is
   * a container) Jackson reads the JSON back into its own class and that copy writes the same JSON.
   * A lambda, a thread, an object whose state Jackson cannot rebuild is refused.
   */
  private static @Nullable Object roundTrip(String key, Object value) {
    Class<?> type = value.getClass();
    if (type.isSynthetic() || type.getName().contains("$$Lambda")) {
      throw refused(key, type, "it is a lambda or synthetic class: code, not data", null);
    }
    @Nullable Object tree;
    byte[] json;
    try {
      json = STRICT_WRITER.writeValueAsBytes(value);
      tree = LENIENT_READER.readValue(json);
    } catch (JsonProcessingException | StackOverflowError e) {
      throw refused(key, type, "it cannot be serialized to JSON: " + describe(e), e);
    } catch (java.io.IOException e) {
      throw refused(key, type, "it cannot be read back from JSON: " + describe(e), e);
    }
    tree = settle(key, type, tree);
    if (value instanceof Map
        || value instanceof java.util.Collection
        || value instanceof Number
        || value instanceof CharSequence
        || value instanceof Enum
        || type.isArray()) {
      return tree;
    }
    Object copy;
    try {
      copy = MAPPER.readValue(json, type);
    } catch (java.io.IOException | RuntimeException e) {
      throw refused(
          key,
          type,
          "Jackson writes it but cannot read it back as "
              + type.getName()
              + " ("
              + describe(e)
              + "); store plain data, or a record or class with a constructor or setters"
              + " Jackson can use",
          e);
    }
    Object again;
    try {
      again = settle(key, type, LENIENT_READER.readValue(STRICT_WRITER.writeValueAsBytes(copy)));
    } catch (java.io.IOException | RuntimeException e) {
      throw refused(key, type, "its copy read back from JSON cannot be written again", e);
    }
    if (!sameValue(tree, again)) {
      throw refused(
          key,
          type,
          "it does not survive a JSON round trip: read back as "
              + type.getName()
              + " it writes other JSON (properties Jackson can write but not set)",
          null);
    }
    return tree;
  }

  private static IllegalArgumentException refused(
      String key, Class<?> type, String why, @Nullable Throwable cause) {
    return new IllegalArgumentException(
        "State value for key '" + key + "' of type " + type.getName() + " is refused: " + why,
        cause);
  }

  /**
   * A value read back from JSON ({@link #LENIENT_READER}) as a session service stores it: its
   * decimals as doubles. Refuses a NaN or an infinity anywhere in it (a {@code BigDecimal} beyond
   * the range of a double included) and a non-zero decimal that a double would turn into zero (as
   * {@code 1e-400}): either would read back as another value. Maps and lists are changed in place.
   */
  @SuppressWarnings("unchecked")
  private static @Nullable Object settle(String key, Class<?> type, @Nullable Object tree) {
    if (tree instanceof java.math.BigDecimal) {
      java.math.BigDecimal decimal = (java.math.BigDecimal) tree;
      double d = decimal.doubleValue();
      if (Double.isInfinite(d)) {
        throw refused(
            key,
            type,
            "it holds a number beyond the range of a double, which would read back as " + d,
            null);
      }
      if (d == 0.0 && decimal.signum() != 0) {
        throw refused(
            key,
            type,
            "it holds a non-zero number closer to zero than a double can be ("
                + decimal.toString().length()
                + " characters as written), which would read back as 0.0",
            null);
      }
      return d;
    }
    if (tree instanceof Double) {
      double d = (Double) tree;
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw refused(key, type, "it holds " + d + ", which is not a JSON number", null);
      }
    } else if (tree instanceof Map) {
      for (Map.Entry<Object, Object> e : ((Map<Object, Object>) tree).entrySet()) {
        e.setValue(settle(key, type, e.getValue()));
      }
    } else if (tree instanceof List) {
      List<Object> list = (List<Object>) tree;
      for (int i = 0; i < list.size(); i++) {
        list.set(i, settle(key, type, list.get(i)));
      }
    }
    return tree;
  }

  private static boolean hasOnlyStringKeys(Map<?, ?> map) {
    for (Object k : map.keySet()) {
      if (!(k instanceof String)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Deep-copies a normalized value: maps and lists are copied, scalars (immutable) are shared.
   * Anything else is normalized first.
   */
  @SuppressWarnings("unchecked")
  public static @Nullable Object copy(@Nullable Object value) {
    if (value instanceof Map) {
      Map<String, Object> source = (Map<String, Object>) value;
      Map<String, Object> copy = new LinkedHashMap<>(Math.max(4, source.size() * 2));
      for (Map.Entry<String, Object> e : source.entrySet()) {
        copy.put(e.getKey(), copy(e.getValue()));
      }
      return copy;
    }
    if (value instanceof List) {
      List<Object> source = (List<Object>) value;
      List<Object> copy = new ArrayList<>(source.size());
      for (Object o : source) {
        copy.add(copy(o));
      }
      return copy;
    }
    return value;
  }

  private static final Class<?> FROZEN_MAP =
      java.util.Collections.unmodifiableMap(new LinkedHashMap<>()).getClass();
  private static final Class<?> FROZEN_LIST =
      java.util.Collections.unmodifiableList(new ArrayList<>()).getClass();

  /**
   * Whether {@code value} is already normalized and frozen: {@link #normalize} and {@link #freeze}
   * return it as it is. True for {@code null}, strings, booleans, {@code Integer}s and finite
   * {@code Double}s (immutable scalars that JSON keeps as they are); false for anything else, which
   * must go through both.
   */
  public static boolean isSettled(@Nullable Object value) {
    if (value == null || value instanceof String || value instanceof Integer) {
      return true;
    }
    if (value instanceof Boolean) {
      return true;
    }
    if (value instanceof Double) {
      double d = (Double) value;
      return !Double.isNaN(d) && !Double.isInfinite(d);
    }
    return false;
  }

  /**
   * Whether {@code value} is a value {@link #frozen} or {@link #freeze} made (or could have made):
   * {@linkplain #isSettled settled} scalars, and the JDK's unmodifiable maps (string keys within
   * {@link State#MAX_KEY_BYTES}) and lists of such values, at most {@link State#MAX_DEPTH} deep.
   * The test walks the value without copying it: this is the cheap check that lets the session
   * services store a value {@code State} froze without copying it again. (An unmodifiable view over
   * a map its caller still changes passes too, as it does {@link #freeze}: a value is frozen by
   * handing it over.)
   */
  public static boolean isFrozen(@Nullable Object value) {
    return isFrozen(value, 0);
  }

  private static boolean isFrozen(@Nullable Object value, int depth) {
    if (value instanceof Map) {
      if (value.getClass() != FROZEN_MAP || depth >= MAX_DEPTH) {
        return false;
      }
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        if (!(e.getKey() instanceof String key)
            || Text.longerThan(key, MAX_KEY_BYTES)
            || !isFrozen(e.getValue(), depth + 1)) {
          return false;
        }
      }
      return true;
    }
    if (value instanceof List) {
      if (value.getClass() != FROZEN_LIST || depth >= MAX_DEPTH) {
        return false;
      }
      for (Object o : (List<?>) value) {
        if (!isFrozen(o, depth + 1)) {
          return false;
        }
      }
      return true;
    }
    return isSettled(value);
  }

  /**
   * An immutable deep copy of a normalized value, which may be shared by any number of readers:
   * maps and lists are copied into unmodifiable ones (their order and {@code null} values kept),
   * scalars are shared, and a value this method returned is returned as it is. {@link
   * #copy(Object)} gives a mutable copy back.
   */
  @SuppressWarnings("unchecked")
  public static @Nullable Object freeze(@Nullable Object value) {
    if (value instanceof Map) {
      if (value.getClass() == FROZEN_MAP) {
        return value;
      }
      Map<String, Object> source = (Map<String, Object>) value;
      Map<String, Object> copy = new LinkedHashMap<>(Math.max(4, source.size() * 2));
      for (Map.Entry<String, Object> e : source.entrySet()) {
        copy.put(e.getKey(), freeze(e.getValue()));
      }
      return java.util.Collections.unmodifiableMap(copy);
    }
    if (value instanceof List) {
      if (value.getClass() == FROZEN_LIST) {
        return value;
      }
      List<Object> source = (List<Object>) value;
      List<Object> copy = new ArrayList<>(source.size());
      for (Object o : source) {
        copy.add(freeze(o));
      }
      return java.util.Collections.unmodifiableList(copy);
    }
    return value;
  }

  /**
   * Whether two normalized values are the same JSON value: numbers compare by numeric value ({@code
   * 1}, {@code 1L} and {@code 1.0} are equal), maps by their entries whatever their order, lists
   * element by element. Used to check a read-modify-write against the stored value.
   */
  public static boolean sameValue(@Nullable Object a, @Nullable Object b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    if (a instanceof Number && b instanceof Number) {
      return decimal((Number) a).compareTo(decimal((Number) b)) == 0;
    }
    if (a instanceof Map && b instanceof Map) {
      Map<?, ?> ma = (Map<?, ?>) a;
      Map<?, ?> mb = (Map<?, ?>) b;
      if (ma.size() != mb.size()) {
        return false;
      }
      for (Map.Entry<?, ?> e : ma.entrySet()) {
        if (!mb.containsKey(e.getKey()) || !sameValue(e.getValue(), mb.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof List && b instanceof List) {
      List<?> la = (List<?>) a;
      List<?> lb = (List<?>) b;
      if (la.size() != lb.size()) {
        return false;
      }
      for (int i = 0; i < la.size(); i++) {
        if (!sameValue(la.get(i), lb.get(i))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  private static java.math.BigDecimal decimal(Number n) {
    if (n instanceof java.math.BigDecimal) {
      return (java.math.BigDecimal) n;
    }
    if (n instanceof java.math.BigInteger) {
      return new java.math.BigDecimal((java.math.BigInteger) n);
    }
    if (n instanceof Double || n instanceof Float) {
      return java.math.BigDecimal.valueOf(n.doubleValue());
    }
    return java.math.BigDecimal.valueOf(n.longValue());
  }

  /** Serializes any value with the shared mapper. */
  public static String toJson(@Nullable Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "Cannot serialize " + (value == null ? "null" : value.getClass().getName()), e);
    }
  }

  /** Reads JSON text into {@code type} with the shared mapper. */
  public static <T> T fromJson(String json, Class<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "Malformed JSON for " + type.getSimpleName() + ": " + describe(e), e);
    }
  }

  private static String describe(@Nullable Throwable e) {
    if (e == null || e instanceof StackOverflowError) {
      return "the value is cyclic or nested too deeply";
    }
    if (e instanceof JsonProcessingException) {
      return ((JsonProcessingException) e).getOriginalMessage();
    }
    return String.valueOf(e.getMessage());
  }
}
