package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.events.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class EventLogTest {

  private static Event event(String author) {
    return Event.builder().author(author).build();
  }

  private static List<Event> events(String prefix, int n) {
    List<Event> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(event(prefix + i));
    }
    return out;
  }

  @Test
  void snapshots_keepTheirEvents_whileTheLogGrowsPastChunkBoundaries() {
    EventLog log = EventLog.empty();
    List<Event> all = events("e", 3 * EventLog.CHUNK + 5);
    List<List<Event>> snapshots = new ArrayList<>();
    for (Event e : all) {
      snapshots.add(log.snapshot());
      log.add(e);
    }
    for (int i = 0; i < snapshots.size(); i++) {
      assertThat(snapshots.get(i)).containsExactlyElementsOf(all.subList(0, i));
    }
    assertThat(log.snapshot()).containsExactlyElementsOf(all);
    assertThatThrownBy(() -> log.snapshot().add(event("x")))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> snapshots.get(3).get(3)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void logsForkedFromOneSnapshot_appendIndependently_atEveryOffsetInAChunk() {
    for (int start : new int[] {0, 1, EventLog.CHUNK - 1, EventLog.CHUNK, EventLog.CHUNK + 7}) {
      EventLog source = EventLog.of(events("s", start));
      List<Event> base = source.snapshot();
      EventLog left = EventLog.of(base);
      EventLog right = EventLog.of(base);
      List<Event> l = events("l", EventLog.CHUNK + 3);
      List<Event> r = events("r", 5);
      List<Event> more = events("m", 70);
      for (int i = 0; i < 70; i++) {
        if (i < l.size()) {
          left.add(l.get(i));
        }
        if (i < r.size()) {
          right.add(r.get(i));
        }
        source.add(more.get(i));
      }
      List<Event> expectedLeft = new ArrayList<>(base);
      expectedLeft.addAll(l);
      List<Event> expectedRight = new ArrayList<>(base);
      expectedRight.addAll(r);
      List<Event> expectedSource = new ArrayList<>(base);
      expectedSource.addAll(more);
      assertThat(left.snapshot()).as("left from %s", start).containsExactlyElementsOf(expectedLeft);
      assertThat(right.snapshot())
          .as("right from %s", start)
          .containsExactlyElementsOf(expectedRight);
      assertThat(source.snapshot()).containsExactlyElementsOf(expectedSource);
      assertThat(base).hasSize(start);
    }
  }

  @Test
  void readersOnOtherThreads_alwaysSeeAWholePrefix() throws Exception {
    EventLog log = EventLog.empty();
    List<Event> all = events("e", 20_000);
    AtomicBoolean done = new AtomicBoolean();
    ExecutorService readers = Executors.newFixedThreadPool(2);
    try {
      List<Future<Integer>> checks = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        checks.add(
            readers.submit(
                () -> {
                  int seen = 0;
                  while (!done.get()) {
                    List<Event> s = log.snapshot();
                    int i = 0;
                    for (Event e : s) {
                      if (e != all.get(i++)) {
                        throw new AssertionError("event " + (i - 1) + " differs");
                      }
                    }
                    assertThat(i).isEqualTo(s.size());
                    seen = Math.max(seen, s.size());
                  }
                  return seen;
                }));
      }
      for (Event e : all) {
        log.add(e);
      }
      done.set(true);
      for (Future<Integer> f : checks) {
        assertThat(f.get(30, TimeUnit.SECONDS)).isLessThanOrEqualTo(all.size());
      }
    } finally {
      readers.shutdownNow();
    }
  }

  @Test
  void windowsOfASnapshot_areSnapshots_andLogsMadeFromThemNeverWriteIntoTheSource() {
    int total = 2 * EventLog.CHUNK + 9;
    List<Event> all = events("e", total);
    for (int from : new int[] {0, 1, EventLog.CHUNK - 1, EventLog.CHUNK, total - 10, total}) {
      for (int to : new int[] {from, Math.min(total, from + 3), total}) {
        EventLog source = EventLog.of(all);
        List<Event> window = source.snapshot().subList(from, to);
        assertThat(window).containsExactlyElementsOf(all.subList(from, to));
        assertThat(window.subList(0, window.size())).containsExactlyElementsOf(window);

        EventLog fork = EventLog.of(window);
        List<Event> forkMore = events("f", EventLog.CHUNK + 2);
        List<Event> sourceMore = events("s", EventLog.CHUNK + 2);
        for (int i = 0; i < forkMore.size(); i++) {
          fork.add(forkMore.get(i));
          source.add(sourceMore.get(i));
        }
        List<Event> expectedFork = new ArrayList<>(all.subList(from, to));
        expectedFork.addAll(forkMore);
        List<Event> expectedSource = new ArrayList<>(all);
        expectedSource.addAll(sourceMore);
        assertThat(fork.snapshot())
            .as("fork of [%d, %d)", from, to)
            .containsExactlyElementsOf(expectedFork);
        assertThat(source.snapshot()).containsExactlyElementsOf(expectedSource);
        assertThat(window).containsExactlyElementsOf(all.subList(from, to));
      }
    }
    assertThatThrownBy(() -> EventLog.of(all).snapshot().subList(3, 2))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }
}
