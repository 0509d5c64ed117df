package dev.adk4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import io.reactivex.rxjava3.core.BackpressureStrategy;
import io.reactivex.rxjava3.core.Flowable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Escalation in workflow agents as ADK for Java has it: the escalating event is the last one of the
 * loop or parallel agent around it, and an enclosing loop stops too; an unbounded loop runs only as
 * far as it is read.
 */
class EscalationTest {

  final AgentHarness harness = new AgentHarness();
  final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void releaseBlockedAgents() {
    release.countDown();
  }

  /** Escalates in its first event; a second event would follow. */
  static final class Escalator extends BaseAgent {
    Escalator(String name) {
      super(name, "", List.of(), List.of(), List.of());
    }

    @Override
    protected Flowable<Event> runAsyncImpl(InvocationContext ctx) {
      return Flowable.just(
          newEvent(ctx).actions(EventActions.builder().escalate(true).build()).build(),
          newEvent(ctx).build());
    }
  }

  /** Emits one event per run, after {@code gate} opens; counts its runs. */
  final class Gated extends BaseAgent {
    final AtomicInteger runs = new AtomicInteger();
    final CountDownLatch gate;

    Gated(String name, CountDownLatch gate) {
      super(name, "", List.of(), List.of(), List.of());
      this.gate = gate;
    }

    @Override
    protected Flowable<Event> runAsyncImpl(InvocationContext ctx) {
      return Flowable.create(
          emitter -> {
            runs.incrementAndGet();
            try {
              gate.await();
            } catch (InterruptedException e) {
              // Cancelled (the parallel agent ended): tryOnError, as nobody is left to tell, where
              // a thrown exception went to RxJava's default handler, which printed its stack.
              emitter.tryOnError(e);
              return;
            }
            emitter.onNext(newEvent(ctx).build());
            emitter.onComplete();
          },
          BackpressureStrategy.BUFFER);
    }
  }

  @Test
  void parallel_aBranchEscalating_endsTheParallelAgent_withoutWaitingForTheOthers() {
    Gated slow = new Gated("slow", release);
    ParallelAgent parallel =
        ParallelAgent.builder().name("fan").subAgents(new Escalator("quick"), slow).build();

    List<Event> events = harness.run(parallel, "go");

    // Returns while "slow" still waits: it was cancelled, and nothing of it is emitted.
    assertThat(events).extracting(Event::author).containsExactly("quick");
    assertThat(events.get(0).actions().escalate()).contains(true);
  }

  @Test
  void loop_aroundAParallelAgentWhoseBranchEscalates_stopsAfterOneRound() {
    Gated slow = new Gated("slow", release);
    ParallelAgent parallel =
        ParallelAgent.builder().name("fan").subAgents(new Escalator("quick"), slow).build();
    Gated next = new Gated("next", new CountDownLatch(0));
    LoopAgent loop = LoopAgent.builder().name("loop").subAgents(parallel, next).build();

    List<Event> events = harness.run(loop, "go");

    assertThat(events).extracting(Event::author).containsExactly("quick");
    assertThat(next.runs).hasValue(0);
  }

  @Test
  void loop_escalatingEvent_isTheSubAgentsLast() {
    LoopAgent loop = LoopAgent.builder().name("loop").subAgents(new Escalator("stopper")).build();

    List<Event> events = harness.run(loop, "go");

    assertThat(events).hasSize(1);
    assertThat(harness.storedEvents()).extracting(Event::author).containsExactly("user", "stopper");
  }

  @Test
  void sequential_aroundALoop_goesOnAfterTheLoopEscalates() {
    Gated after = new Gated("after", new CountDownLatch(0));
    LoopAgent loop = LoopAgent.builder().name("loop").subAgents(new Escalator("stopper")).build();
    SequentialAgent seq = SequentialAgent.builder().name("seq").subAgents(loop, after).build();

    List<Event> events = harness.run(seq, "go");

    assertThat(events).extracting(Event::author).containsExactly("stopper", "after");
  }

  @Test
  void unboundedLoop_readLazily_runsOnlyAsFarAsItIsRead() {
    Gated worker = new Gated("worker", new CountDownLatch(0));
    LoopAgent loop = LoopAgent.builder().name("loop").subAgents(worker).build();
    InvocationContext ctx = harness.start(loop, "go", RunConfig.builder().build());

    List<Event> read = new ArrayList<>();
    for (Event e : loop.runAsync(ctx).blockingIterable(1)) {
      read.add(e);
      if (read.size() == 3) {
        break;
      }
    }

    assertThat(read).extracting(Event::author).containsOnly("worker");
    // At most a round or two ahead of the reader, never an unbounded run.
    assertThat(worker.runs.get()).isBetween(3, 5);
  }
}
