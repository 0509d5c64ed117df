package dev.adk4j.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bounds a write through {@link State} enforces (issue 33): key length ({@link
 * State#MAX_KEY_BYTES}, for state keys and for the keys of maps inside values), nesting ({@link
 * State#MAX_DEPTH}) and numbers a double would silently change. A refused write names the key,
 * never carries the offending data, and leaves state and delta as they were.
 */
class StateBoundsTest {

  private ConcurrentHashMap<String, Object> live;
  private State state;

  @BeforeEach
  void setUp() {
    live = new ConcurrentHashMap<>(Map.of("kept", 1));
    state = new State(live);
  }

  private IllegalArgumentException refused(String key, Object value) {
    java.util.Set<String> before = java.util.Set.copyOf(live.keySet());
    boolean hadDelta = state.hasDelta();
    IllegalArgumentException e =
        (IllegalArgumentException)
            org.assertj.core.api.Assertions.catchThrowable(() -> state.put(key, value));
    assertThat(e).as("put(%s) must be refused", key).isNotNull();
    assertThat(live.keySet()).isEqualTo(before);
    assertThat(state.hasDelta()).isEqualTo(hadDelta);
    assertThat(e.getMessage().length()).as("message length").isLessThan(400);
    return e;
  }

  @Test
  void aKeyUpToTheBound_isAccepted_oneByteMore_isRefusedWithItsLength() {
    String atBound = "user:" + "k".repeat(State.MAX_KEY_BYTES - 5);
    state.put(atBound, 1);
    assertThat(state.get(atBound)).isEqualTo(1);

    String over = "user:" + "k".repeat(State.MAX_KEY_BYTES - 4);
    assertThat(refusedKey(over).getMessage())
        .contains("1025 bytes", "State.MAX_KEY_BYTES", "1025 characters")
        .doesNotContain(over);
  }

  private IllegalArgumentException refusedKey(String key) {
    live.remove(key);
    ConcurrentHashMap<String, Object> before = new ConcurrentHashMap<>(live);
    IllegalArgumentException e =
        (IllegalArgumentException)
            org.assertj.core.api.Assertions.catchThrowable(() -> state.put(key, "v"));
    assertThat(e).isNotNull();
    assertThat(live).isEqualTo(before);
    assertThat(e.getMessage().length()).isLessThan(400);
    return e;
  }

  @Test
  void keyLength_isCountedInUtf8Bytes() {
    // "€" is 3 bytes of UTF-8: 341 of them are 1,023 bytes, 342 are 1,026.
    state.put("€".repeat(341), 1);
    assertThat(refusedKey("€".repeat(342)).getMessage()).contains("1026 bytes");
    // A character outside the BMP is 4 bytes (two chars).
    state.put("😀".repeat(256), 1);
    assertThat(refusedKey("😀".repeat(256) + "x").getMessage()).contains("1025 bytes");
  }

  @Test
  void aHugeKey_isRefusedEverywhereAKeyIsWritten_withoutThe50kCharactersInTheMessage() {
    String huge = "k".repeat(50_001);
    refusedKey(huge);
    assertThatThrownBy(() -> state.putAll(Map.of(huge, 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("50001 characters");
    assertThatThrownBy(() -> state.increment(huge, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("50001 characters");
    assertThat(live).containsOnlyKeys("kept");
  }

  @Test
  void aLongKeyInsideAValue_isRefusedAtAnyDepth_andNotNamed() {
    String inner = "x".repeat(50_001);
    IllegalArgumentException e = refused("app:cfg", Map.of(inner, 1));
    assertThat(e.getMessage())
        .contains("'app:cfg'", "50001 bytes", "State.MAX_KEY_BYTES")
        .doesNotContain("xxxxxxxxxx");
    refused("app:cfg", Map.of("a", List.of(1, Map.of("b", Map.of(inner, true)))));
    refused("app:cfg", new Holder(Map.of(inner, "v")));
    // At the bound it is fine.
    state.put("app:cfg", Map.of("y".repeat(State.MAX_KEY_BYTES), 1));
    assertThat(((Map<?, ?>) state.get("app:cfg")).keySet().iterator().next().toString())
        .hasSize(State.MAX_KEY_BYTES);
  }

  /** A record whose JSON has a map: its keys are checked after the round trip. */
  record Holder(Map<String, String> labels) {}

  @Test
  void nesting_upTo500Levels_isAccepted_501_isRefused() {
    state.put("maps", nestedMaps(State.MAX_DEPTH));
    state.put("lists", nestedLists(State.MAX_DEPTH));
    assertThat(depth(state.get("maps"))).isEqualTo(500);
    assertThat(depth(state.get("lists"))).isEqualTo(500);

    assertThat(refused("deepMaps", nestedMaps(State.MAX_DEPTH + 1)).getMessage())
        .contains("'deepMaps'", "500 levels", "State.MAX_DEPTH");
    refused("deepLists", nestedLists(State.MAX_DEPTH + 1));
    // A record inside 499 maps adds two levels (itself and its map): 501.
    Object inRecord = new Holder(Map.of("a", "b"));
    for (int i = 0; i < State.MAX_DEPTH - 1; i++) {
      inRecord = Map.of("n", inRecord);
    }
    refused("deepRecord", inRecord);
  }

  @Test
  void aNonZeroNumberADoubleWouldTurnIntoZero_isRefused_notStoredAs0() {
    assertThat(refused("tiny", new BigDecimal("1e-400")).getMessage())
        .contains("'tiny'", "java.math.BigDecimal", "0.0");
    refused("tiny", Map.of("v", List.of(new BigDecimal("-1e-400"))));
    refused("tiny", new Amount(new BigDecimal("1e-400")));
    // Small numbers a double holds, and zero itself, are kept.
    state.put("small", new BigDecimal("1e-300"));
    state.put("zero", new BigDecimal("0E-400"));
    assertThat(state.get("small")).isEqualTo(1e-300);
    assertThat(state.get("zero")).isEqualTo(0.0);
    state.put("amount", new Amount(new BigDecimal("2.5")));
    assertThat(state.get("amount")).isEqualTo(Map.of("value", 2.5));
  }

  record Amount(BigDecimal value) {}

  private static Object nestedMaps(int levels) {
    Object v = "leaf";
    for (int i = 0; i < levels; i++) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("n", v);
      v = m;
    }
    return v;
  }

  private static Object nestedLists(int levels) {
    Object v = 1;
    for (int i = 0; i < levels; i++) {
      List<Object> l = new ArrayList<>();
      l.add(v);
      v = l;
    }
    return v;
  }

  private static int depth(Object v) {
    int d = 0;
    while (v instanceof Map<?, ?> || v instanceof List<?>) {
      d++;
      v = v instanceof Map<?, ?> m ? m.values().iterator().next() : ((List<?>) v).get(0);
    }
    return d;
  }
}
