package dev.adk4j.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.internal.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which values state accepts: JSON data and records or classes that survive a JSON round trip;
 * everything else (non-finite numbers, code, objects Jackson cannot rebuild) is refused at the
 * write naming the key and the type, and the state is left as it was.
 */
class StateValueTypesTest {

  private ConcurrentHashMap<String, Object> live;
  private State state;

  @BeforeEach
  void setUp() {
    live = new ConcurrentHashMap<>(Map.of("kept", 1));
    state = new State(live);
  }

  private void assertRefused(String key, Object value, String... messageParts) {
    assertThatThrownBy(() -> state.put(key, value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + key + "'")
        .hasMessageContaining(value.getClass().getName().split("\\$\\$")[0])
        .satisfies(
            e -> {
              for (String part : messageParts) {
                assertThat(e.getMessage()).contains(part);
              }
            });
    assertThat(live).containsOnlyKeys("kept");
    assertThat(state.hasDelta()).isFalse();
  }

  // ---- refused ----

  @Test
  void aBigDecimalBeyondTheRangeOfADouble_isRefused_notStoredAsInfinity() {
    assertRefused("big", new BigDecimal("1e400"), "Infinity");
    assertRefused("small", new BigDecimal("-1e400"), "-Infinity");
  }

  @Test
  void aNonFiniteNumberInsideARecord_isRefused() {
    assertRefused("reading", new Reading("t", Double.NaN), "NaN");
    assertRefused("reading", new Reading("t", Double.POSITIVE_INFINITY), "Infinity");
    assertRefused("wrapped", new Wrapped(new BigDecimal("2e308")), "Infinity");
  }

  @Test
  void aNonFiniteNumberInsideAMapWithOtherKeys_isRefused() {
    assertRefused("m", Map.of(1, new BigDecimal("1e999")), "Infinity");
  }

  @Test
  void aLambda_isRefused_asCode() {
    Supplier<String> lambda = () -> "x";
    assertRefused("callback", lambda, "lambda");
  }

  @Test
  void aThread_isRefused() {
    assertRefused("worker", new Thread(() -> {}), "cannot read it back");
  }

  @Test
  void aClassWithGetterOnlyProperties_isRefused_becauseItCannotBeReadBack() {
    assertRefused("counter", new GetterOnly(5), "cannot read it back");
  }

  @Test
  void aClassWhoseCopyWritesOtherJson_isRefused() {
    assertRefused("stamp", new FreshEachTime(), "does not survive a JSON round trip");
  }

  @Test
  void aPlainObject_isRefused() {
    assertRefused("o", new Object());
  }

  // ---- accepted, as their JSON round trip ----

  @Test
  void aRecord_isStoredAsItsJsonMap() {
    state.put("reading", new Reading("temp", 21.5));
    assertThat(live.get("reading")).isEqualTo(Map.of("label", "temp", "value", 21.5));
  }

  @Test
  void aBeanWithSetters_isStoredAsItsJsonMap() {
    Bean b = new Bean();
    b.setName("n");
    b.setTags(List.of("a", "b"));
    state.put("bean", b);
    assertThat(live.get("bean")).isEqualTo(Map.of("name", "n", "tags", List.of("a", "b")));
  }

  @Test
  void finiteBigNumbers_setsTimesAndGenaiTypes_areAccepted() {
    state.put("dec", new BigDecimal("12.5"));
    state.put("int", new BigInteger("123456789012345678901234567890"));
    state.put("set", new TreeSet<>(Set.of("b", "a")));
    state.put("at", Instant.parse("2026-01-02T03:04:05Z"));
    state.put("content", Content.fromParts(Part.fromText("hi")));
    state.put("numbers", new int[] {1, 2});
    assertThat(live.get("dec")).isEqualTo(12.5);
    assertThat(live.get("int")).isEqualTo(new BigInteger("123456789012345678901234567890"));
    assertThat(live.get("set")).isEqualTo(List.of("a", "b"));
    assertThat(live.get("at")).isEqualTo("2026-01-02T03:04:05Z");
    assertThat(live.get("content")).isInstanceOf(Map.class);
    assertThat(live.get("numbers")).isEqualTo(List.of(1, 2));
  }

  @Test
  void normalize_refusesANonFiniteNumber_nestedInPlainMaps() {
    Map<String, Object> nested = Map.of("a", List.of(Map.of("b", new BigDecimal("1e500"))));
    assertThatThrownBy(() -> Json.normalize("deep", nested))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'deep'")
        .hasMessageContaining("Infinity");
  }

  record Reading(String label, double value) {}

  record Wrapped(BigDecimal amount) {}

  /** Jackson can write its property but has nothing to set it with. */
  static final class GetterOnly {
    private final int count;

    GetterOnly(int count) {
      this.count = count;
    }

    public int getCount() {
      return count;
    }
  }

  /** Writes a value computed at each call: a copy read back does not write the same JSON. */
  static final class FreshEachTime {
    private static int calls;

    public int getCall() {
      return ++calls;
    }
  }

  /** A plain bean. */
  public static final class Bean {
    private String name;
    private List<String> tags;

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    public List<String> getTags() {
      return tags;
    }

    public void setTags(List<String> tags) {
      this.tags = tags;
    }
  }
}
