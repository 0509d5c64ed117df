package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.runner.TestBackends.Backend;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionLimits;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.AgentTool;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Several function calls of one model response run concurrently, on real threads, and their state
 * writes are merged into the one function-response event in call order, on every backend: a key two
 * calls write holds the later call's value (in the model's order, not the order they finish in),
 * increments add up, and a failing call loses its own writes only.
 */
class ParallelToolCallsTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  @TempDir static Path dir;
  static TestBackends backends;
  static final AtomicInteger N = new AtomicInteger();

  @BeforeAll
  static void open() throws Exception {
    backends = new TestBackends(POSTGRES, dir, SessionLimits.defaults());
  }

  @AfterAll
  static void close() throws Exception {
    backends.close();
  }

  /** A tool whose body is a lambda. */
  static final class LambdaTool extends BaseTool {
    private final BiFunction<Map<String, Object>, ToolContext, Map<String, Object>> body;

    LambdaTool(
        String name, BiFunction<Map<String, Object>, ToolContext, Map<String, Object>> body) {
      super(name, "test tool " + name);
      this.body = body;
    }

    @Override
    public java.util.Optional<FunctionDeclaration> declaration() {
      return java.util.Optional.of(
          FunctionDeclaration.builder().name(name()).description(description()).build());
    }

    @Override
    public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
      return Single.fromCallable(() -> body.apply(args, context));
    }
  }

  record Fixture(BaseSessionService sessions, String app) {
    Session stored() {
      return sessions.getSession(app, "u", "s").blockingGet();
    }

    List<Event> run(LlmAgent agent, RunConfig config) {
      return new Runner(agent, app, null, sessions)
          .runAsync("u", "s", Contents.user("go"), config)
          .toList()
          .blockingGet();
    }
  }

  static Fixture fixture(Backend backend) {
    BaseSessionService sessions = backends.get(backend);
    String app = "parallel_" + N.incrementAndGet();
    sessions.createSession(app, "u", null, "s").blockingGet();
    return new Fixture(sessions, app);
  }

  static ScriptedLlm callingAtOnce(String... tools) {
    List<com.google.genai.types.FunctionCall> calls = new ArrayList<>();
    for (String t : tools) {
      calls.add(ScriptedLlm.functionCall(t, Map.of()));
    }
    return ScriptedLlm.builder()
        .thenFunctionCalls(calls.toArray(com.google.genai.types.FunctionCall[]::new))
        .thenText("done")
        .build();
  }

  static void await(CountDownLatch latch, String what) {
    try {
      if (!latch.await(20, TimeUnit.SECONDS)) {
        throw new AssertionError("timed out waiting for " + what + ": the calls did not overlap");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  static List<String> responseNames(Event e) {
    return e.functionResponses().stream().map(r -> r.name().orElse("")).toList();
  }

  static Map<String, Object> response(Event e, int i) {
    return e.functionResponses().get(i).response().orElseThrow();
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void callsFinishingOutOfOrder_mergeInCallOrder_laterCallWins_incrementsAddUp(Backend backend) {
    Fixture f = fixture(backend);
    CountDownLatch secondFinished = new CountDownLatch(1);
    Set<String> threads = ConcurrentHashMap.newKeySet();
    List<Object> seenByNextStep = Collections.synchronizedList(new ArrayList<>());
    LambdaTool first =
        new LambdaTool(
            "first",
            (args, ctx) -> {
              threads.add(Thread.currentThread().getName());
              // Waits for the second call to finish: only possible if they run at once.
              await(secondFinished, "the second call");
              ctx.state().put("shared", "from first");
              ctx.state().put("a", 1);
              ctx.state().increment("n", 1);
              return Map.of("ok", "first");
            });
    LambdaTool second =
        new LambdaTool(
            "second",
            (args, ctx) -> {
              threads.add(Thread.currentThread().getName());
              ctx.state().put("shared", "from second");
              ctx.state().put("b", 2);
              ctx.state().increment("n", 1);
              secondFinished.countDown();
              return Map.of("ok", "second");
            });
    LlmAgent agent =
        LlmAgent.builder()
            .name("agent")
            .model(callingAtOnce("first", "second"))
            .tools(first, second)
            .beforeModelCallback(
                (ctx, request) -> {
                  seenByNextStep.add(ctx.state().get("shared"));
                  return Maybe.empty();
                })
            .build();

    List<Event> emitted = f.run(agent, RunConfig.builder().build());

    Event responses = emitted.get(1);
    assertThat(responseNames(responses)).containsExactly("first", "second");
    assertThat(response(responses, 0)).containsEntry("ok", "first");
    assertThat(responses.actions().stateDelta())
        .containsEntry("shared", "from second")
        .containsEntry("a", 1)
        .containsEntry("b", 2)
        .containsEntry("n", 2);
    assertThat(threads).hasSize(2);
    // The live state of the next step holds the later call's value too, though the earlier call
    // wrote it last.
    assertThat(seenByNextStep).containsExactly(null, "from second");
    Session stored = f.stored();
    assertThat(stored.state())
        .containsEntry("shared", "from second")
        .containsEntry("a", 1)
        .containsEntry("b", 2)
        .containsEntry("n", 2);
    assertThat(stored.events().stream().filter(e -> e.actions().stateDelta().containsKey("n")))
        .extracting(Event::id)
        .containsExactly(responses.id());
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void oneFailingCall_getsItsOwnErrorResponse_andLosesOnlyItsOwnWrites(Backend backend) {
    Fixture f = fixture(backend);
    CountDownLatch othersWrote = new CountDownLatch(2);
    LambdaTool p =
        new LambdaTool(
            "p",
            (args, ctx) -> {
              ctx.state().put("p", 1);
              ctx.state().put("shared", "from p");
              othersWrote.countDown();
              return Map.of("ok", "p");
            });
    LambdaTool boom =
        new LambdaTool(
            "boom",
            (args, ctx) -> {
              ctx.state().put("q", 2);
              ctx.state().increment("counter", 5);
              await(othersWrote, "the other calls");
              ctx.state().put("shared", "from boom");
              throw new IllegalStateException("boom failed");
            });
    LambdaTool r =
        new LambdaTool(
            "r",
            (args, ctx) -> {
              ctx.state().put("r", 3);
              ctx.state().increment("counter", 1);
              othersWrote.countDown();
              return Map.of("ok", "r");
            });
    LlmAgent agent =
        LlmAgent.builder()
            .name("agent")
            .model(callingAtOnce("p", "boom", "r"))
            .tools(p, boom, r)
            .build();

    List<Event> emitted = f.run(agent, RunConfig.builder().build());

    Event responses = emitted.get(1);
    assertThat(responseNames(responses)).containsExactly("p", "boom", "r");
    assertThat(response(responses, 0)).containsEntry("ok", "p");
    assertThat(response(responses, 1).get("error").toString())
        .contains("Tool 'boom' failed")
        .contains("boom failed");
    assertThat(response(responses, 2)).containsEntry("ok", "r");
    assertThat(responses.actions().stateDelta())
        .containsEntry("p", 1)
        .containsEntry("r", 3)
        .containsEntry("shared", "from p")
        .containsEntry("counter", 1)
        .doesNotContainKey("q");
    assertThat(f.stored().state())
        .containsEntry("p", 1)
        .containsEntry("r", 3)
        .containsEntry("shared", "from p")
        .containsEntry("counter", 1)
        .doesNotContainKey("q");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void oneAgentToolCalledTwiceAtOnce_bothChildrenCount_laterCallWins(Backend backend) {
    Fixture f = fixture(backend);
    AgentTool researcher =
        AgentTool.create(AgentToolTest.researcher(AgentToolTest.researcherModel()).build());
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCalls(
                ScriptedLlm.functionCall("researcher", Map.of("request", "one")),
                ScriptedLlm.functionCall("researcher", Map.of("request", "two")))
            .thenText("done")
            .build();
    LlmAgent agent = LlmAgent.builder().name("boss").model(model).tools(researcher).build();

    List<Event> emitted = f.run(agent, RunConfig.builder().build());

    Event responses = emitted.get(1);
    assertThat(responses.functionResponses())
        .extracting(r -> r.response().orElseThrow().get("result"))
        .containsExactly("Found: one", "Found: two");
    assertThat(responses.actions().stateDelta())
        .containsEntry("fact", "two")
        .containsEntry("research", "Found: two")
        .containsEntry("app:notes", 2);
    Session stored = f.stored();
    assertThat(stored.state())
        .containsEntry("fact", "two")
        .containsEntry("app:notes", 2)
        .doesNotContainKey("temp:child_scratch");
    assertThat(stored.events()).extracting(Event::author).containsOnly("user", "boss");
  }

  /** Runs {@code calls} calls of a tool that sleeps; returns the most that ran at once. */
  static int peakConcurrency(RunConfig config, int calls, Set<String> threads) {
    AtomicInteger running = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    LambdaTool work =
        new LambdaTool(
            "work",
            (args, ctx) -> {
              threads.add(Thread.currentThread().getName());
              int now = running.incrementAndGet();
              peak.accumulateAndGet(now, Math::max);
              try {
                Thread.sleep(150);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              running.decrementAndGet();
              ctx.state().put("done_" + args.get("i"), true);
              return Map.of("i", args.get("i"));
            });
    com.google.genai.types.FunctionCall[] fc = new com.google.genai.types.FunctionCall[calls];
    for (int i = 0; i < calls; i++) {
      fc[i] = ScriptedLlm.functionCall("work", Map.of("i", i));
    }
    ScriptedLlm model = ScriptedLlm.builder().thenFunctionCalls(fc).thenText("done").build();
    Fixture f = fixture(Backend.MEMORY);
    List<Event> emitted =
        f.run(LlmAgent.builder().name("agent").model(model).tools(work).build(), config);
    List<FunctionResponse> responses = emitted.get(1).functionResponses();
    assertThat(responses).hasSize(calls);
    for (int i = 0; i < calls; i++) {
      assertThat(responses.get(i).response().orElseThrow()).containsEntry("i", i);
      assertThat(f.stored().state()).containsEntry("done_" + i, true);
    }
    return peak.get();
  }

  @Test
  void concurrencyIsBounded_byMaxParallelToolCalls() {
    Set<String> threads = ConcurrentHashMap.newKeySet();
    int peak = peakConcurrency(RunConfig.builder().maxParallelToolCalls(3).build(), 7, threads);
    assertThat(peak).isBetween(2, 3);
    assertThat(threads).hasSizeLessThanOrEqualTo(3);
  }

  @Test
  void sequentialMode_runsOneAtATime_onTheAgentsThread() {
    Set<String> threads = ConcurrentHashMap.newKeySet();
    int peak =
        peakConcurrency(
            RunConfig.builder().toolExecutionMode(RunConfig.ToolExecutionMode.SEQUENTIAL).build(),
            4,
            threads);
    assertThat(peak).isEqualTo(1);
    assertThat(threads).hasSize(1);
  }

  @Test
  void givenExecutor_runsTheCalls_andARefusingOneLeavesThemToTheAgentsThread() {
    ExecutorService mine =
        Executors.newFixedThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "my-tool-thread");
              t.setDaemon(true);
              return t;
            });
    try {
      Set<String> threads = ConcurrentHashMap.newKeySet();
      int peak = peakConcurrency(RunConfig.builder().toolExecutor(mine).build(), 6, threads);
      assertThat(peak).isBetween(2, 3);
      assertThat(threads).contains("my-tool-thread").noneMatch(t -> t.startsWith("adk4j-tool"));
    } finally {
      mine.shutdownNow();
    }

    Set<String> threads = ConcurrentHashMap.newKeySet();
    int peak =
        peakConcurrency(
            RunConfig.builder()
                .toolExecutor(
                    r -> {
                      throw new RejectedExecutionException("full");
                    })
                .build(),
            3,
            threads);
    assertThat(peak).isEqualTo(1);
    assertThat(threads).hasSize(1);
  }
}
