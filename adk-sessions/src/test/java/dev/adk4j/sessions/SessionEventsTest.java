package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.events.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The events of a session are shared, not copied, between the in-memory store, its reads and the
 * copies appended through ({@link Session#prefix}): every list handed out stays as it was, however
 * the store or a copy grows afterwards, and no copy writes into events another holds.
 */
class SessionEventsTest {

  static final String APP = "events_app";
  static final String USER = "alice";

  final InMemorySessionService service = new InMemorySessionService();
  final ExecutorService pool = Executors.newFixedThreadPool(2);

  @AfterEach
  void stopPool() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  static Event event(String author) {
    return Event.builder().author(author).build();
  }

  Event append(Session s, String author) {
    return service.appendEvent(s, event(author)).blockingGet();
  }

  Session get(String id) {
    return service.getSession(APP, USER, id).blockingGet();
  }

  static List<String> authors(List<Event> events) {
    List<String> out = new ArrayList<>();
    events.forEach(e -> out.add(e.author()));
    return out;
  }

  @Test
  void everyListHandedOut_keepsItsEvents_whileTheCopyGrowsPastArrayBoundaries() {
    Session s = service.createSession(APP, USER, null, "s1").blockingGet();
    List<List<Event>> seen = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 40; i++) { // past several doublings of the arrays (8, 16, 32, 64)
      seen.add(s.events());
      append(s, "a" + i);
      expected.add("a" + i);
    }
    for (int i = 0; i < seen.size(); i++) {
      assertThat(authors(seen.get(i))).isEqualTo(expected.subList(0, i));
    }
    assertThat(authors(s.events())).isEqualTo(expected);
    assertThat(authors(get("s1").events())).isEqualTo(expected);
    assertThatThrownBy(() -> s.events().add(event("x")))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> seen.get(3).get(3)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void copiesReadAtOneRevision_appendIntoTheirOwnEvents_neverIntoTheStoresOrEachOthers() {
    Session first = service.createSession(APP, USER, null, "s1").blockingGet();
    for (int i = 0; i < 9; i++) {
      append(first, "e" + i);
    }
    Session a = get("s1");
    Session b = get("s1");
    Session copyOfA = a.copy();
    Session recent =
        service
            .getSession(
                APP, USER, "s1", Optional.of(GetSessionConfig.builder().numRecentEvents(3).build()))
            .blockingGet();
    List<String> nine = authors(a.events());

    append(a, "from-a"); // a now holds its own events; b, copyOfA and the store are unchanged
    assertThat(authors(b.events())).isEqualTo(nine);
    assertThat(authors(copyOfA.events())).isEqualTo(nine);
    assertThat(authors(recent.events())).isEqualTo(nine.subList(6, 9));

    Session c = get("s1");
    append(c, "from-c"); // the store appends past the end of what a, b and c were given
    List<String> expected = new ArrayList<>(nine);
    expected.add("from-a");
    List<String> afterA = List.copyOf(expected);
    expected.add("from-c");
    assertThat(authors(a.events())).isEqualTo(afterA);
    assertThat(authors(b.events())).isEqualTo(nine);
    assertThat(authors(get("s1").events())).isEqualTo(expected);
    assertThat(authors(c.events())).isEqualTo(expected);

    // a session built from another's events, then given more, leaves the first as it was
    Session.Builder builder = Session.builder("built").events(c.events());
    Session built = builder.build();
    Session more = builder.addEvents(List.of(event("x"), event("y"))).build();
    assertThat(authors(built.events())).isEqualTo(expected);
    assertThat(more.events()).hasSize(expected.size() + 2);
    assertThat(authors(c.events())).isEqualTo(expected);
  }

  @Test
  void readersOnOtherThreads_alwaysSeeAWholePrefix() throws Exception {
    Session s = service.createSession(APP, USER, null, "s1").blockingGet();
    int total = 3_000;
    AtomicBoolean done = new AtomicBoolean();
    List<Future<Integer>> checks = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      checks.add(
          pool.submit(
              () -> {
                int longest = 0;
                while (!done.get()) {
                  List<Event> events = s.events();
                  int i = 0;
                  for (Event e : events) {
                    if (!e.author().equals("e" + i++)) {
                      throw new AssertionError("event " + (i - 1) + " is " + e.author());
                    }
                  }
                  if (i != events.size()) {
                    throw new AssertionError(i + " events iterated of " + events.size());
                  }
                  longest = Math.max(longest, i);
                }
                return longest;
              }));
    }
    for (int i = 0; i < total; i++) {
      append(s, "e" + i);
    }
    done.set(true);
    for (Future<Integer> f : checks) {
      assertThat(f.get(30, TimeUnit.SECONDS)).isLessThanOrEqualTo(total);
    }
    assertThat(get("s1").events()).hasSize(total);
  }
}
