package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.ExecutableCode;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Language;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.events.EventCompaction;
import dev.adk4j.internal.Json;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The size bounds behind {@link SessionLimits}: never below the JSON actually written (or a value
 * over the limit would be stored), and close to it (or every event would be written to measure).
 */
class JsonSizesTest {

  private static final String AWKWARD =
      "quote \" backslash \\ newline \n tab \t bell \u0007 é ü € 😀 𝄞 \u2028 end";

  static Stream<Object> values() {
    Map<String, Object> nested = new LinkedHashMap<>();
    nested.put("s", AWKWARD);
    nested.put("n", null);
    nested.put("list", List.of(1, -2147483648, 9_007_199_254_740_993L, 1.0e-300, -0.0, true));
    nested.put("big", new BigInteger("-123456789012345678901234567890123456789"));
    nested.put("deep", Map.of("a", List.of(Map.of("b\"", "c\\")), "é", "x"));
    return Stream.of(
        "",
        AWKWARD,
        AWKWARD.repeat(10),
        0,
        Long.MIN_VALUE,
        -Double.MAX_VALUE,
        false,
        nested,
        List.of());
  }

  @ParameterizedTest
  @MethodSource("values")
  void valueBound_isAtLeastTheWrittenSize_andExactForLongStrings(Object value) {
    long written = bytes(Json.toJson(value));
    long bound = JsonSizes.valueAtMost(value);
    assertThat(bound).isGreaterThanOrEqualTo(written).isLessThanOrEqualTo(written * 6 + 30);
    if (value instanceof String) {
      assertThat(JsonSizes.stringSize((String) value)).isEqualTo(written);
      if (((String) value).length() > 256) {
        assertThat(bound).isEqualTo(written);
      }
    }
  }

  static Stream<Event> events() {
    Map<String, Object> delta = new LinkedHashMap<>();
    delta.put("k", AWKWARD);
    delta.put("user:n", 42);
    delta.put("gone", null);
    List<Part> parts = new ArrayList<>();
    parts.add(Part.fromText(AWKWARD));
    parts.add(Part.builder().text("thinking").thought(true).thoughtSignature(new byte[7]).build());
    parts.add(Part.fromFunctionCall("tool", Map.of("q", AWKWARD, "n", List.of(1, 2.5))));
    parts.add(
        Part.builder()
            .functionResponse(
                FunctionResponse.builder()
                    .id("call-1")
                    .name("tool")
                    .response(Map.of("result", AWKWARD))
                    .build())
            .build());
    parts.add(Part.fromBytes(new byte[1001], "image/png"));
    parts.add(
        Part.builder()
            .executableCode(
                ExecutableCode.builder().code("print(1)").language(Language.Known.PYTHON).build())
            .build());
    Event rich =
        Event.builder()
            .invocationId("inv-" + AWKWARD)
            .author("agent")
            .branch("root.child")
            .content(Content.builder().role("model").parts(parts).build())
            .partial(false)
            .turnComplete(true)
            .errorCode("E")
            .errorMessage(AWKWARD)
            .actions(
                EventActions.builder()
                    .stateDelta(delta)
                    .artifactDelta(Map.of("notes.txt", 3, "user:é.md", 0))
                    .transferToAgent("other")
                    .escalate(true)
                    .skipSummarization(true)
                    .compaction(
                        new EventCompaction(1L, 2L, Content.fromParts(Part.fromText(AWKWARD))))
                    .build())
            .build();
    Event plain = Event.builder().author("user").build();
    Event text =
        Event.builder().author("user").content(Content.fromParts(Part.fromText("hi"))).build();
    return Stream.of(rich, plain, text);
  }

  @ParameterizedTest
  @MethodSource("events")
  void eventBound_isAtLeastTheWrittenSize_andWithinAFewTimesOfIt(Event event) {
    long written = bytes(Json.toJson(event));
    long bound = JsonSizes.eventAtMost(event);
    assertThat(bound).isGreaterThanOrEqualTo(written).isLessThanOrEqualTo(written * 6 + 4096);
  }

  private static long bytes(String json) {
    return json.getBytes(StandardCharsets.UTF_8).length;
  }

  /**
   * The bounds count some fields of google-genai's types and write the value when any other is set.
   * A field added by a google-genai upgrade and named in neither list would be silently left out of
   * the bound (and a value over the limit stored): this fails first.
   */
  @org.junit.jupiter.api.Test
  void everyFieldOfTheCountedGenaiTypesIsEitherCountedOrWritten() {
    JsonSizes.COUNTED.forEach(
        (type, counted) -> {
          List<String> getters = new ArrayList<>();
          for (java.lang.reflect.Method m : type.getMethods()) {
            if (m.getParameterCount() == 0
                && m.getReturnType() == java.util.Optional.class
                && java.lang.reflect.Modifier.isAbstract(m.getModifiers())) {
              getters.add(m.getName());
            }
          }
          List<String> named = new ArrayList<>(counted);
          named.addAll(JsonSizes.WRITTEN.get(type));
          assertThat(named).as(type.getSimpleName()).containsExactlyInAnyOrderElementsOf(getters);
        });
  }
}
