package dev.adk4j.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.internal.Json;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A tool's response is the JSON round trip of what its method returned. Plain values are copied
 * without writing JSON; this checks that the copy is exactly what Jackson's round trip gives, types
 * of numbers included, and that everything else still goes through Jackson.
 */
class FunctionResultsTest {

  record Point(int x, double y) {}

  static Stream<Object> results() {
    Map<String, Object> nested = new LinkedHashMap<>();
    nested.put("small", 3L);
    nested.put("big", 9_007_199_254_740_993L);
    nested.put("int", -7);
    nested.put("double", 0.1);
    nested.put("whole double", 2.0);
    nested.put("flag", true);
    nested.put("none", null);
    nested.put("list", Arrays.asList(1, 2L, "x", null, List.of(Map.of("k", "v"))));
    Map<Object, Object> intKeys = new HashMap<>(Map.of(1, "one"));
    return Stream.of(
        nested,
        List.of(1L, 2.5, "s"),
        "text",
        42L,
        Long.MAX_VALUE,
        Double.NaN,
        Double.POSITIVE_INFINITY,
        1.5f,
        (short) 3,
        new BigDecimal("1.10"),
        intKeys,
        Map.of("p", new Point(1, 2.5)),
        Set.of("only"),
        new int[] {1, 2});
  }

  @ParameterizedTest
  @MethodSource("results")
  void theResponseIsTheJacksonRoundTripOfTheResult(Object result) throws Exception {
    Object expected =
        Json.reader().forType(Object.class).readValue(Json.writer().writeValueAsBytes(result));

    Map<String, Object> response = FunctionResults.toResponse(Optional.of(result));

    Object actual = expected instanceof Map ? response : response.get("result");
    assertThat(actual).isEqualTo(expected);
    assertThat(types(actual)).isEqualTo(types(expected));
  }

  /** The classes of a value and everything in it, so that 3 and 3L are told apart. */
  private static String types(Object value) {
    if (value instanceof Map<?, ?> map) {
      StringBuilder sb = new StringBuilder("{");
      map.forEach((k, v) -> sb.append(k).append('=').append(types(v)).append(','));
      return sb.append('}').toString();
    }
    if (value instanceof List<?> list) {
      return list.stream().map(FunctionResultsTest::types).toList().toString();
    }
    return value == null ? "null" : value.getClass().getSimpleName();
  }
}
