package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.state.Scope;
import dev.adk4j.state.State;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The copies {@link InMemorySessionService} hands out share the stored state until they are written
 * (copy on write): these tests check that this is invisible, i.e. each copy behaves as its own
 * {@link ConcurrentMap} of its own values: isolated from the store and from every other copy
 * whichever side writes, safe for concurrent writers on one copy (parallel tool calls), with views
 * that read and write like a map's, and map or list values a caller may change in place.
 *
 * <p>A copy's state is written the way an invocation writes it: through {@link State} over the
 * copy's state map ({@code Session.stateMap()}, which only this package's services write).
 */
class InMemorySessionCopiesTest {

  static final String APP = "cow_app";
  static final String USER = "alice";

  final InMemorySessionService service = new InMemorySessionService();
  final ExecutorService pool = Executors.newFixedThreadPool(4);

  @AfterEach
  void stopPool() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  /** A session with app, user and session keys, scalars, a list and a map. */
  Session createRich(String id) {
    Map<String, Object> initial = new HashMap<>();
    initial.put("app:motd", "hello");
    initial.put("user:name", "Alice");
    initial.put("user:tags", new ArrayList<>(List.of("a", "b")));
    initial.put("count", 1);
    initial.put("cart", new ArrayList<>(List.of("book")));
    initial.put("profile", new HashMap<>(Map.of("city", "Paris")));
    return service.createSession(APP, USER, initial, id).blockingGet();
  }

  Session createScalars(String id) {
    return service
        .createSession(APP, USER, Map.of("app:motd", "hi", "user:n", 2, "k", "v", "x", 1.5), id)
        .blockingGet();
  }

  Session get(String id) {
    return service.getSession(APP, USER, id).blockingGet();
  }

  static Map<String, Object> expectedRich() {
    Map<String, Object> m = new HashMap<>();
    m.put("app:motd", "hello");
    m.put("user:name", "Alice");
    m.put("user:tags", List.of("a", "b"));
    m.put("count", 1);
    m.put("cart", List.of("book"));
    m.put("profile", Map.of("city", "Paris"));
    return m;
  }

  static State stateOf(Session s) {
    return new State(s.stateMap());
  }

  void append(Session s, Map<String, Object> delta) {
    service
        .appendEvent(
            s,
            Event.builder()
                .author("test")
                .actions(EventActions.builder().stateDelta(delta).build())
                .build())
        .blockingGet();
  }

  // ---- isolation ----

  @Test
  void writesThroughOneCopy_reachNeitherTheStoreNorAnotherCopy() {
    createRich("s1");
    Session a = get("s1");
    Session b = get("s1");
    State state = stateOf(a);
    state.put("count", 2);
    state.put("app:motd", "changed");
    state.remove("user:name");
    state.put("new", "value");
    @SuppressWarnings("unchecked")
    List<Object> cart = (List<Object>) state.get("cart");
    cart.add("pen");

    assertThat(a.state())
        .containsEntry("count", 2)
        .containsEntry("app:motd", "changed")
        .doesNotContainKey("user:name")
        .containsEntry("new", "value")
        .containsEntry("cart", List.of("book", "pen"));
    assertThat(b.state()).isEqualTo(expectedRich());
    assertThat(get("s1").state()).isEqualTo(expectedRich());
    assertThat(state.delta()).containsOnlyKeys("count", "app:motd", "user:name", "new");
  }

  @Test
  void appendsAfterARead_reachLaterReadsButNotTheCopiesReadBefore() {
    createRich("s1");
    createRich("s2");
    Session before = get("s1");
    Session otherSessionBefore = get("s2");
    Session writer = get("s1");
    append(writer, Map.of("app:motd", "news", "user:name", "Al", "count", 5));

    assertThat(before.state()).isEqualTo(expectedRich());
    assertThat(otherSessionBefore.state()).isEqualTo(expectedRich());
    assertThat(writer.state())
        .containsEntry("app:motd", "news")
        .containsEntry("user:name", "Al")
        .containsEntry("count", 5);
    assertThat(get("s1").state())
        .containsEntry("app:motd", "news")
        .containsEntry("user:name", "Al")
        .containsEntry("count", 5)
        .containsEntry("cart", List.of("book"));
    // app: and user: values show in the user's other session from its next read; its own
    // session keys stay its own.
    assertThat(get("s2").state())
        .containsEntry("app:motd", "news")
        .containsEntry("user:name", "Al")
        .containsEntry("count", 1);
    // another user of the app sees the app: value only
    Session bob = service.createSession(APP, "bob", null, "b1").blockingGet();
    assertThat(bob.state()).containsEntry("app:motd", "news").doesNotContainKey("user:name");
  }

  @Test
  void repeatedReadsOfAnUnchangedSession_areEqualAndIndependent() {
    createRich("s1");
    Session first = get("s1");
    Session second = get("s1");
    assertThat(first.state()).isEqualTo(second.state()).isEqualTo(expectedRich());
    assertThat(first.state().hashCode()).isEqualTo(expectedRich().hashCode());
    stateOf(first).put("count", 9);
    assertThat(second.state()).containsEntry("count", 1);
    assertThat(get("s1").state()).containsEntry("count", 1);
  }

  @Test
  void copyOfACopy_isIsolatedFromItsSourceBothWays() {
    createRich("s1");
    Session loaded = get("s1");
    Session copy = loaded.copy();
    stateOf(copy).put("count", 2);
    assertThat(loaded.state()).containsEntry("count", 1);
    stateOf(loaded).put("count", 3);
    Session copyOfWritten = loaded.copy();
    stateOf(loaded).put("count", 4);
    assertThat(copy.state()).containsEntry("count", 2);
    assertThat(copyOfWritten.state()).containsEntry("count", 3);
    @SuppressWarnings("unchecked")
    List<Object> cart = (List<Object>) copyOfWritten.state().get("cart");
    cart.add("pen");
    assertThat(loaded.state()).containsEntry("cart", List.of("book"));
    assertThat(get("s1").state()).isEqualTo(expectedRich());
  }

  // ---- values a caller may change ----

  @Test
  void aListOrMapReadFromACopy_isTheCopysOwnMutableValue() {
    createRich("s1");
    Session a = get("s1");
    Session b = get("s1");
    @SuppressWarnings("unchecked")
    List<Object> cart = (List<Object>) a.state().get("cart");
    cart.add("pen");
    @SuppressWarnings("unchecked")
    Map<String, Object> profile = (Map<String, Object>) a.state().get("profile");
    profile.put("city", "Rome");

    // the same objects on every read of this copy, so a change in place shows in it
    assertThat(a.state().get("cart")).isSameAs(cart).isEqualTo(List.of("book", "pen"));
    assertThat(a.state().get("profile")).isEqualTo(Map.of("city", "Rome"));
    assertThat(b.state()).isEqualTo(expectedRich());
    assertThat(get("s1").state()).isEqualTo(expectedRich());
  }

  @Test
  void readModifyWriteOfAList_throughState_isStored() {
    createRich("s1");
    Session s = get("s1");
    State state = stateOf(s);
    @SuppressWarnings("unchecked")
    List<Object> cart = (List<Object>) state.get("cart");
    cart.add("pen");
    state.put("cart", cart);
    service
        .appendEvent(
            s,
            Event.builder()
                .author("tool")
                .actions(
                    EventActions.builder()
                        .stateDelta(state.delta())
                        .expectedState(state.expectations())
                        .build())
                .build())
        .blockingGet();
    assertThat(get("s1").state()).containsEntry("cart", List.of("book", "pen"));
  }

  @Test
  void valuesHandedOutByIteration_areTheCopysOwn() {
    createRich("s1");
    Session a = get("s1");
    for (Map.Entry<String, Object> e : a.state().entrySet()) {
      if (e.getKey().equals("user:tags")) {
        @SuppressWarnings("unchecked")
        List<Object> tags = (List<Object>) e.getValue();
        tags.add("c");
      }
    }
    a.state()
        .forEach(
            (k, v) -> {
              if (k.equals("profile")) {
                @SuppressWarnings("unchecked")
                Map<String, Object> profile = (Map<String, Object>) v;
                profile.put("zip", "75001");
              }
            });
    assertThat(a.state().get("user:tags")).isEqualTo(List.of("a", "b", "c"));
    assertThat(a.state().get("profile")).isEqualTo(Map.of("city", "Paris", "zip", "75001"));
    assertThat(get("s1").state()).isEqualTo(expectedRich());
  }

  @Test
  void theReadOnlyView_staysReadOnly() {
    createScalars("s1");
    Session s = get("s1");
    assertThatThrownBy(() -> s.state().put("k", "w"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> s.state().keySet().remove("k"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> s.state().entrySet().iterator().next().setValue("w"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> s.state().values().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(s.state()).containsEntry("k", "v");
  }

  // ---- views ----

  @Test
  void views_readAndWriteLikeAMap_beforeAndAfterTheCopyIsTaken() {
    createScalars("s1");
    Session s = get("s1");
    ConcurrentMap<String, Object> live = s.stateMap();
    Map<String, Object> expected =
        new HashMap<>(Map.of("app:motd", "hi", "user:n", 2, "k", "v", "x", 1.5));

    assertThat(live).isEqualTo(expected).hasSameHashCodeAs(expected);
    assertThat(live.toString()).startsWith("{").contains("k=v").contains("user:n=2");
    assertThat(new HashSet<>(live.keySet())).isEqualTo(expected.keySet());
    assertThat(new ArrayList<>(live.values()))
        .containsExactlyInAnyOrderElementsOf(expected.values());
    assertThat(live.entrySet()).contains(Map.entry("k", "v")).doesNotContain(Map.entry("k", "w"));
    assertThat(live.containsValue(1.5)).isTrue();

    // removal by a key iterator, then by an entry iterator (the first takes the copy)
    Iterator<String> keys = live.keySet().iterator();
    while (keys.hasNext()) {
      if (keys.next().equals("x")) {
        keys.remove();
      }
    }
    expected.remove("x");
    assertThat(live).isEqualTo(expected);
    Iterator<Map.Entry<String, Object>> entries = live.entrySet().iterator();
    while (entries.hasNext()) {
      Map.Entry<String, Object> e = entries.next();
      if (e.getKey().equals("k")) {
        entries.remove();
      } else if (e.getKey().equals("user:n")) {
        assertThat(e.setValue(3)).isEqualTo(2);
      }
    }
    expected.remove("k");
    expected.put("user:n", 3);
    assertThat(live).isEqualTo(expected).hasSameHashCodeAs(expected);
    assertThat(live.values().remove("hi")).isTrue();
    expected.remove("app:motd");
    assertThat(live).isEqualTo(expected);
    assertThat(live.entrySet().remove(Map.entry("user:n", 3))).isTrue();
    assertThat(live).isEmpty();
    assertThat(get("s1").state())
        .isEqualTo(Map.of("app:motd", "hi", "user:n", 2, "k", "v", "x", 1.5));
  }

  @Test
  void entrySetValue_onAFreshCopy_writesThroughToItOnly() {
    createScalars("s1");
    Session s = get("s1");
    ConcurrentMap<String, Object> live = s.stateMap();
    for (Map.Entry<String, Object> e : live.entrySet()) {
      if (e.getKey().equals("k")) {
        assertThat(e.setValue("w")).isEqualTo("v");
        assertThat(e.getValue()).isEqualTo("w");
      }
    }
    assertThat(s.state()).containsEntry("k", "w");
    assertThat(get("s1").state()).containsEntry("k", "v");
  }

  @Test
  void removeIf_removesOnlyTheMatchingKeys() {
    createScalars("s1");
    Session untouched = get("s1");
    ConcurrentMap<String, Object> live = untouched.stateMap();
    assertThat(live.keySet().removeIf(k -> Scope.of(k) == Scope.TEMP)).isFalse();
    assertThat(live.remove("absent")).isNull();
    assertThat(live).hasSize(4);

    Session s = get("s1");
    State state = stateOf(s);
    state.put("temp:a", 1);
    state.put("temp:b", List.of(1));
    assertThat(s.stateMap().keySet().removeIf(k -> Scope.of(k) == Scope.TEMP)).isTrue();
    assertThat(s.state()).isEqualTo(Map.of("app:motd", "hi", "user:n", 2, "k", "v", "x", 1.5));
  }

  @Test
  void mapOperations_onAFreshCopy_behaveAsOnAConcurrentHashMap() {
    createScalars("s1");
    ConcurrentMap<String, Object> live = get("s1").stateMap();
    assertThat(live.putIfAbsent("k", "w")).isEqualTo("v");
    assertThat(live.replace("k", "nope", "w")).isFalse();
    assertThat(live.replace("k", "v", "w")).isTrue();
    assertThat(live.computeIfAbsent("new", key -> key + "!")).isEqualTo("new!");
    assertThat(live.merge("user:n", 5, (a, b) -> (Integer) a + (Integer) b)).isEqualTo(7);
    assertThat(live.computeIfPresent("x", (key, v) -> null)).isNull();
    assertThat(live.remove("app:motd", "hi")).isTrue();
    assertThat(live.getOrDefault("absent", "dflt")).isEqualTo("dflt");
    assertThatThrownBy(() -> live.put("k", null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> live.get(null)).isInstanceOf(NullPointerException.class);
    assertThat(live).isEqualTo(Map.of("k", "w", "new", "new!", "user:n", 7));

    ConcurrentMap<String, Object> cleared = get("s1").stateMap();
    cleared.clear();
    assertThat(cleared).isEmpty();
    assertThat(get("s1").state()).hasSize(4);
  }

  // ---- concurrency ----

  /**
   * Several threads write one fresh copy at once, each its own keys and one shared counter, so that
   * their first writes race to take the copy: no write may be lost, whichever thread takes it.
   */
  @Test
  void concurrentWritersOnOneFreshCopy_loseNoWrite() throws Exception {
    createRich("s1");
    int threads = 4;
    int writes = 50;
    for (int round = 0; round < 100; round++) {
      Session s = get("s1");
      ConcurrentMap<String, Object> live = s.stateMap();
      CyclicBarrier start = new CyclicBarrier(threads);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  State state = new State(live); // one per tool call, over the shared live state
                  start.await(10, TimeUnit.SECONDS);
                  for (int i = 0; i < writes; i++) {
                    state.put("t" + thread + "_" + i, i);
                    state.increment("count", 1);
                    // readers meanwhile see a complete value, never a half-made map
                    assertThat(s.state().get("cart")).isEqualTo(List.of("book"));
                  }
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        f.get(30, TimeUnit.SECONDS);
      }
      assertThat(s.state()).containsEntry("count", 1 + threads * writes);
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < writes; i++) {
          assertThat(s.state()).containsEntry("t" + t + "_" + i, i);
        }
      }
      assertThat(s.state()).hasSize(expectedRich().size() + threads * writes);
    }
    assertThat(get("s1").state()).isEqualTo(expectedRich());
  }

  /** Reads of the same unchanged session from several threads, each writing its own copy. */
  @Test
  void concurrentReadersOfOneSession_eachGetAnIsolatedCopy() throws Exception {
    createRich("s1");
    int threads = 4;
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Future<Set<Object>>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      futures.add(
          pool.submit(
              () -> {
                start.await(10, TimeUnit.SECONDS);
                Set<Object> seen = new HashSet<>();
                for (int i = 0; i < 200; i++) {
                  Session s = get("s1");
                  stateOf(s).put("count", thread * 1000 + i);
                  seen.add(s.state().get("count"));
                  assertThat(get("s1").state()).containsEntry("count", 1);
                }
                return seen;
              }));
    }
    for (Future<Set<Object>> f : futures) {
      assertThat(f.get(30, TimeUnit.SECONDS)).hasSize(200);
    }
    assertThat(get("s1").state()).isEqualTo(expectedRich());
  }

  // ---- secrets ----

  @Test
  void secretsKeptInMemory_areInEveryReadAndWrittenCopiesStayIsolated() {
    service.createSession(APP, USER, Map.of("secret:token", "abc", "k", "v"), "s1").blockingGet();
    Session a = get("s1");
    Session b = get("s1");
    assertThat(a.state()).containsEntry("secret:token", "abc").containsEntry("k", "v");
    stateOf(a).put("secret:token", "changed");
    assertThat(b.state()).containsEntry("secret:token", "abc");
    assertThat(get("s1").state()).containsEntry("secret:token", "abc");
  }

  @Test
  void getSessionConfig_doesNotChangeTheState() {
    createRich("s1");
    Session s = get("s1");
    append(s, Map.of("count", 2));
    Session recent =
        service
            .getSession(
                APP, USER, "s1", Optional.of(GetSessionConfig.builder().numRecentEvents(0).build()))
            .blockingGet();
    assertThat(recent.events()).isEmpty();
    Map<String, Object> expected = expectedRich();
    expected.put("count", 2);
    assertThat(recent.state()).isEqualTo(expected);
  }
}
