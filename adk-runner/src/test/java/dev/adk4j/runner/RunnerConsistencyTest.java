package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionBusyException;
import dev.adk4j.sessions.SessionLease;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Single;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What an invocation leaves in the session when it fails or conflicts, how its events reach the
 * caller, and how turns on one session are serialized.
 */
class RunnerConsistencyTest {

  static final String APP = "app";
  static final String USER = "u";

  final InMemorySessionService sessions = new InMemorySessionService();

  Runner runner(LlmAgent agent) {
    return new Runner(agent, APP, null, sessions);
  }

  Session newSession(String id) {
    return sessions.createSession(APP, USER, null, id).blockingGet();
  }

  List<Event> storedEvents(String id) {
    return sessions.listEvents(APP, USER, id).blockingGet().events();
  }

  /** A tool named {@code name} whose body is {@code body}. */
  static BaseTool tool(
      String name, java.util.function.Function<ToolContext, Map<String, Object>> body) {
    return new BaseTool(name, name) {
      @Override
      public Optional<FunctionDeclaration> declaration() {
        return Optional.of(FunctionDeclaration.builder().name(name).build());
      }

      @Override
      public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext ctx) {
        return Single.fromCallable(() -> body.apply(ctx));
      }
    };
  }

  /** Function call ids in the stored history without a stored response. */
  static Set<String> unansweredCalls(List<Event> events) {
    Set<String> calls = new HashSet<>();
    for (Event e : events) {
      for (Part p : e.content().flatMap(Content::parts).orElse(List.of())) {
        p.functionCall().flatMap(c -> c.id()).ifPresent(calls::add);
      }
    }
    for (Event e : events) {
      for (Part p : e.content().flatMap(Content::parts).orElse(List.of())) {
        p.functionResponse().flatMap(r -> r.id()).ifPresent(calls::remove);
      }
    }
    return calls;
  }

  /** How a caller consumes a run, each the way an application would write it. */
  enum ConsumerStyle {
    BLOCKING_FOR_EACH {
      @Override
      List<Event> consume(Flowable<Event> run) {
        List<Event> seen = new ArrayList<>();
        run.blockingForEach(seen::add);
        return seen;
      }
    },
    BLOCKING_ITERABLE {
      @Override
      List<Event> consume(Flowable<Event> run) {
        List<Event> seen = new ArrayList<>();
        for (Event e : run.blockingIterable()) {
          seen.add(e);
        }
        return seen;
      }
    },
    BLOCKING_STREAM {
      @Override
      List<Event> consume(Flowable<Event> run) {
        try (java.util.stream.Stream<Event> events = run.blockingStream()) {
          return events.toList();
        }
      }
    },
    BLOCKING_SUBSCRIBE {
      @Override
      List<Event> consume(Flowable<Event> run) {
        List<Event> seen = new ArrayList<>();
        run.blockingSubscribe(seen::add);
        return seen;
      }
    },
    SUBSCRIBE {
      @Override
      List<Event> consume(Flowable<Event> run) throws Exception {
        List<Event> seen = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        run.subscribe(seen::add, e -> done.countDown(), done::countDown);
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        return seen;
      }
    },
    /** Waits on a condition of its own for each event (a heuristic took that for "drained"). */
    BLOCKING_FOR_EACH_WAITING_ON_ITS_OWN_LOCK {
      @Override
      List<Event> consume(Flowable<Event> run) {
        List<Event> seen = new ArrayList<>();
        java.util.concurrent.locks.ReentrantLock lock =
            new java.util.concurrent.locks.ReentrantLock();
        java.util.concurrent.locks.Condition never = lock.newCondition();
        run.blockingForEach(
            e -> {
              lock.lock();
              try {
                never.await(2, TimeUnit.MILLISECONDS);
              } finally {
                lock.unlock();
              }
              seen.add(e);
            });
        return seen;
      }
    },
    /** Consumes on a thread of its own, more slowly than the events come. */
    BLOCKING_ITERABLE_ON_ANOTHER_THREAD_SLOWLY {
      @Override
      List<Event> consume(Flowable<Event> run) throws Exception {
        java.util.concurrent.ExecutorService pool =
            java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
          return pool.submit(
                  () -> {
                    List<Event> seen = new ArrayList<>();
                    for (Event e : run.blockingIterable(2)) {
                      Thread.sleep(3);
                      seen.add(e);
                    }
                    return seen;
                  })
              .get(30, TimeUnit.SECONDS);
        } finally {
          pool.shutdownNow();
        }
      }
    };

    abstract List<Event> consume(Flowable<Event> run) throws Exception;
  }

  @ParameterizedTest
  @EnumSource(ConsumerStyle.class)
  void failedRun_everyConsumerStyle_seesEveryStoredEvent_endingWithTheFailure(ConsumerStyle style)
      throws Exception {
    ScriptedLlm llm =
        ScriptedLlm.answering(req -> ScriptedLlm.functionCallResponse("noop", Map.of()));
    LlmAgent agent =
        LlmAgent.builder().name("A").model(llm).tools(tool("noop", ctx -> Map.of())).build();
    Runner runner = runner(agent);
    // Repeated: the end of the run must never overtake events still queued for the consumer.
    for (int round = 0; round < 5; round++) {
      String id = "s" + round;
      newSession(id);

      List<Event> seen =
          style.consume(
              runner.runAsync(
                  USER, id, Contents.user("go"), RunConfig.builder().maxLlmCalls(3).build()));

      List<Event> stored = storedEvents(id);
      // Everything stored but the user's message was emitted, in order.
      assertThat(seen)
          .extracting(Event::id)
          .isEqualTo(stored.subList(1, stored.size()).stream().map(Event::id).toList());
      assertThat(seen).hasSize(7); // 3 x (call, response), then the final event
      assertThat(InvocationFailedException.of(seen))
          .hasValueSatisfying(
              f -> {
                assertThat(f.errorCode()).isEqualTo("LLM_CALLS_LIMIT_EXCEEDED");
                assertThat(f.getMessage()).contains("maxLlmCalls = 3");
                assertThat(f.event().id()).isEqualTo(stored.get(stored.size() - 1).id());
              });
      assertThat(unansweredCalls(stored)).isEmpty();
    }
  }

  @Test
  void failureBeforeTheInvocationBegan_isSignalledAsAnError_withNothingEmitted() {
    LlmAgent agent = LlmAgent.builder().name("A").model(ScriptedLlm.builder().build()).build();
    List<Event> seen = new ArrayList<>();

    assertThatThrownBy(
            () ->
                runner(agent)
                    .runAsync(
                        USER,
                        "missing",
                        Contents.user("go"),
                        RunConfig.builder().autoCreateSession(false).build())
                    .blockingForEach(seen::add))
        .isInstanceOf(dev.adk4j.sessions.SessionNotFoundException.class);
    assertThat(seen).isEmpty();
  }

  @Test
  void modelErrorAfterAFunctionCall_leavesTheCallAnswered_andAFinalErrorEvent() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenFunctionCall("noop", Map.of())
            .thenError(
                new dev.adk4j.models.LlmException(
                    "fake", 503, "Model fake answered 503: model unavailable", null))
            .build();
    LlmAgent agent =
        LlmAgent.builder().name("A").model(llm).tools(tool("noop", ctx -> Map.of())).build();
    newSession("s");
    List<Event> seen = new CopyOnWriteArrayList<>();
    Throwable[] error = new Throwable[1];

    runner(agent)
        .runAsync(USER, "s", Contents.user("go"))
        .blockingSubscribe(seen::add, e -> error[0] = e);

    assertThat(error[0]).as("a failure after the invocation began is its last event").isNull();
    assertThat(InvocationFailedException.of(seen).orElseThrow().errorCode())
        .isEqualTo("MODEL_ERROR");
    List<Event> stored = storedEvents("s");
    assertThat(unansweredCalls(stored)).isEmpty();
    assertThat(stored.get(stored.size() - 1).errorCode()).contains("MODEL_ERROR");
    assertThat(stored.get(stored.size() - 1).errorMessage())
        .contains("Model fake answered 503: model unavailable");
    assertThat(seen).hasSize(stored.size() - 1);
  }

  @Test
  void streamingPartials_reachTheConsumerWhileTheModelIsStillAnswering() throws Exception {
    CountDownLatch firstSeen = new CountDownLatch(1);
    BaseLlm slow =
        new BaseLlm("slow") {
          @Override
          public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
            return Flowable.create(
                e -> {
                  e.onNext(partial("Hel"));
                  // The rest comes only once the consumer has the first piece.
                  if (!firstSeen.await(10, TimeUnit.SECONDS)) {
                    e.onError(
                        new AssertionError("first partial was not delivered while streaming"));
                    return;
                  }
                  e.onNext(partial("lo"));
                  e.onNext(ScriptedLlm.textResponse("Hello"));
                  e.onComplete();
                },
                io.reactivex.rxjava3.core.BackpressureStrategy.BUFFER);
          }
        };
    newSession("s");
    List<Event> seen = new ArrayList<>();

    runner(LlmAgent.builder().name("A").model(slow).build())
        .runAsync(
            USER,
            "s",
            Contents.user("hi"),
            RunConfig.builder().streamingMode(RunConfig.StreamingMode.SSE).build())
        .blockingForEach(
            e -> {
              seen.add(e);
              firstSeen.countDown();
            });

    assertThat(seen).extracting(e -> e.partial().orElse(false)).containsExactly(true, true, false);
  }

  static LlmResponse partial(String text) {
    return LlmResponse.builder()
        .content(Content.builder().role("model").parts(Part.fromText(text)).build())
        .partial(true)
        .build();
  }

  /**
   * A tool that reads {@code user:count}, and on its first run lets another session of the user
   * count in between, then writes its read value + 1: a read-modify-write that lost a race.
   */
  BaseTool racingCounter(AtomicInteger runs) {
    return tool(
        "count",
        ctx -> {
          Object v = ctx.state().get("user:count");
          int n = v == null ? 0 : ((Number) v).intValue();
          if (runs.incrementAndGet() == 1) {
            Session other = sessions.getSession(APP, USER, "other").blockingGet();
            sessions
                .appendEvent(
                    other,
                    Event.builder()
                        .author("other")
                        .actions(EventActions.builder().putState("user:count", 10).build())
                        .build())
                .blockingGet();
          }
          ctx.state().put("user:count", n + 1);
          return Map.of("count", n + 1);
        });
  }

  @Test
  void conflict_byDefault_endsTheInvocationWithTheConflict_andLosesNothing() {
    newSession("s");
    newSession("other");
    AtomicInteger runs = new AtomicInteger();
    ScriptedLlm llm =
        ScriptedLlm.builder().thenFunctionCall("count", Map.of()).thenText("done").build();
    LlmAgent agent = LlmAgent.builder().name("A").model(llm).tools(racingCounter(runs)).build();

    List<Event> seen =
        runner(agent).runAsync(USER, "s", Contents.user("count")).toList().blockingGet();
    assertThat(InvocationFailedException.of(seen))
        .hasValueSatisfying(
            f ->
                assertThat(f)
                    .hasMessageContaining("STATE_CONFLICT")
                    .hasMessageContaining("'user:count'")
                    .hasMessageContaining("'s'"));

    // The other session's update stands; the conflicting write was not stored.
    assertThat(sessions.getSession(APP, USER, "s").blockingGet().state())
        .containsEntry("user:count", 10);
    List<Event> stored = storedEvents("s");
    assertThat(unansweredCalls(stored)).isEmpty();
    Event last = stored.get(stored.size() - 1);
    assertThat(last.errorCode()).contains("STATE_CONFLICT");
    assertThat(stored).noneMatch(e -> e.actions().stateDelta().containsKey("user:count"));
    assertThat(runs.get()).isEqualTo(1);
  }

  @Test
  void incrementThroughTheRunner_recordsTheStoredValue() {
    newSession("s");
    newSession("other");
    sessions
        .appendEvent(
            sessions.getSession(APP, USER, "other").blockingGet(),
            Event.builder()
                .author("x")
                .actions(EventActions.builder().putState("user:count", 41).build())
                .build())
        .blockingGet();
    ScriptedLlm llm =
        ScriptedLlm.builder().thenFunctionCall("inc", Map.of()).thenText("done").build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("A")
            .model(llm)
            .tools(tool("inc", ctx -> Map.of("live", ctx.state().increment("user:count", 1))))
            .build();

    List<Event> events =
        runner(agent).runAsync(USER, "s", Contents.user("inc")).toList().blockingGet();

    assertThat(events.get(1).actions().stateDelta()).containsEntry("user:count", 42);
    assertThat(sessions.getSession(APP, USER, "other").blockingGet().state())
        .containsEntry("user:count", 42);
  }

  @Test
  void twoRunnersOnOneSession_takeTurns_andNoTurnFails() throws Exception {
    newSession("s");
    int turns = 20;
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<Integer>> done = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      LlmAgent agent =
          LlmAgent.builder()
              .name("A")
              .model(
                  ScriptedLlm.builder()
                      .otherwise(
                          req ->
                              req.contents()
                                      .get(req.contents().size() - 1)
                                      .parts()
                                      .orElseThrow()
                                      .get(0)
                                      .functionResponse()
                                      .isPresent()
                                  ? ScriptedLlm.textResponse("done")
                                  : ScriptedLlm.functionCallResponse("inc", Map.of()))
                      .build())
              .tools(
                  tool(
                      "inc",
                      ctx -> {
                        Object v = ctx.state().get("count");
                        ctx.state().put("count", v == null ? 1 : ((Number) v).intValue() + 1);
                        return Map.of();
                      }))
              .build();
      Runner runner = runner(agent);
      done.add(
          pool.submit(
              () -> {
                for (int i = 0; i < turns; i++) {
                  runner.runAsync(USER, "s", Contents.user("turn")).blockingSubscribe();
                }
                return turns;
              }));
    }
    for (Future<Integer> f : done) {
      f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertThat(sessions.getSession(APP, USER, "s").blockingGet().state())
        .containsEntry("count", 2 * turns);
    // Invocations are contiguous: once an invocation's events end, its id never shows again.
    List<String> order = new ArrayList<>();
    for (Event e : storedEvents("s")) {
      if (order.isEmpty() || !order.get(order.size() - 1).equals(e.invocationId())) {
        assertThat(order).doesNotContain(e.invocationId());
        order.add(e.invocationId());
      }
    }
    assertThat(order).hasSize(2 * turns);
  }

  @Test
  void aTurnWaitsForTheSession_atMostMaxSessionWait() {
    newSession("s");
    SessionLease held = sessions.acquireLease(APP, USER, "s", Duration.ZERO).blockingGet();
    LlmAgent agent =
        LlmAgent.builder()
            .name("A")
            .model(ScriptedLlm.answering(r -> ScriptedLlm.textResponse("x")))
            .build();
    try {
      assertThatThrownBy(
              () ->
                  runner(agent)
                      .runAsync(
                          USER,
                          "s",
                          Contents.user("hi"),
                          RunConfig.builder().maxSessionWait(Duration.ofMillis(200)).build())
                      .blockingSubscribe())
          .isInstanceOf(SessionBusyException.class)
          .hasMessageContaining("'s'");
      assertThat(storedEvents("s")).isEmpty();
    } finally {
      held.close();
    }
    assertThat(runner(agent).runAsync(USER, "s", Contents.user("hi")).toList().blockingGet())
        .hasSize(1);
  }
}
