package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionLease;
import dev.adk4j.sessions.SessionWait;
import dev.adk4j.testing.ScriptedLlm;
import io.reactivex.rxjava3.core.Flowable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A turn whose holder died right after storing its user message (issue 33): the next turn, which
 * takes the abandoned lease over, closes it with {@code INTERRUPTED}; a turn whose agent produced
 * no event and released its lease is left alone. A caller that waits for the session is told why.
 */
class AbandonedTurnTest {
  private static final String APP = "abandoned";

  @TempDir Path dir;

  private DatabaseSessionService service(Duration lease) {
    return TurnWorker.service("jdbc:sqlite:" + dir.resolve("s.db"), lease);
  }

  private static Event userMessage(String invocation, String text) {
    return Event.builder()
        .invocationId(invocation)
        .author("user")
        .content(Content.builder().role("user").parts(Part.fromText(text)).build())
        .build();
  }

  private static Content text(String t) {
    return Content.builder().role("user").parts(Part.fromText(t)).build();
  }

  @Test
  void aTurnWhoseHolderDiedAfterItsUserMessage_isClosedByTheTurnThatTakesTheLeaseOver()
      throws Exception {
    // The dead process: it took the lease, stored its user message, and stopped (its service is
    // closed without releasing the lease, so the lease is left to expire, as after a kill -9).
    try (DatabaseSessionService dead = service(Duration.ofMillis(400))) {
      Session s = dead.createSession(APP, "u", null, "s").blockingGet();
      SessionLease lease = dead.acquireLease(APP, "u", "s", Duration.ofSeconds(5)).blockingGet();
      lease.attach(s);
      dead.appendEvent(s, userMessage("e-dead", "are you there?")).blockingGet();
    }
    // The taker waits out the lease and a grace of a third of its own lease duration (3 s here:
    // 1 s) before it takes a lease whose holder may only be late to renew.
    try (DatabaseSessionService alive = service(Duration.ofSeconds(3))) {
      Runner runner =
          new Runner(
              LlmAgent.builder()
                  .name("clerk")
                  .model(ScriptedLlm.builder().thenText("here").build())
                  .instruction("Help.")
                  .build(),
              APP,
              null,
              alive);
      List<Event> out =
          runner
              .runAsync("u", "s", text("hello"), RunConfig.builder().build())
              .toList()
              .blockingGet();
      assertThat(out).last().satisfies(e -> assertThat(e.stringifyContent()).contains("here"));

      List<Event> events = alive.getSession(APP, "u", "s").blockingGet().events();
      assertThat(events).extracting(Event::invocationId).startsWith("e-dead", "e-dead");
      Event closing = events.get(1);
      assertThat(closing.author()).isEqualTo("clerk");
      assertThat(closing.errorCode()).contains("INTERRUPTED");
      assertThat(closing.errorMessage().orElseThrow()).contains("e-dead");
      assertThat(events.get(2).author()).isEqualTo("user");
      assertThat(events.get(2).invocationId()).isNotEqualTo("e-dead");
      assertThat(events).filteredOn(e -> e.errorCode().isPresent()).hasSize(1);
    }
  }

  /** An agent that answers nothing: a turn of it is only the user's message. */
  static final class Silent extends BaseAgent {
    Silent() {
      super("silent", "", List.of(), List.of(), List.of());
    }

    @Override
    protected Flowable<Event> runAsyncImpl(InvocationContext ctx) {
      return Flowable.empty();
    }
  }

  @Test
  void aTurnWhoseAgentProducedNoEvent_isNotClosedByTheNext() {
    try (DatabaseSessionService sessions = service(Duration.ofSeconds(30))) {
      sessions.createSession(APP, "u", null, "quiet").blockingGet();
      Runner runner = new Runner(new Silent(), APP, null, sessions);
      runner.runAsync("u", "quiet", text("one")).blockingSubscribe();
      runner.runAsync("u", "quiet", text("two")).blockingSubscribe();

      List<Event> events = sessions.getSession(APP, "u", "quiet").blockingGet().events();
      assertThat(events).extracting(Event::author).containsExactly("user", "user");
      assertThat(events).allSatisfy(e -> assertThat(e.errorCode()).isEmpty());
    }
  }

  /** An agent that waits for {@code go} before it answers. */
  static final class Gated extends BaseAgent {
    final CountDownLatch started = new CountDownLatch(1);
    final CountDownLatch go = new CountDownLatch(1);

    Gated() {
      super("gated", "", List.of(), List.of(), List.of());
    }

    @Override
    protected Flowable<Event> runAsyncImpl(InvocationContext ctx) {
      return Flowable.fromCallable(
          () -> {
            started.countDown();
            go.await();
            return newEvent(ctx)
                .content(Content.builder().role("model").parts(Part.fromText("done")).build())
                .build();
          });
    }
  }

  @Test
  void aSecondCallerOnABusySession_isToldWhoHoldsIt_inMemoryAndOnSqlite() throws Exception {
    for (BaseSessionService sessions :
        List.<BaseSessionService>of(
            new InMemorySessionService(), service(Duration.ofSeconds(30)))) {
      sessions.createSession(APP, "u", null, "busy").blockingGet();
      Gated agent = new Gated();
      // Two runners, as two instances would be: the second waits on the store's lease.
      Runner first = new Runner(agent, APP, null, sessions);
      Runner second = new Runner(agent, APP, null, sessions);
      List<SessionWait> waits = new CopyOnWriteArrayList<>();
      CountDownLatch told = new CountDownLatch(1);
      Thread a = new Thread(() -> first.runAsync("u", "busy", text("one")).blockingSubscribe());
      a.start();
      assertThat(agent.started.await(30, TimeUnit.SECONDS)).isTrue();
      Thread b =
          new Thread(
              () ->
                  second
                      .runAsync(
                          "u",
                          "busy",
                          text("two"),
                          RunConfig.builder()
                              .sessionWaitListener(
                                  w -> {
                                    waits.add(w);
                                    told.countDown();
                                  })
                              .build())
                      .blockingSubscribe());
      b.start();
      assertThat(told.await(30, TimeUnit.SECONDS)).isTrue();
      agent.go.countDown();
      a.join(30_000);
      b.join(30_000);
      assertThat(waits)
          .singleElement()
          .satisfies(
              w -> {
                assertThat(w.sessionId()).isEqualTo("busy");
                assertThat(w.holder()).isNotBlank();
              });
      assertThat(sessions.getSession(APP, "u", "busy").blockingGet().events())
          .extracting(Event::stringifyContent)
          .containsExactly("one", "done", "two", "done");
      if (sessions instanceof AutoCloseable c) {
        c.close();
      }
    }
  }
}
