package dev.adk4j.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InMemoryMemoryServiceTest extends MemoryServiceContract {

  @Override
  protected BaseMemoryService createService(int maxResults) {
    return new InMemoryMemoryService(maxResults);
  }

  @Test
  void concurrentAddsOfOneSession_rememberEachEventOnce() throws Exception {
    BaseMemoryService memory = service(1000);
    List<dev.adk4j.events.Event> events = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      events.add(said("user", "walk number " + i));
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      done.add(
          pool.submit(
              () -> {
                start.await();
                memory.addSessionToMemory(session("app", "u", "s", events)).blockingAwait();
                return null;
              }));
    }
    start.countDown();
    for (Future<?> f : done) {
      f.get(30, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertThat(memory.searchMemory("app", "u", "walk").blockingGet().memories()).hasSize(200);
  }

  @Test
  void appAndUserIds_thatJoinToTheSameText_areDifferentOwners() throws Exception {
    BaseMemoryService memory = service();
    memory
        .addSessionToMemory(session("a\u0000b", "c", "s", List.of(said("user", "hidden note"))))
        .blockingAwait();
    assertThat(memory.searchMemory("a", "b\u0000c", "note").blockingGet().memories()).isEmpty();
    assertThat(memory.searchMemory("a\u0000b", "c", "note").blockingGet().memories()).hasSize(1);
  }
}
