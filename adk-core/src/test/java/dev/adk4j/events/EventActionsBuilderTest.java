package dev.adk4j.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.state.State;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Built actions hold their own read-only copies of the builder's maps: neither the builder nor the
 * caller's map may change what was built.
 */
class EventActionsBuilderTest {

  @Test
  void aBuilderReusedAfterBuild_neverChangesTheActionsItBuilt() {
    EventActions.Builder b = EventActions.builder().putState("a", 1);
    EventActions first = b.build();
    b.putState("b", 2).removeState("a");
    EventActions second = b.build();
    b.stateDelta(Map.of("c", 3));
    EventActions third = b.build();

    assertThat(first.stateDelta()).containsExactly(Map.entry("a", 1));
    Map<String, Object> secondExpected = new LinkedHashMap<>();
    secondExpected.put("a", null);
    secondExpected.put("b", 2);
    assertThat(second.stateDelta()).isEqualTo(secondExpected);
    assertThat(third.stateDelta()).containsExactly(Map.entry("c", 3));
  }

  @Test
  void theDeltaIsACopyOfTheCallersMap_andReadOnly() {
    Map<String, Object> mine = new HashMap<>(Map.of("k", "v", "gone", State.REMOVED));
    EventActions actions = EventActions.builder().stateDelta(mine).build();
    mine.put("k", "changed");
    mine.put("new", 1);

    assertThat(actions.stateDelta()).containsEntry("k", "v").containsEntry("gone", null).hasSize(2);
    assertThatThrownBy(() -> actions.stateDelta().put("x", 1))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void anImmutableDelta_isReadOnly_andAnswersNullQueries() {
    EventActions.Builder b = EventActions.builder().stateDelta(Map.of("a", 1, "user:b", "x"));
    EventActions built = b.build();

    assertThat(built.stateDelta()).isEqualTo(Map.of("a", 1, "user:b", "x"));
    assertThat(built.stateDelta().containsKey(null)).isFalse();
    assertThat(built.stateDelta().get(null)).isNull();
    assertThat(built.stateDelta().containsValue(null)).isFalse();
    assertThat(built.stateDelta().keySet().contains(null)).isFalse();
    assertThatThrownBy(() -> built.stateDelta().put("c", 2))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> built.stateDelta().entrySet().iterator().next().setValue(2))
        .isInstanceOf(UnsupportedOperationException.class);

    // A later write to the builder leaves what was built as it was.
    EventActions next = b.putState("c", 3).removeState("a").build();
    assertThat(built.stateDelta()).hasSize(2).containsEntry("a", 1);
    Map<String, Object> expected = new HashMap<>(Map.of("user:b", "x", "c", 3));
    expected.put("a", null);
    assertThat(next.stateDelta()).isEqualTo(expected);
    assertThat(built.toBuilder().build()).isEqualTo(built);
    assertThat(built.merge(next).stateDelta()).isEqualTo(expected);
  }

  @Test
  void anImmutableDeltaWithRemovals_isCopied_withTheRemovalsAsNull() {
    EventActions actions =
        EventActions.builder().stateDelta(Map.of("gone", State.REMOVED, "k", "v")).build();

    assertThat(actions.stateDelta()).containsEntry("gone", null).containsEntry("k", "v");
    assertThat(actions.stateDelta().containsValue(null)).isTrue();
  }

  @Test
  void mergeAndToBuilder_leaveBothSourcesAsTheyWere() {
    EventActions left = EventActions.builder().putState("a", 1).putState("b", 1).build();
    EventActions right = EventActions.builder().putState("b", 2).putState("c", 3).build();

    EventActions merged = left.merge(right);
    EventActions changed = left.toBuilder().putState("a", 9).build();

    assertThat(merged.stateDelta())
        .containsExactly(Map.entry("a", 1), Map.entry("b", 2), Map.entry("c", 3));
    assertThat(left.stateDelta()).containsExactly(Map.entry("a", 1), Map.entry("b", 1));
    assertThat(right.stateDelta()).containsExactly(Map.entry("b", 2), Map.entry("c", 3));
    assertThat(changed.stateDelta()).containsExactly(Map.entry("a", 9), Map.entry("b", 1));
  }

  @Test
  void aBuiltValue_neverChanges_whenItsBuilderOrADerivedBuilderWritesOn() {
    EventActions.Builder b = EventActions.builder().putState("a", 1).incrementState("n", 2);
    EventActions first = b.build();
    b.putState("b", 2).incrementState("n", 3).artifactDelta(Map.of("f", 1));
    EventActions second = b.build();
    EventActions derived = first.toBuilder().putState("c", 3).removeState("a").build();

    assertThat(first.stateDelta()).containsExactly(Map.entry("a", 1));
    assertThat(first.stateIncrements()).containsExactly(Map.entry("n", 2L));
    assertThat(first.artifactDelta()).isEmpty();
    assertThat(second.stateDelta()).containsOnlyKeys("a", "b");
    assertThat(second.stateIncrements()).containsExactly(Map.entry("n", 5L));
    assertThat(derived.stateDelta()).containsOnlyKeys("a", "c").containsEntry("a", null);
    assertThat(first.toBuilder().build().stateDelta()).isEqualTo(first.stateDelta());
    assertThatThrownBy(() -> first.stateDelta().put("x", 1))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
