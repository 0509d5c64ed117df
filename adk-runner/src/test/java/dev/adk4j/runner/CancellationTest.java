package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A run whose subscriber cancels it (disposes) mid-turn is closed like a failed one: its final
 * event, stored but not emitted, says CANCELLED, so the session never keeps a user message without
 * an end, and the next turn runs.
 */
class CancellationTest {

  @Test
  void aDisposedRun_isClosedWithACancelledEvent_andTheNextTurnRuns() throws Exception {
    CountDownLatch called = new CountDownLatch(1);
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFlowable(
                req -> Flowable.<LlmResponse>never().doOnSubscribe(s -> called.countDown()))
            .thenText("second")
            .build();
    InMemorySessionService sessions = new InMemorySessionService();
    sessions.createSession("app", "u", null, "s").blockingGet();
    Runner runner =
        new Runner(LlmAgent.builder().name("bot").model(model).build(), "app", null, sessions);

    Disposable run =
        runner
            .runAsync("u", "s", Content.fromParts(Part.fromText("first")))
            // on a thread of its own: a run works on its subscriber's thread, so a caller that
            // wants to cancel it midway subscribes on a scheduler (as with any blocking Flowable)
            .subscribeOn(Schedulers.io())
            .subscribe(e -> {}, e -> {});
    assertThat(called.await(10, TimeUnit.SECONDS)).isTrue();
    run.dispose();

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    List<Event> events = sessions.getSession("app", "u", "s").blockingGet().events();
    while (events.size() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(20);
      events = sessions.getSession("app", "u", "s").blockingGet().events();
    }
    assertThat(events).hasSize(2);
    assertThat(events.get(0).author()).isEqualTo("user");
    Event closing = events.get(1);
    assertThat(closing.author()).isEqualTo("bot");
    assertThat(closing.errorCode()).hasValue("CANCELLED");
    assertThat(closing.turnComplete()).hasValue(true);
    assertThat(closing.invocationId()).isEqualTo(events.get(0).invocationId());

    List<Event> next =
        runner.runAsync("u", "s", Content.fromParts(Part.fromText("again"))).toList().blockingGet();
    assertThat(next.get(next.size() - 1).stringifyContent()).contains("second");
    Session after = sessions.getSession("app", "u", "s").blockingGet();
    assertThat(after.events()).hasSize(4);
  }
}
