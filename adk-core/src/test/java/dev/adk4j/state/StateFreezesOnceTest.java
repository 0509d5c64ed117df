package dev.adk4j.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.events.EventActions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A value written through {@link State} is checked, normalized and frozen once, at the write, and
 * that one frozen copy is what the live state, the delta and the actions built from it share.
 */
class StateFreezesOnceTest {

  private final ConcurrentHashMap<String, Object> live = new ConcurrentHashMap<>();
  private final State state = new State(live);

  @Test
  void put_mapValue_isStoredAsAnUnmodifiableCopy() {
    Map<String, Object> value = new LinkedHashMap<>();
    List<Object> items = new ArrayList<>(List.of(1L, "two"));
    value.put("items", items);
    state.put("user:x", value);

    value.put("later", true);
    items.add("three");

    @SuppressWarnings("unchecked")
    Map<String, Object> stored = (Map<String, Object>) state.get("user:x");
    assertThat(stored).isEqualTo(Map.of("items", List.of(1, "two")));
    assertThat(stored.get("items")).isInstanceOf(List.class);
    assertThat(((List<?>) stored.get("items")).get(0)).isInstanceOf(Integer.class);
    assertThatThrownBy(() -> stored.put("y", 1)).isInstanceOf(UnsupportedOperationException.class);
    @SuppressWarnings("unchecked")
    List<Object> storedItems = (List<Object>) stored.get("items");
    assertThatThrownBy(() -> storedItems.add(3)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void put_sharesOneFrozenValue_withLiveStateDeltaAndActions() {
    state.put("user:x", Map.of("a", List.of(1, 2)));
    Object written = live.get("user:x");

    assertThat(state.delta().get("user:x")).isSameAs(written);
    EventActions actions = EventActions.builder().state(state).build();
    assertThat(actions.stateDelta().get("user:x")).isSameAs(written);
  }

  @Test
  void put_ofAValueReadBack_keepsItWithoutACopy() {
    state.put("k", Map.of("a", 1));
    Object first = state.get("k");
    state.put("other", first);
    assertThat(live.get("other")).isSameAs(first);
  }

  @Test
  void put_ofAnUnmodifiableViewOfUnnormalizedValues_isNormalized() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("n", 5L);
    state.put("k", java.util.Collections.unmodifiableMap(inner));
    @SuppressWarnings("unchecked")
    Map<String, Object> stored = (Map<String, Object>) state.get("k");
    assertThat(stored.get("n")).isEqualTo(5).isInstanceOf(Integer.class);
  }

  @Test
  void put_invalidKey_isRefusedNamingIt_andChangesNothing() {
    assertThatThrownBy(() -> state.put("user:", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'user:'");
    assertThat(live).isEmpty();
    assertThat(state.hasDelta()).isFalse();
  }

  @Test
  void builderState_takesDeltaExpectationsAndIncrements() {
    live.put("read", 1);
    state.get("read");
    state.put("read", 2);
    state.increment("count", 3);
    state.remove("gone");
    state.put("gone2", 1);
    state.remove("gone2");

    EventActions actions = EventActions.builder().state(state).build();

    assertThat(actions.stateDelta()).containsEntry("read", 2).containsEntry("count", 3);
    assertThat(actions.stateDelta()).containsKey("gone2");
    assertThat(actions.stateDelta().get("gone2")).isNull();
    assertThat(actions.expectedState()).containsEntry("read", 1);
    assertThat(actions.stateIncrements()).containsEntry("count", 3L);
    assertThatThrownBy(() -> actions.stateDelta().put("z", 1))
        .isInstanceOf(UnsupportedOperationException.class);
    // the state goes on recording without changing the built actions
    state.put("after", 1);
    assertThat(actions.stateDelta()).doesNotContainKey("after");
  }

  @Test
  void merge_withActionsThatDoNothing_isTheOtherActions() {
    EventActions some = EventActions.builder().putState("k", 1).escalate(true).build();
    assertThat(EventActions.empty().merge(some)).isSameAs(some);
    assertThat(some.merge(EventActions.empty())).isSameAs(some);
    EventActions expecting = EventActions.builder().expectState("k", 0).build();
    assertThat(EventActions.empty().merge(expecting).expectedState()).containsEntry("k", 0);
  }
}
