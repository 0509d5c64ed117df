package dev.adk4j.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JsonFreezeTest {

  @Test
  @SuppressWarnings("unchecked")
  void freeze_isADeepImmutableCopy_andCopyGivesAMutableOneBack() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("n", null);
    inner.put("list", new ArrayList<>(List.of(1, Map.of("x", "y"))));
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("b", inner);
    value.put("a", 1);

    @SuppressWarnings("unchecked")
    Map<String, Object> frozen = (Map<String, Object>) Json.freeze(value);
    assertThat(frozen).isEqualTo(value);
    assertThat(frozen.keySet()).containsExactly("b", "a");
    inner.put("later", true);
    ((List<Object>) inner.get("list")).add(2);
    assertThat(((Map<?, ?>) frozen.get("b")).containsKey("later")).isFalse();
    assertThat((List<?>) ((Map<?, ?>) frozen.get("b")).get("list")).hasSize(2);
    assertThatThrownBy(() -> frozen.put("c", 1)).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> ((List<Object>) ((Map<?, ?>) frozen.get("b")).get("list")).add(3))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(Json.freeze(frozen)).isSameAs(frozen);

    @SuppressWarnings("unchecked")
    Map<String, Object> thawed = (Map<String, Object>) Json.copy(frozen);
    thawed.put("c", 1);
    ((List<Object>) ((Map<String, Object>) thawed.get("b")).get("list")).add(3);
    assertThat(frozen).doesNotContainKey("c");
  }

  @Test
  void eventIds_areVersion4Uuids_andDistinct() {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      String id = Event.generateEventId();
      UUID uuid = UUID.fromString(id);
      assertThat(uuid.version()).isEqualTo(4);
      assertThat(uuid.variant()).isEqualTo(2);
      ids.add(id);
    }
    assertThat(ids).hasSize(10_000);
  }
}
