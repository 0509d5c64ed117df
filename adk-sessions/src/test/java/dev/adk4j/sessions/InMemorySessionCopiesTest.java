package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.state.State;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The copies {@link InMemorySessionService} hands out share the stored, frozen state until they
 * need a map of their own ({@code Session.stateMap()}, made at the first write or the first read of
 * a map or list value): these tests check that this is invisible, i.e. each copy behaves as its own
 * map of its own values: isolated from the store and from every other copy whichever side writes,
 * with map or list values a caller may change in place, and safe when the map is made by racing
 * threads.
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

  // ---- concurrency ----

  /**
   * An append through a fresh copy races readers of a list value on other threads, which also need
   * the copy's own map: whichever thread makes it, the append's values are in it.
   */
  @Test
  void anAppendThroughAFreshCopy_racingReadersOfAList_losesNothing() throws Exception {
    createRich("s1");
    for (int round = 0; round < 50; round++) {
      Session s = get("s1");
      CyclicBarrier start = new CyclicBarrier(3);
      List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        readers.add(
            pool.submit(
                () -> {
                  start.await(10, TimeUnit.SECONDS);
                  for (int i = 0; i < 20; i++) {
                    assertThat(s.state().get("cart")).isEqualTo(List.of("book"));
                  }
                  return null;
                }));
      }
      start.await(10, TimeUnit.SECONDS);
      append(s, Map.of("count", round + 2));
      for (Future<?> f : readers) {
        f.get(30, TimeUnit.SECONDS);
      }
      assertThat(s.state())
          .containsEntry("count", round + 2)
          .containsEntry("cart", List.of("book"))
          .isEqualTo(get("s1").state());
    }
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
