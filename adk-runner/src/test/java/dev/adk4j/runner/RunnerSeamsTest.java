package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.adk4j.agents.IdSource;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmException;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.models.RetryPolicy;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.schedulers.Schedulers;
import io.reactivex.rxjava3.schedulers.TestScheduler;
import io.reactivex.rxjava3.subscribers.TestSubscriber;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The runner's seams (issue 25): the clock of event timestamps, the source of invocation, event and
 * function call ids, and the scheduler of model-call deadlines and retry waits are injectable, so a
 * run can be repeated exactly and a test moves time instead of sleeping.
 */
class RunnerSeamsTest {

  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05.678Z");

  public static Map<String, Object> remember(String color, ToolContext context) {
    context.state().put("user:color", color);
    context.state().put("turns", 1);
    return Map.of("remembered", color);
  }

  private static List<Event> runOnce() {
    InMemorySessionService sessions = new InMemorySessionService();
    sessions.createSession("app", "u", null, "s").blockingGet();
    Runner runner =
        Runner.builder()
            .agent(
                LlmAgent.builder()
                    .name("bot")
                    .model(
                        ScriptedLlm.builder()
                            // a call without an id: the runner gives it one
                            .thenFunctionCall("remember", Map.of("color", "teal"))
                            .thenText("Remembered.")
                            .build())
                    .tools(FunctionTool.create(RunnerSeamsTest.class, "remember"))
                    .build())
            .appName("app")
            .sessionService(sessions)
            .clock(Clock.fixed(NOW, ZoneOffset.UTC))
            .idSource(IdSource.sequential("run"))
            .build();
    runner.runAsync("u", "s", Contents.user("remember teal")).blockingSubscribe();
    return sessions.listEvents("app", "u", "s").blockingGet().events();
  }

  @Test
  void aFixedClockAndSequentialIds_makeARunRepeatable_idsTimesAndCallIdsAlike() {
    List<Event> first = runOnce();
    List<Event> second = runOnce();

    assertThat(first).hasSize(4); // message, call, response, answer
    assertThat(first)
        .extracting(Event::id)
        .containsExactly("run-event-1", "run-event-2", "run-event-3", "run-event-4");
    assertThat(first).extracting(Event::invocationId).containsOnly("run-invocation-1");
    assertThat(first).extracting(Event::timestamp).containsOnly(NOW.toEpochMilli());
    FunctionCall call =
        first.get(1).content().orElseThrow().parts().orElseThrow().stream()
            .map(Part::functionCall)
            .flatMap(java.util.Optional::stream)
            .findFirst()
            .orElseThrow();
    assertThat(call.id()).contains("run-call-1");
    assertThat(
            first
                .get(2)
                .content()
                .orElseThrow()
                .parts()
                .orElseThrow()
                .get(0)
                .functionResponse()
                .orElseThrow()
                .id())
        .contains("run-call-1");
    // the second run, on a fresh store, stored exactly the same events
    assertThat(second)
        .extracting(Event::toJson)
        .isEqualTo(first.stream().map(Event::toJson).toList());
  }

  /** A TestScheduler that says when a timer is scheduled on it. */
  static final class WatchedScheduler extends Scheduler {
    final TestScheduler time = new TestScheduler();
    final CountDownLatch scheduled = new CountDownLatch(1);

    @Override
    public Worker createWorker() {
      return time.createWorker();
    }

    @Override
    public long now(TimeUnit unit) {
      return time.now(unit);
    }

    @Override
    public Disposable scheduleDirect(Runnable run, long delay, TimeUnit unit) {
      Disposable d = time.scheduleDirect(run, delay, unit);
      scheduled.countDown();
      return d;
    }
  }

  @Test
  void aModelCallsDeadline_runsOnTheGivenScheduler_theTestMovesItsTime() throws Exception {
    InMemorySessionService sessions = new InMemorySessionService();
    sessions.createSession("app", "u", null, "s").blockingGet();
    WatchedScheduler timers = new WatchedScheduler();
    Runner runner =
        Runner.builder()
            .agent(
                LlmAgent.builder()
                    .name("bot")
                    .model(ScriptedLlm.builder().model("silent").thenNoAnswer().build())
                    .build())
            .appName("app")
            .sessionService(sessions)
            .timerScheduler(timers)
            .build();
    RunConfig config = RunConfig.builder().llmCallTimeout(Duration.ofMinutes(10)).build();

    TestSubscriber<Event> turn =
        runner
            .runAsync("u", "s", Contents.user("hello?"), config)
            .subscribeOn(Schedulers.io())
            .test();
    assertThat(timers.scheduled.await(30, TimeUnit.SECONDS)).isTrue();

    timers.time.advanceTimeBy(
        Duration.ofMinutes(10).minusMillis(1).toMillis(), TimeUnit.MILLISECONDS);
    turn.assertNotComplete().assertNoErrors(); // the deadline has not passed
    timers.time.advanceTimeBy(1, TimeUnit.MILLISECONDS);

    assertThat(turn.await(30, TimeUnit.SECONDS)).isTrue();
    turn.assertComplete();
    Event last = turn.values().get(turn.values().size() - 1);
    assertThat(last.errorCode()).contains("MODEL_ERROR");
    assertThat(last.errorMessage().orElse("")).contains("silent").contains("600000 ms");
  }

  @Test
  void retryWaits_runOnTheGivenScheduler() {
    TestScheduler time = new TestScheduler();
    AtomicInteger calls = new AtomicInteger();
    Flowable<LlmResponse> call =
        Flowable.defer(
            () ->
                calls.incrementAndGet() < 3
                    ? Flowable.error(
                        new LlmException("m", 503, "overloaded", Duration.ofSeconds(20), null))
                    : Flowable.just(ScriptedLlm.textResponse("finally")));
    TestSubscriber<LlmResponse> answer =
        RetryPolicy.of(3, Duration.ofSeconds(1), Duration.ofMinutes(1))
            .withScheduler(time)
            .apply(call)
            .test();

    assertThat(calls).hasValue(1);
    time.advanceTimeBy(19, TimeUnit.SECONDS);
    assertThat(calls).hasValue(1); // it waits the 20 s the API asked for
    time.advanceTimeBy(1, TimeUnit.SECONDS);
    assertThat(calls).hasValue(2);
    time.advanceTimeBy(20, TimeUnit.SECONDS);
    assertThat(calls).hasValue(3);
    answer.assertValueCount(1).assertComplete();
  }
}
