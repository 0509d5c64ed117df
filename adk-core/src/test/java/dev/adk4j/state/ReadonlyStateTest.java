package dev.adk4j.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link ReadonlyState#of}: a live, read-only view that refuses every write naming the key. */
class ReadonlyStateTest {

  private ConcurrentHashMap<String, Object> live;
  private ReadonlyState view;
  private Map<String, Object> asMap;

  @BeforeEach
  @SuppressWarnings("unchecked")
  void setUp() {
    Map<String, Object> profile = new LinkedHashMap<>();
    profile.put("name", "Ada");
    profile.put("tags", new ArrayList<>(List.of("x")));
    live = new ConcurrentHashMap<>(Map.of("topic", "sessions", "user:profile", profile));
    view = ReadonlyState.of(live);
    asMap = (Map<String, Object>) view;
  }

  private void assertRefused(Consumer<Map<String, Object>> write, String key) {
    Map<String, Object> before = Map.copyOf(live);
    assertThatThrownBy(() -> write.accept(asMap))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("'" + key + "'")
        .hasMessageContaining("read-only");
    assertThat(live).isEqualTo(before);
  }

  @Test
  void everyMapWrite_isRefused_namingTheKey_andChangesNothing() {
    assertRefused(m -> m.put("new", 1), "new");
    assertRefused(m -> m.remove("topic"), "topic");
    assertRefused(m -> m.putAll(Map.of("other", 2)), "other");
    assertRefused(m -> m.putIfAbsent("topic", "x"), "topic");
    assertRefused(m -> m.replace("topic", "x"), "topic");
    assertRefused(m -> m.replace("topic", "sessions", "x"), "topic");
    assertRefused(m -> m.remove("topic", "sessions"), "topic");
    assertRefused(m -> m.compute("topic", (k, v) -> "x"), "topic");
    assertRefused(m -> m.computeIfAbsent("topic", k -> "x"), "topic");
    assertRefused(m -> m.computeIfPresent("topic", (k, v) -> "x"), "topic");
    assertRefused(m -> m.merge("topic", "x", (a, b) -> b), "topic");
    assertRefused(m -> m.keySet().remove("topic"), "topic");
    assertRefused(m -> m.values().remove("sessions"), "topic");
    assertRefused(m -> m.entrySet().removeIf(e -> e.getKey().equals("topic")), "topic");
    assertRefused(m -> m.entrySet().iterator().next().setValue("x"), firstKey());
    assertRefused(Map::clear, firstKey());
    assertRefused(m -> m.replaceAll((k, v) -> "x"), firstKey());
    assertRefused(
        m -> {
          Iterator<String> it = m.keySet().iterator();
          it.next();
          it.remove();
        },
        firstKey());
  }

  private String firstKey() {
    return asMap.keySet().iterator().next();
  }

  @Test
  @SuppressWarnings("unchecked")
  void reads_areLive_andNestedValuesAreCopies() {
    assertThat(view.get("topic")).isEqualTo("sessions");
    assertThat(view.containsKey("user:profile")).isTrue();
    assertThat(asMap).hasSize(2).containsEntry("topic", "sessions");

    Map<String, Object> profile = (Map<String, Object>) view.get("user:profile");
    profile.put("name", "Eve");
    Map<String, Object> fromAll = (Map<String, Object>) view.all().get("user:profile");
    fromAll.put("name", "Eve");
    asMap
        .values()
        .forEach(
            v -> {
              if (v instanceof Map) {
                ((Map<String, Object>) v).put("name", "Eve");
              }
            });
    assertThat(live.get("user:profile")).isEqualTo(Map.of("name", "Ada", "tags", List.of("x")));

    live.put("later", true);
    assertThat(view.get("later")).isEqualTo(true);
    assertThat(view.all()).containsEntry("later", true);
    assertThat(view.get("absent")).isNull();
    assertThat(view.containsKey("absent")).isFalse();
  }
}
