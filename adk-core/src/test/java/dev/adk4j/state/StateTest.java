package dev.adk4j.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StateTest {

  private ConcurrentHashMap<String, Object> live;
  private State state;

  @BeforeEach
  void setUp() {
    live = new ConcurrentHashMap<>(Map.of("a", 1, "b", 2, "c", 3));
    state = new State(live);
  }

  private Map<String, Object> removal(String key) {
    Map<String, Object> m = new HashMap<>();
    m.put(key, null);
    return m;
  }

  @Test
  void put_writesLiveStateAndDelta() {
    assertThat(state.put("x", "v")).isNull();
    assertThat(live).containsEntry("x", "v");
    assertThat(state.delta()).containsExactly(Map.entry("x", "v"));
    assertThat(state.hasDelta()).isTrue();
  }

  @Test
  void freshState_hasNoDelta() {
    assertThat(state.hasDelta()).isFalse();
    assertThat(state.get("a")).isEqualTo(1);
    assertThat(state.getOrDefault("zz", 9)).isEqualTo(9);
  }

  @Test
  void set_isPut() {
    state.set("user:name", "Alice");
    assertThat(state.delta()).containsEntry("user:name", "Alice");
  }

  @Test
  void putNull_removes() {
    state.put("a", null);
    assertThat(live).doesNotContainKey("a");
    assertThat(state.delta()).isEqualTo(removal("a"));
  }

  @Test
  void putAll_recordsEveryKey_andABadValueLeavesNothingWritten() {
    state.putAll(Map.of("x", 1, "y", 2));
    assertThat(state.delta()).containsEntry("x", 1).containsEntry("y", 2);

    Map<String, Object> bad = new HashMap<>();
    bad.put("z", 3);
    bad.put("broken", new Object());
    assertThatThrownBy(() -> state.putAll(bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("broken");
    assertThat(live).doesNotContainKey("z");
    assertThat(state.delta()).doesNotContainKey("z");
  }

  @Test
  void remove_isExplicitInTheDelta() {
    assertThat(state.remove("a")).isEqualTo(1);
    assertThat(live).doesNotContainKey("a");
    assertThat(state.delta()).isEqualTo(removal("a"));
    assertThat(state.get("a")).isNull();
    assertThat(state.containsKey("a")).isFalse();
  }

  @Test
  void removeOfAbsentKey_recordsNothing() {
    assertThat(state.remove("nope")).isNull();
    assertThat(state.hasDelta()).isFalse();
  }

  @Test
  void conditionalRemove() {
    assertThat(state.remove("a", 99)).isFalse();
    assertThat(state.hasDelta()).isFalse();
    assertThat(state.remove("a", 1)).isTrue();
    assertThat(state.delta()).isEqualTo(removal("a"));
  }

  @Test
  void putIfAbsent() {
    assertThat(state.putIfAbsent("a", 100)).isEqualTo(1);
    assertThat(state.hasDelta()).isFalse();
    assertThat(state.putIfAbsent("n", 5)).isNull();
    assertThat(state.delta()).containsExactly(Map.entry("n", 5));
  }

  @Test
  void replace() {
    assertThat(state.replace("nope", 1)).isNull();
    assertThat(state.hasDelta()).isFalse();
    assertThat(state.replace("a", 10)).isEqualTo(1);
    assertThat(state.replace("b", 99, 20)).isFalse();
    assertThat(state.replace("b", 2, 20)).isTrue();
    assertThat(state.delta()).containsOnly(Map.entry("a", 10), Map.entry("b", 20));
  }

  @Test
  void computeFamily() {
    assertThat(state.compute("a", (k, v) -> (Integer) v + 1)).isEqualTo(2);
    assertThat(state.computeIfAbsent("a", k -> 100)).isEqualTo(2);
    assertThat(state.computeIfAbsent("n", k -> 7)).isEqualTo(7);
    assertThat(state.computeIfPresent("b", (k, v) -> null)).isNull();
    assertThat(state.computeIfPresent("missing", (k, v) -> 1)).isNull();
    assertThat(state.compute("missing2", (k, v) -> null)).isNull();
    Map<String, Object> expected = new HashMap<>();
    expected.put("a", 2);
    expected.put("n", 7);
    expected.put("b", null);
    assertThat(state.delta()).isEqualTo(expected);
    assertThat(live).doesNotContainKeys("b", "missing", "missing2");
  }

  @Test
  void merge() {
    state.merge("a", 5, (old, v) -> (Integer) old + (Integer) v);
    state.merge("new", "x", (old, v) -> old + "" + v);
    state.merge("c", 0, (old, v) -> null);
    assertThat(live).containsEntry("a", 6).containsEntry("new", "x").doesNotContainKey("c");
    assertThat(state.delta()).containsEntry("a", 6).containsEntry("new", "x").containsKey("c");
    assertThat(state.delta().get("c")).isNull();
  }

  @Test
  void replaceAll_recordsEveryKey() {
    state.replaceAll((k, v) -> (Integer) v * 10);
    assertThat(state.delta())
        .containsOnly(Map.entry("a", 10), Map.entry("b", 20), Map.entry("c", 30));
  }

  @Test
  void clear_recordsRemovalOfEveryKey() {
    state.clear();
    assertThat(live).isEmpty();
    assertThat(state.delta()).containsOnlyKeys("a", "b", "c");
    assertThat(state.delta().values()).containsOnlyNulls();
  }

  @Test
  void removalThroughKeySet_andItsIterator() {
    state.keySet().remove("a");
    Iterator<String> it = state.keySet().iterator();
    while (it.hasNext()) {
      if (it.next().equals("b")) {
        it.remove();
      }
    }
    state.keySet().removeIf(k -> k.equals("c"));
    assertThat(live).isEmpty();
    assertThat(state.delta()).containsOnlyKeys("a", "b", "c");
  }

  @Test
  void removalThroughValues_andItsIterator() {
    state.values().remove(1);
    state.values().removeIf(v -> v.equals(2));
    Iterator<Object> it = state.values().iterator();
    it.next();
    it.remove();
    assertThat(live).isEmpty();
    assertThat(state.delta()).containsOnlyKeys("a", "b", "c");
  }

  @Test
  void aViewIteratorsRemove_needsANextFirst_andRemovesOnce() {
    Iterator<String> keys = state.keySet().iterator();
    assertThatThrownBy(keys::remove).isInstanceOf(IllegalStateException.class);
    Iterator<Map.Entry<String, Object>> entries = state.entrySet().iterator();
    String first = entries.next().getKey();
    entries.remove();
    assertThatThrownBy(entries::remove).isInstanceOf(IllegalStateException.class);
    assertThat(live).doesNotContainKey(first).hasSize(2);
    assertThat(state.delta()).containsOnlyKeys(first);
  }

  @Test
  void entrySet_removalAndSetValue_areRecorded() {
    state.entrySet().removeIf(e -> e.getKey().equals("a"));
    state.entrySet().remove(Map.entry("b", 2));
    for (Map.Entry<String, Object> e : state.entrySet()) {
      e.setValue("changed");
    }
    assertThat(live).containsExactly(Map.entry("c", "changed"));
    assertThat(state.delta()).containsOnlyKeys("a", "b", "c");
    assertThat(state.delta().get("c")).isEqualTo("changed");
    state.entrySet().clear();
    assertThat(live).isEmpty();
  }

  @Test
  void unserializableValue_isRefusedNamingTheKey_andNothingChanges() {
    assertThatThrownBy(() -> state.put("bad", new Object()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad");
    Map<String, Object> cyclic = new HashMap<>();
    cyclic.put("self", cyclic);
    assertThatThrownBy(() -> state.put("loop", cyclic))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("loop");
    List<Object> cyclicList = new ArrayList<>();
    cyclicList.add(cyclicList);
    assertThatThrownBy(() -> state.put("loop2", cyclicList))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("loop2");
    assertThatThrownBy(() -> state.put("nan", Double.NaN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nan");
    assertThatThrownBy(() -> state.merge("a", new Object(), (o, v) -> v))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(live).containsOnlyKeys("a", "b", "c");
    assertThat(state.hasDelta()).isFalse();
  }

  @Test
  void invalidKeys_areRefused() {
    assertThatThrownBy(() -> state.put("", 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> state.put("temp:", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("temp:");
    assertThatThrownBy(() -> state.put(null, 1)).isInstanceOf(IllegalArgumentException.class);
  }

  record Profile(String name, int age) {}

  @Test
  void valuesAreStoredAsTheirJsonRoundTrip() {
    state.put("profile", new Profile("Alice", 30));
    state.put("long", 5L);
    state.put("float", 1.5f);
    List<String> list = new ArrayList<>(List.of("x"));
    state.put("list", list);
    list.add("y");

    assertThat(state.get("profile")).isEqualTo(Map.of("name", "Alice", "age", 30));
    assertThat(state.get("long")).isEqualTo(5);
    assertThat(state.get("float")).isEqualTo(1.5);
    assertThat(state.get("list")).isEqualTo(List.of("x"));
  }

  @Test
  void nestedValues_areNormalizedAllTheWayDown() {
    Map<Object, Object> intKeys = new HashMap<>();
    intKeys.put(1, "one");
    Map<String, Object> nested = new HashMap<>();
    nested.put("profile", new Profile("Bob", 40));
    nested.put("ids", List.of(7L, 2.5f));
    nested.put("byNumber", intKeys);
    state.put("n", nested);
    assertThat(state.get("n"))
        .isEqualTo(
            Map.of(
                "profile", Map.of("name", "Bob", "age", 40),
                "ids", List.of(7, 2.5),
                "byNumber", Map.of("1", "one")));
  }

  @Test
  void tooDeeplyNestedValue_isRefused() {
    List<Object> deep = new ArrayList<>();
    List<Object> cursor = deep;
    for (int i = 0; i < 2000; i++) {
      List<Object> next = new ArrayList<>();
      cursor.add(next);
      cursor = next;
    }
    assertThatThrownBy(() -> state.put("deep", deep))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("deep");
    assertThat(state.hasDelta()).isFalse();
  }

  @Test
  void removedSentinel_isARemoval() {
    state.put("a", State.REMOVED);
    assertThat(live).doesNotContainKey("a");
    assertThat(state.delta()).isEqualTo(removal("a"));
  }

  @Test
  void all_isAnImmutableSnapshot() {
    Map<String, Object> snapshot = state.all();
    state.put("later", 1);
    assertThat(snapshot).doesNotContainKey("later");
    assertThatThrownBy(() -> snapshot.put("x", 1))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void twoStatesOverOneLiveMap_seeEachOthersWrites_butKeepTheirOwnDeltas() {
    State other = new State(live);
    state.put("mine", 1);
    other.put("theirs", 2);
    assertThat(state.get("theirs")).isEqualTo(2);
    assertThat(other.get("mine")).isEqualTo(1);
    assertThat(state.delta()).containsOnlyKeys("mine");
    assertThat(other.delta()).containsOnlyKeys("theirs");
  }

  @Test
  void concurrentWrites_areAllRecorded() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int thread = t;
      futures.add(
          pool.submit(
              () -> {
                for (int i = 0; i < 500; i++) {
                  state.put("t" + thread + "_" + i, i);
                  state.merge("counter", 1, (a, b) -> (Integer) a + (Integer) b);
                }
              }));
    }
    for (Future<?> f : futures) {
      f.get(1, TimeUnit.MINUTES);
    }
    pool.shutdown();
    assertThat(state.get("counter")).isEqualTo(2000);
    assertThat(state.delta()).hasSize(2001).containsEntry("counter", 2000);
  }

  @Test
  void scope_split_routesByPrefix_andDropsTemp() {
    Map<String, Object> delta = new HashMap<>();
    delta.put("app:a", 1);
    delta.put("user:u", 2);
    delta.put("temp:t", 3);
    delta.put("s", 4);
    delta.put("x:y", 5);
    delta.put("gone", null);
    Scope.Split split = Scope.split(delta);
    assertThat(split.app()).containsOnlyKeys("app:a");
    assertThat(split.user()).containsOnlyKeys("user:u");
    assertThat(split.session()).containsOnlyKeys("s", "x:y", "gone");
    assertThat(Scope.of("temp:t")).isEqualTo(Scope.TEMP);
    assertThat(Scope.withoutTemp(delta)).doesNotContainKey("temp:t").hasSize(5);
  }
}
