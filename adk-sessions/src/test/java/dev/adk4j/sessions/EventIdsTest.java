package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The in-memory store's set of a session's event ids. */
class EventIdsTest {

  private static boolean add(EventIds ids, String id) {
    return ids.add(id, EventIds.hash(id));
  }

  private static boolean contains(EventIds ids, String id) {
    return ids.contains(id, EventIds.hash(id));
  }

  @Test
  void holdsEachIdOnce_acrossGrowth() {
    EventIds ids = new EventIds();
    for (int i = 0; i < 5_000; i++) {
      assertThat(add(ids, "event-" + i)).isTrue();
    }
    for (int i = 0; i < 5_000; i++) {
      assertThat(contains(ids, "event-" + i)).isTrue();
      assertThat(add(ids, new String("event-" + i))).as("a second add of an equal id").isFalse();
    }
    assertThat(contains(ids, "event-5000")).isFalse();
    assertThat(contains(ids, "event-")).isFalse();
  }

  @Test
  void tellsApartIdsWithTheSameHash() {
    // "Aa" and "BB" have the same String hash, so do any concatenations of them.
    EventIds ids = new EventIds();
    List<String> colliding = new ArrayList<>();
    for (String a : List.of("Aa", "BB")) {
      for (String b : List.of("Aa", "BB")) {
        for (String c : List.of("Aa", "BB")) {
          colliding.add(a + b + c);
        }
      }
    }
    assertThat(colliding).extracting(String::hashCode).containsOnly("AaAaAa".hashCode());
    for (String id : colliding.subList(0, 4)) {
      assertThat(add(ids, id)).isTrue();
    }
    for (String id : colliding.subList(0, 4)) {
      assertThat(contains(ids, id)).isTrue();
    }
    for (String id : colliding.subList(4, 8)) {
      assertThat(contains(ids, id)).isFalse();
      assertThat(add(ids, id)).isTrue();
    }
  }

  @Test
  void retainOnly_keepsExactlyTheGivenIds() {
    EventIds ids = new EventIds();
    for (int i = 0; i < 100; i++) {
      add(ids, "e" + i);
    }
    ids.retainOnly(List.of("e98", "e99"));

    assertThat(contains(ids, "e98")).isTrue();
    assertThat(contains(ids, "e99")).isTrue();
    assertThat(contains(ids, "e0")).isFalse();
    assertThat(add(ids, "e0")).isTrue();
  }
}
