package dev.adk4j.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.events.EventActions;
import dev.adk4j.internal.Json;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** What a {@link State} records besides its delta: reads, increments, and how it undoes writes. */
class StateReadsAndIncrementsTest {

  private final ConcurrentHashMap<String, Object> live =
      new ConcurrentHashMap<>(Map.of("user:count", 5, "app:name", "x", "s", 1));
  private final State state = new State(live);

  @Test
  void readThenWrite_isAReadModifyWrite_withTheValueRead() {
    int n = (Integer) state.get("user:count");
    state.put("user:count", n + 1);
    state.put("user:blind", 1); // written without being read: no expectation
    assertThat(state.get("app:name")).isEqualTo("x"); // read only: no expectation

    assertThat(state.expectations()).containsExactly(Map.entry("user:count", 5));
  }

  @Test
  void readOfAnAbsentKey_expectsItAbsent() {
    assertThat(state.containsKey("user:first")).isFalse();
    state.put("user:first", true);
    Map<String, Object> expectedAbsent = new HashMap<>();
    expectedAbsent.put("user:first", null);
    assertThat(state.expectations()).isEqualTo(expectedAbsent);
  }

  @Test
  void readAfterOwnWrite_addsNoExpectation_andTempKeysNeverExpect() {
    state.put("user:count", 9);
    state.get("user:count");
    state.put("user:count", 10);
    state.get("temp:x");
    state.put("temp:x", 1);
    assertThat(state.expectations()).isEmpty();
  }

  @Test
  void computeAndMerge_areReadModifyWrites() {
    state.compute("user:count", (k, v) -> (Integer) v * 2);
    state.merge("s", 1, (a, b) -> (Integer) a + (Integer) b);
    assertThat(state.expectations())
        .containsEntry("user:count", 5)
        .containsEntry("s", 1)
        .hasSize(2);
    assertThat(live).containsEntry("user:count", 10).containsEntry("s", 2);
  }

  @Test
  void increment_updatesTheLiveValue_andIsRecordedAsAnIncrement_notAnExpectation() {
    state.get("user:count");
    assertThat(state.increment("user:count", 2)).isEqualTo(7);
    assertThat(state.increment("user:count", 3)).isEqualTo(10);
    assertThat(state.increment("user:new", 1)).isEqualTo(1);

    assertThat(live).containsEntry("user:count", 10).containsEntry("user:new", 1);
    assertThat(state.increments()).containsEntry("user:count", 5L).containsEntry("user:new", 1L);
    assertThat(state.delta()).containsEntry("user:count", 10);
    assertThat(state.expectations()).isEmpty();
  }

  @Test
  void plainWriteAfterAnIncrement_replacesIt_andIncrementAfterAPlainWrite_foldsIntoIt() {
    state.increment("user:count", 1);
    state.put("user:count", 100);
    assertThat(state.increments()).isEmpty();
    state.increment("user:count", 1);
    assertThat(state.increments()).isEmpty();
    assertThat(state.delta()).containsEntry("user:count", 101);
  }

  @Test
  void increment_ofANonInteger_isRefusedNamingTheKey_andChangesNothing() {
    live.put("ratio", 0.5);
    assertThatThrownBy(() -> state.increment("app:name", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'app:name'");
    assertThatThrownBy(() -> state.increment("ratio", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'ratio'");
    live.put("big", Long.MAX_VALUE);
    assertThatThrownBy(() -> state.increment("big", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("overflows");
    assertThat(state.hasDelta()).isFalse();
  }

  @Test
  void discard_restoresWhatThisStateChanged_butNotOthersLaterWrites() {
    state.put("s", 2);
    state.remove("app:name");
    state.increment("user:count", 1);
    state.put("new", "v");
    live.put("s", 3); // another context changed it since

    state.discard();

    assertThat(live)
        .containsEntry("s", 3)
        .containsEntry("app:name", "x")
        .containsEntry("user:count", 5)
        .doesNotContainKey("new");
    assertThat(state.hasDelta()).isFalse();
    assertThat(state.increments()).isEmpty();
    assertThat(state.expectations()).isEmpty();
  }

  @Test
  void incremented_addsToTheStoredValue_absentCountingAsZero() {
    assertThat(State.incremented("k", null, 3)).isEqualTo(3);
    assertThat(State.incremented("k", 4_000_000_000L, 1)).isEqualTo(4_000_000_001L);
    assertThatThrownBy(() -> State.incremented("k", "x", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'k'");
  }

  @Test
  void mergedActions_addIncrements_andDropExpectationsOnKeysTheFirstWrote() {
    EventActions first =
        EventActions.builder().putState("a", 1).putState("c", 1).incrementState("c", 1).build();
    EventActions second =
        EventActions.builder()
            .putState("a", 2)
            .expectState("a", 1) // read the first step's unstored write
            .putState("c", 3)
            .incrementState("c", 2)
            .putState("d", 1)
            .expectState("d", null)
            .build();
    EventActions merged = first.merge(second);
    assertThat(merged.stateDelta()).containsEntry("a", 2).containsEntry("c", 3);
    assertThat(merged.stateIncrements()).containsExactly(Map.entry("c", 3L));
    Map<String, Object> expectedD = new HashMap<>();
    expectedD.put("d", null);
    assertThat(merged.expectedState()).isEqualTo(expectedD);
  }

  @Test
  void sameValue_comparesJsonValues() {
    assertThat(Json.sameValue(1, 1.0)).isTrue();
    assertThat(Json.sameValue(1L, 1)).isTrue();
    assertThat(Json.sameValue(Map.of("a", 1, "b", 2), Map.of("b", 2.0, "a", 1))).isTrue();
    assertThat(Json.sameValue(java.util.List.of(1, 2), java.util.List.of(2, 1))).isFalse();
    assertThat(Json.sameValue(null, 0)).isFalse();
    assertThat(Json.sameValue("1", 1)).isFalse();
  }
}
