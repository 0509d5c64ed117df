package dev.adk4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.FunctionDeclaration;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.sessions.Session;
import dev.adk4j.state.Scope;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Sequential, parallel and loop agents, transfer, and outputKey across them, run through an {@link
 * InvocationContext} over the in-memory services ({@link AgentHarness}).
 */
class WorkflowAgentsTest {

  final AgentHarness harness = new AgentHarness();

  @Test
  void sequential_tempOutputKey_isVisibleToTheNextAgent_andNeverStored() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .whenInstructionContains(
                "Write a draft", ScriptedLlm.script().thenText("A draft about cats."))
            .whenInstructionContains(
                "Review this draft",
                ScriptedLlm.script().thenText("Looks good.").thenText("Nothing to review."))
            .build();
    LlmAgent writer =
        LlmAgent.builder()
            .name("writer")
            .model(llm)
            .instruction("Write a draft.")
            .outputKey("temp:draft")
            .build();
    LlmAgent reviewer =
        LlmAgent.builder()
            .name("reviewer")
            .model(llm)
            .instruction("Review this draft: {temp:draft}")
            .outputKey("review")
            .build();
    SequentialAgent pipeline =
        SequentialAgent.builder().name("pipeline").subAgents(writer, reviewer).build();

    List<Event> events = harness.run(pipeline, "go");

    assertThat(events).extracting(Event::author).containsExactly("writer", "reviewer");
    assertThat(events.get(0).invocationId()).isEqualTo(events.get(1).invocationId());
    LlmRequestView reviewRequest = new LlmRequestView(llm.requests().get(1));
    assertThat(reviewRequest.instruction()).contains("Review this draft: A draft about cats.");
    Session s = harness.stored();
    assertThat(s.state()).containsEntry("review", "Looks good.");
    assertThat(s.state().keySet()).noneMatch(k -> k.startsWith("temp:"));
    assertThat(s.events())
        .allSatisfy(
            e ->
                assertThat(e.actions().stateDelta().keySet())
                    .noneMatch(k -> k.startsWith("temp:")));

    // A later invocation does not see the draft.
    LlmAgent optionalReviewer =
        LlmAgent.builder()
            .name("reviewer2")
            .model(llm)
            .instruction("Review this draft: [{temp:draft?}]")
            .build();
    harness.run(optionalReviewer, "again");
    assertThat(new LlmRequestView(llm.lastRequest()).instruction())
        .contains("Review this draft: []");
  }

  record LlmRequestView(dev.adk4j.models.LlmRequest request) {
    String instruction() {
      return request.systemInstruction().orElse("");
    }
  }

  /** An agent that writes its own key {@code n} times, one event per write. */
  static final class Writer extends BaseAgent {
    final int n;

    Writer(String name, int n) {
      super(name, "", List.of(), List.of(), List.of());
      this.n = n;
    }

    @Override
    protected Flowable<Event> runAsyncImpl(InvocationContext ctx) {
      return Flowable.range(0, n)
          .map(
              i -> {
                CallbackContext cc = new CallbackContext(ctx);
                cc.state().put(name() + "_" + i, i);
                cc.state().put("temp:" + name(), i);
                return newEvent(ctx).actions(cc.actions()).build();
              });
    }
  }

  @Test
  void parallel_threeChildrenWriting100KeysEach_loseNothing() {
    ParallelAgent parallel =
        ParallelAgent.builder()
            .name("fanout")
            .subAgents(new Writer("a", 100), new Writer("b", 100), new Writer("c", 100))
            .build();

    List<Event> events = harness.run(parallel, "go");

    assertThat(events).hasSize(300);
    Session s = harness.stored();
    assertThat(s.events()).hasSize(301);
    for (String child : List.of("a", "b", "c")) {
      for (int i = 0; i < 100; i++) {
        assertThat(s.state()).containsEntry(child + "_" + i, i);
      }
    }
    assertThat(s.state().keySet()).noneMatch(k -> Scope.of(k) == Scope.TEMP);
    Map<String, Set<String>> branches =
        events.stream()
            .collect(
                Collectors.groupingBy(
                    Event::author,
                    Collectors.mapping(e -> e.branch().orElse(""), Collectors.toSet())));
    assertThat(branches)
        .containsEntry("a", Set.of("fanout.a"))
        .containsEntry("b", Set.of("fanout.b"))
        .containsEntry("c", Set.of("fanout.c"));
  }

  @Test
  void parallel_childrenRunConcurrently_andSeeEachOthersWrites() {
    java.util.concurrent.CountDownLatch written = new java.util.concurrent.CountDownLatch(1);
    ConcurrentHashMap<String, Object> seen = new ConcurrentHashMap<>();
    BaseAgent producer =
        new BaseAgent("producer", "", List.of(), List.of(), List.of()) {
          @Override
          protected Flowable<Event> runAsyncImpl(InvocationContext ctx) {
            return Flowable.fromCallable(
                () -> {
                  seen.put("producerThread", Thread.currentThread().getName());
                  CallbackContext cc = new CallbackContext(ctx);
                  cc.state().put("temp:signal", "hello from producer");
                  written.countDown();
                  return newEvent(ctx).actions(cc.actions()).build();
                });
          }
        };
    BaseAgent consumer =
        new BaseAgent("consumer", "", List.of(), List.of(), List.of()) {
          @Override
          protected Flowable<Event> runAsyncImpl(InvocationContext ctx) {
            return Flowable.fromCallable(
                () -> {
                  seen.put("consumerThread", Thread.currentThread().getName());
                  // Waits on the producer, so the two must run at the same time.
                  assertThat(written.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                  seen.put("signal", new CallbackContext(ctx).state().get("temp:signal"));
                  return newEvent(ctx).build();
                });
          }
        };
    harness.run(ParallelAgent.builder().name("p").subAgents(consumer, producer).build(), "go");
    assertThat(seen).containsEntry("signal", "hello from producer");
    assertThat(seen.get("producerThread")).isNotEqualTo(seen.get("consumerThread"));
  }

  @Test
  void nestedParallel_branchNamesAreAgentPaths() {
    ParallelAgent inner =
        ParallelAgent.builder()
            .name("inner")
            .subAgents(new Writer("x", 1), new Writer("y", 1))
            .build();
    ParallelAgent outer =
        ParallelAgent.builder().name("outer").subAgents(inner, new Writer("z", 1)).build();

    List<Event> events = harness.run(outer, "go");

    Map<String, String> branchByAuthor =
        events.stream().collect(Collectors.toMap(Event::author, e -> e.branch().orElse("")));
    assertThat(branchByAuthor)
        .containsEntry("x", "outer.inner.x")
        .containsEntry("y", "outer.inner.y")
        .containsEntry("z", "outer.z");
  }

  @Test
  void parallelBranches_seeOnlyTheirOwnBranchHistory() {
    java.util.concurrent.CountDownLatch rightDone = new java.util.concurrent.CountDownLatch(1);
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .whenInstructionContains("first left", ScriptedLlm.script().thenText("L1"))
            .whenInstructionContains("second left", ScriptedLlm.script().thenText("L2"))
            .whenInstructionContains("first right", ScriptedLlm.script().thenText("R1"))
            .build();
    BaseAgent waitForRight =
        new BaseAgent("wait_for_right", "", List.of(), List.of(), List.of()) {
          @Override
          protected Flowable<Event> runAsyncImpl(InvocationContext ctx) {
            return Flowable.defer(
                () -> {
                  assertThat(rightDone.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                  return Flowable.empty();
                });
          }
        };
    BaseAgent signalRightDone =
        new BaseAgent("signal", "", List.of(), List.of(), List.of()) {
          @Override
          protected Flowable<Event> runAsyncImpl(InvocationContext ctx) {
            return Flowable.defer(
                () -> {
                  rightDone.countDown();
                  return Flowable.empty();
                });
          }
        };
    SequentialAgent left =
        SequentialAgent.builder()
            .name("left")
            .subAgents(
                LlmAgent.builder().name("left1").model(llm).instruction("first left").build(),
                waitForRight,
                LlmAgent.builder().name("left2").model(llm).instruction("second left").build())
            .build();
    SequentialAgent right =
        SequentialAgent.builder()
            .name("right")
            .subAgents(
                LlmAgent.builder().name("right1").model(llm).instruction("first right").build(),
                signalRightDone)
            .build();

    harness.run(ParallelAgent.builder().name("p").subAgents(left, right).build(), "go");

    String left2Request =
        llm.requests().stream()
            .filter(r -> r.systemInstruction().orElse("").contains("second left"))
            .findFirst()
            .orElseThrow()
            .contents()
            .toString();
    assertThat(left2Request).contains("L1").doesNotContain("R1");
    assertThat(harness.stored().events())
        .extracting(e -> e.branch().orElse(""))
        .contains("p.left", "p.right");
  }

  static final class Escalate extends BaseTool {
    Escalate() {
      super("finish", "Stops the loop.");
    }

    @Override
    public Optional<FunctionDeclaration> declaration() {
      return Optional.of(FunctionDeclaration.builder().name("finish").build());
    }

    @Override
    public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext ctx) {
      ctx.escalate();
      return Single.just(Map.of("stopped", true));
    }
  }

  @Test
  void loop_stopsOnEscalate() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenText("round 1")
            .thenText("round 2")
            .thenFunctionCall("finish", Map.of())
            .build();
    LlmAgent worker =
        LlmAgent.builder()
            .name("worker")
            .model(llm)
            .tools(new Escalate())
            .afterAgentCallback(
                ctx -> {
                  ctx.state().merge("rounds", 1, (a, b) -> (Integer) a + (Integer) b);
                  return Maybe.empty();
                })
            .build();
    LoopAgent loop = LoopAgent.builder().name("loop").subAgents(worker).maxIterations(10).build();

    harness.run(loop, "go");

    assertThat(llm.callCount()).isEqualTo(3);
    // As in ADK, the escalating event ends the worker's run: its after-agent callback runs in the
    // two rounds that did not escalate only.
    assertThat(harness.stored().state()).containsEntry("rounds", 2);
  }

  @Test
  void loop_stopsAtMaxIterations() {
    ScriptedLlm llm = ScriptedLlm.answering(req -> ScriptedLlm.textResponse("again"));
    LlmAgent worker = LlmAgent.builder().name("worker").model(llm).build();
    harness.run(LoopAgent.builder().name("loop").subAgents(worker).maxIterations(4).build(), "go");
    assertThat(llm.callCount()).isEqualTo(4);
  }

  @Test
  void loop_escalationFromACustomEvent_stopsBeforeTheNextSibling() {
    BaseAgent stopper =
        new BaseAgent("stopper", "", List.of(), List.of(), List.of()) {
          @Override
          protected Flowable<Event> runAsyncImpl(InvocationContext ctx) {
            return Flowable.just(
                newEvent(ctx).actions(EventActions.builder().escalate(true).build()).build());
          }
        };
    Writer after = new Writer("after", 1);
    harness.run(LoopAgent.builder().name("loop").subAgents(stopper, after).build(), "go");
    assertThat(harness.stored().state()).doesNotContainKey("after_0");
  }

  @Test
  void outputKeyAfterTransfer_storesNothingInTheParentsKey() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .whenInstructionContains(
                "You are the router",
                ScriptedLlm.script()
                    .thenFunctionCall("transfer_to_agent", Map.of("agent_name", "expert")))
            .whenInstructionContains(
                "You are the expert", ScriptedLlm.script().thenText("Expert answer"))
            .build();
    LlmAgent expert =
        LlmAgent.builder()
            .name("expert")
            .description("Answers hard questions")
            .model(llm)
            .instruction("You are the expert.")
            .outputKey("expert_answer")
            .build();
    LlmAgent router =
        LlmAgent.builder()
            .name("router")
            .model(llm)
            .instruction("You are the router.")
            .outputKey("router_answer")
            .subAgents(expert)
            .build();

    List<Event> events = harness.run(router, "hard question");

    assertThat(events.get(events.size() - 1).author()).isEqualTo("expert");
    Session s = harness.stored();
    assertThat(s.state()).containsEntry("expert_answer", "Expert answer");
    assertThat(s.state()).doesNotContainKey("router_answer");
    assertThat(llm.requests().get(0).functionDeclarations())
        .extracting(d -> d.name().orElse(""))
        .contains("transfer_to_agent");
  }

  @Test
  void beforeAgentCallbackContent_skipsOnlyItsSubAgent_andTheRestIsStored() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .whenInstructionContains("Draft.", ScriptedLlm.script().thenText("Draft text."))
            .whenInstructionContains(
                "Publish: cached review", ScriptedLlm.script().thenText("Done."))
            .build();
    LlmAgent drafter = LlmAgent.builder().name("drafter").model(llm).instruction("Draft.").build();
    LlmAgent reviewer =
        LlmAgent.builder()
            .name("reviewer")
            .model(llm)
            .instruction("Review.")
            .outputKey("review")
            .beforeAgentCallback(ctx -> Maybe.just(Contents.model("cached review")))
            .build();
    LlmAgent publisher =
        LlmAgent.builder()
            .name("publisher")
            .model(llm)
            .instruction("Publish: {review}")
            .outputKey("published")
            .build();
    SequentialAgent pipeline =
        SequentialAgent.builder().name("pipeline").subAgents(drafter, reviewer, publisher).build();

    List<Event> events = harness.run(pipeline, "go");

    assertThat(events)
        .extracting(Event::author, Event::stringifyContent)
        .containsExactly(
            org.assertj.core.api.Assertions.tuple("drafter", "Draft text."),
            org.assertj.core.api.Assertions.tuple("reviewer", "cached review"),
            org.assertj.core.api.Assertions.tuple("publisher", "Done."));
    assertThat(events.get(1).actions().stateDelta()).containsEntry("review", "cached review");
    Session s = harness.stored();
    assertThat(s.state())
        .containsEntry("review", "cached review")
        .containsEntry("published", "Done.");
    assertThat(s.events())
        .extracting(Event::author)
        .containsExactly("user", "drafter", "reviewer", "publisher");
    assertThat(llm.requests()).noneMatch(r -> r.systemInstruction().orElse("").contains("Review."));
  }

  @Test
  void subAgentsShareTheInvocationIdAndLiveTempState() {
    BaseAgent first =
        new BaseAgent("first", "", List.of(), List.of(), List.of()) {
          @Override
          protected Flowable<Event> runAsyncImpl(InvocationContext ctx) {
            CallbackContext cc = new CallbackContext(ctx);
            cc.state().put("temp:shared", "from first");
            return Flowable.just(newEvent(ctx).actions(cc.actions()).build());
          }
        };
    ConcurrentHashMap<String, Object> seen = new ConcurrentHashMap<>();
    BaseAgent second =
        new BaseAgent("second", "", List.of(), List.of(), List.of()) {
          @Override
          protected Flowable<Event> runAsyncImpl(InvocationContext ctx) {
            seen.put("temp", new CallbackContext(ctx).state().get("temp:shared"));
            seen.put("inv", ctx.invocationId());
            return Flowable.empty();
          }
        };
    List<Event> events =
        harness.run(SequentialAgent.builder().name("seq").subAgents(first, second).build(), "go");
    assertThat(seen).containsEntry("temp", "from first");
    assertThat(seen.get("inv")).isEqualTo(events.get(0).invocationId());
  }
}
