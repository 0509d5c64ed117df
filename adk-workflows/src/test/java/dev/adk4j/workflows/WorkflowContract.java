package dev.adk4j.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.runner.InvocationFailedException;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.LongRunningFunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Single;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every session service gives a workflow: routing, fan-out and join, conflicts, loops,
 * retries, failures, resuming after a crash and after a pause. Subclasses say how to make the
 * service; the workflows and assertions are the same on each.
 */
abstract class WorkflowContract {

  static final String APP = "app";
  static final RunConfig CREATE = RunConfig.builder().autoCreateSession(true).build();

  /** A session service on a fresh store. */
  protected abstract BaseSessionService newSessions() throws Exception;

  protected void close(BaseSessionService sessions) throws Exception {}

  BaseSessionService sessions;
  final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

  @BeforeEach
  void open() throws Exception {
    sessions = newSessions();
  }

  @AfterEach
  void closeSessions() throws Exception {
    close(sessions);
  }

  int ran(String node) {
    return runs.computeIfAbsent(node, k -> new AtomicInteger()).get();
  }

  void count(String node) {
    runs.computeIfAbsent(node, k -> new AtomicInteger()).incrementAndGet();
  }

  Runner runner(Workflow wf) {
    return Runner.builder().agent(wf).appName(APP).sessionService(sessions).build();
  }

  List<Event> run(Workflow wf, String session, String text) {
    return InvocationFailedException.throwIfFailed(
        runner(wf).runAsync("u", session, Contents.user(text), CREATE).toList().blockingGet());
  }

  Session session(String id) {
    return sessions.getSession(APP, "u", id, Optional.empty()).blockingGet();
  }

  Map<String, Object> userState(String id) {
    Map<String, Object> state = new java.util.TreeMap<>(session(id).state());
    return state;
  }

  // ---------------------------------------------------------------- routing

  Workflow triage() {
    Node classify =
        Node.classifier(
            "classify",
            (ctx, in) -> {
              count("classify");
              return String.valueOf(in).contains("invoice") ? "billing" : "tech";
            });
    Node billing =
        Node.function(
            "billing",
            String.class,
            String.class,
            (ctx, in) -> {
              count("billing");
              ctx.state().put("team", "billing");
              return "refund";
            });
    Node tech =
        Node.function(
            "tech",
            String.class,
            String.class,
            (ctx, in) -> {
              count("tech");
              ctx.state().put("team", "tech");
              return "reboot";
            });
    Node summary =
        Node.function(
            "summary",
            String.class,
            String.class,
            (ctx, in) -> {
              count("summary");
              ctx.state().put("summary", ctx.state().get("team") + ": " + in);
              return in;
            });
    return Workflow.builder()
        .name("triage")
        .nodes(classify, billing, tech, summary)
        .edge(Workflow.START, "classify")
        .edge("classify", "billing", "billing")
        .edge("classify", "tech", "tech")
        .edge("billing", "summary")
        .edge("tech", "summary")
        .build();
  }

  @Test
  void classifier_takesTheEdgeOfItsRoute_andTheSummaryRunsAfterTheBranchTaken() {
    List<Event> events = run(triage(), "s1", "my invoice is wrong");

    assertThat(session("s1").state()).containsEntry("summary", "billing: refund");
    assertThat(ran("billing")).isEqualTo(1);
    assertThat(ran("tech")).isZero();
    assertThat(ran("summary")).isEqualTo(1);
    // Each node's completion is an event on the node's branch, carrying the node's writes.
    Event billingDone =
        events.stream()
            .filter(e -> e.branch().orElse("").equals("triage.billing"))
            .findFirst()
            .orElseThrow();
    assertThat(billingDone.author()).isEqualTo("triage");
    assertThat(billingDone.actions().stateDelta()).containsEntry("team", "billing");
    @SuppressWarnings("unchecked")
    Map<String, Object> classified =
        (Map<String, Object>)
            events.stream()
                .filter(e -> e.branch().orElse("").equals("triage.classify"))
                .findFirst()
                .orElseThrow()
                .actions()
                .stateDelta()
                .get("adk_workflow:triage.classify");
    assertThat(classified).containsEntry("route", "billing").containsEntry("status", "done");
    // The run's end removes the node records and leaves the run's.
    assertThat(session("s1").state().keySet())
        .filteredOn(k -> k.startsWith("adk_workflow:"))
        .containsExactly("adk_workflow:triage");
  }

  @Test
  void nodeEvents_carryAdkNodeInfoOutputAndRoute_asStoredAndReadBack() {
    run(triage(), "s1b", "my invoice is wrong");

    // Read back from the store: the fields survive the stored event JSON.
    List<Event> stored = session("s1b").events();
    Event classified =
        stored.stream()
            .filter(e -> e.nodeInfo().map(n -> n.path().equals("triage/classify")).orElse(false))
            .findFirst()
            .orElseThrow();
    assertThat(classified.actions().route()).contains("billing");
    assertThat(classified.output()).contains("billing");
    assertThat(classified.nodeInfo().orElseThrow().name()).isEqualTo("classify");
    String runId = classified.nodeInfo().orElseThrow().runId();
    assertThat(runId).isNotBlank();
    Event billing =
        stored.stream()
            .filter(e -> e.nodeInfo().map(n -> n.path().equals("triage/billing")).orElse(false))
            .findFirst()
            .orElseThrow();
    assertThat(billing.output()).contains("refund");
    assertThat(billing.actions().route()).isEmpty();
    assertThat(billing.nodeInfo().orElseThrow().runId()).isEqualTo(runId);
    // The run's end is on the workflow's own path and carries the workflow's output.
    Event end = stored.get(stored.size() - 1);
    assertThat(end.nodeInfo().orElseThrow().path()).isEqualTo("triage");
    assertThat(end.output()).contains("refund");
    // No node of the untaken branch has an event.
    assertThat(stored).noneMatch(e -> e.nodeInfo().map(n -> n.name().equals("tech")).orElse(false));
  }

  @Test
  void edgeConditions_readStateAsTheNodeFinishes() {
    Node score =
        Node.function(
            "score",
            String.class,
            Integer.class,
            (ctx, in) -> {
              ctx.state().put("score", in.length());
              return in.length();
            });
    Node high = Node.function("high", Integer.class, String.class, (ctx, n) -> "high " + n);
    Node low = Node.function("low", Integer.class, String.class, (ctx, n) -> "low " + n);
    Workflow wf =
        Workflow.builder()
            .name("scoring")
            .nodes(score, high, low)
            .edge(Workflow.START, "score")
            .edgeIf("score", "high", s -> ((Number) s.get("score")).intValue() > 3)
            .edgeIf("score", "low", s -> ((Number) s.get("score")).intValue() <= 3)
            .build();

    run(wf, "s2", "abcdef");

    @SuppressWarnings("unchecked")
    Map<String, Object> run =
        (Map<String, Object>) session("s2").state().get("adk_workflow:scoring");
    assertThat(run).containsEntry("status", "done").containsEntry("output", "high 6");
  }

  // ---------------------------------------------------------------- fan-out and join

  @Test
  void fanOut_runsBranchesConcurrently_andTheJoinGathersTheirOutputs() {
    CountDownLatch allStarted = new CountDownLatch(3);
    List<Node> branches = new ArrayList<>();
    for (String name : List.of("a", "b", "c")) {
      branches.add(
          Node.function(
              name,
              String.class,
              String.class,
              (ctx, in) -> {
                allStarted.countDown();
                // Only concurrent branches get past this: sequential ones would wait 10 s and fail.
                if (!allStarted.await(10, TimeUnit.SECONDS)) {
                  throw new IllegalStateException("branches did not run concurrently");
                }
                ctx.state().put("out_" + name, name.toUpperCase());
                ctx.state().increment("count", 1);
                return name;
              }));
    }
    Node join = Node.join("join");
    Node merge =
        Node.function(
            "merge",
            Map.class,
            String.class,
            (ctx, in) -> {
              ctx.state().put("merged", new java.util.TreeMap<>(in).toString());
              return "ok";
            });
    Workflow.Builder b = Workflow.builder().name("fan").nodes(join, merge).edge("join", "merge");
    for (Node n : branches) {
      b.node(n).edge(Workflow.START, n.name()).edge(n.name(), "join");
    }

    run(b.build(), "s3", "go");

    assertThat(session("s3").state())
        .containsEntry("out_a", "A")
        .containsEntry("out_b", "B")
        .containsEntry("out_c", "C")
        .containsEntry("count", 3)
        .containsEntry("merged", "{a=a, b=b, c=c}");
  }

  @Test
  void fanOut_twoBranchesWritingOneKey_isAConflictNamingBothNodes() {
    Node left =
        Node.function(
            "left",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.state().put("shared", "left");
              return "l";
            });
    Node right =
        Node.function(
            "right",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.state().put("shared", "right");
              return "r";
            });
    Workflow wf =
        Workflow.builder()
            .name("clash")
            .nodes(left, right)
            .edge(Workflow.START, "left")
            .edge(Workflow.START, "right")
            .build();

    assertThatThrownBy(() -> run(wf, "s4", "go"))
        .isInstanceOf(NodeStateConflictException.class)
        .hasMessageContaining("'clash.left'")
        .hasMessageContaining("'clash.right'")
        .hasMessageContaining("'shared'");
    Session s = session("s4");
    // Exactly one of them was stored; the run ended with an error event and is failed.
    assertThat(s.state().get("shared")).isIn("left", "right");
    assertThat(s.events()).anyMatch(e -> e.errorCode().orElse("").equals("WORKFLOW_NODE_FAILED"));
    @SuppressWarnings("unchecked")
    Map<String, Object> run = (Map<String, Object>) s.state().get("adk_workflow:clash");
    assertThat(run).containsEntry("status", "failed");
  }

  // ---------------------------------------------------------------- loops and retries

  @Test
  void loop_runsItsBodyUntilTheConditionHolds_andNoMoreThanMaxIterations() {
    Node draft =
        Node.function(
            "draft",
            Object.class,
            Integer.class,
            (ctx, in) -> {
              count("draft");
              return (int) ctx.state().increment("drafts", 1);
            });
    Workflow body = Workflow.builder().name("body").start(draft).build();
    Node refine = Node.loop("refine", body, 5, s -> ((Number) s.get("drafts")).intValue() >= 3);
    Node capped =
        Node.loop(
            "capped",
            Workflow.builder()
                .name("body2")
                .start(
                    Node.function(
                        "spin",
                        Object.class,
                        Integer.class,
                        (ctx, in) -> (int) ctx.state().increment("spins", 1)))
                .build(),
            2,
            s -> false);
    Workflow wf =
        Workflow.builder()
            .name("loops")
            .nodes(refine, capped)
            .edge(Workflow.START, "refine")
            .edge("refine", "capped")
            .build();

    run(wf, "s5", "go");

    assertThat(session("s5").state()).containsEntry("drafts", 3).containsEntry("spins", 2);
    assertThat(ran("draft")).isEqualTo(3);
  }

  @Test
  void retry_runsAFailedNodeAgain_andKeepsOnlyTheSuccessfulAttemptsWrites() {
    AtomicInteger attempts = new AtomicInteger();
    Node flaky =
        Node.function(
                "flaky",
                String.class,
                String.class,
                (ctx, in) -> {
                  ctx.state().put("attempt_" + ctx.attempt(), true);
                  if (attempts.incrementAndGet() < 3) {
                    throw new java.io.IOException("transient");
                  }
                  return "ok";
                })
            .withRetry(RetryConfig.attempts(3, Duration.ofMillis(1)));
    Workflow wf = Workflow.builder().name("retrying").start(flaky).build();

    run(wf, "s6", "go");

    assertThat(attempts).hasValue(3);
    assertThat(session("s6").state())
        .containsEntry("attempt_3", true)
        .doesNotContainKeys("attempt_1", "attempt_2");
  }

  @Test
  void aNodeThatFailsAfterItsRetries_endsTheRunWithAnErrorEvent() {
    Node broken =
        Node.function(
                "broken",
                String.class,
                String.class,
                (ctx, in) -> {
                  count("broken");
                  throw new IllegalStateException("always");
                })
            .withRetry(
                RetryConfig.attempts(2, Duration.ZERO)
                    .retryingOn(e -> e instanceof IllegalStateException));
    Node after = Node.function("after", String.class, String.class, (ctx, in) -> in);
    Workflow wf = Workflow.builder().name("failing").edge(broken, after).start(broken).build();

    assertThatThrownBy(() -> run(wf, "s7", "go"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("always");

    assertThat(ran("broken")).isEqualTo(2);
    Event error =
        session("s7").events().stream()
            .filter(e -> e.errorCode().orElse("").equals("WORKFLOW_NODE_FAILED"))
            .findFirst()
            .orElseThrow();
    assertThat(error.errorMessage().orElseThrow())
        .contains("'broken'", "'failing'", "after 2 attempts");
    assertThat(error.branch()).contains("failing.broken");
  }

  // ---------------------------------------------------------------- durability

  /**
   * Thrown by a node to simulate the process dying there: an Error is never retried or recorded.
   */
  static final class Crash extends Error {
    Crash(String where) {
      super("simulated crash at " + where);
    }
  }

  Workflow pipeline(String crashAt) {
    List<Node> nodes = new ArrayList<>();
    for (String name : List.of("one", "two", "three")) {
      nodes.add(
          Node.function(
              name,
              String.class,
              String.class,
              (ctx, in) -> {
                count(name);
                ctx.state().put(name, in + ">" + name);
                ctx.state().increment("steps", 1);
                if (name.equals(crashAt) && ran(name) == 1) {
                  throw new Crash(name);
                }
                return in + ">" + name;
              }));
    }
    return Workflow.builder()
        .name("pipeline")
        .edge(Workflow.START, "one")
        .edge(nodes.get(0), nodes.get(1))
        .edge(nodes.get(1), nodes.get(2))
        .build();
  }

  @Test
  void aRunInterruptedInANode_resumesThereOnAFreshRunner_andNoFinishedNodeRunsAgain() {
    Workflow wf = pipeline("two");
    assertThatThrownBy(() -> run(wf, "s8", "x")).isInstanceOf(Crash.class);
    assertThat(session("s8").state()).containsKey("one").doesNotContainKey("two");

    run(wf, "s8", "continue");

    assertThat(ran("one")).isEqualTo(1);
    assertThat(ran("two")).isEqualTo(2);
    assertThat(ran("three")).isEqualTo(1);
    // The run kept its first input; each node's writes were stored once.
    assertThat(session("s8").state())
        .containsEntry("three", "x>one>two>three")
        .containsEntry("steps", 3);
  }

  @Test
  void aFinishedRun_isNotResumed_theNextMessageStartsANewRun() {
    Workflow wf = pipeline("none");
    run(wf, "s9", "a");
    run(wf, "s9", "b");

    assertThat(ran("one")).isEqualTo(2);
    assertThat(session("s9").state())
        .containsEntry("three", "b>one>two>three")
        .containsEntry("steps", 6);
  }

  // ---------------------------------------------------------------- agents and pauses

  /** A tool a person answers: its calls pause the invocation. */
  public static final class Approvals {
    public static Map<String, Object> askApproval(String what) {
      return Map.of("status", "pending");
    }
  }

  @Test
  void agentNodes_writeTheirOutputKey_andALongRunningCallPausesTheRunUntilAnswered() {
    LlmAgent writer =
        LlmAgent.builder()
            .name("writer")
            .model(ScriptedLlm.builder().thenText("a draft").build())
            .outputKey("draft")
            .build();
    LlmAgent approver =
        LlmAgent.builder()
            .name("approver")
            .model(
                ScriptedLlm.builder()
                    .thenFunctionCall("askApproval", Map.of("what", "draft"))
                    .thenText("approved")
                    .build())
            .tools(LongRunningFunctionTool.create(Approvals.class, "askApproval"))
            .outputKey("verdict")
            .build();
    Node publish =
        Node.function(
            "publish",
            String.class,
            String.class,
            (ctx, in) -> {
              count("publish");
              ctx.state().put("published", ctx.state().get("draft") + " / " + in);
              return "done";
            });
    Workflow wf =
        Workflow.builder()
            .name("review")
            .start(Node.agent(writer))
            .edge(Node.agent(writer), Node.agent(approver))
            .edge(Node.agent(approver), publish)
            .build();

    List<Event> first = run(wf, "s10", "write it");

    assertThat(session("s10").state())
        .containsEntry("draft", "a draft")
        .doesNotContainKey("published");
    Event call =
        first.stream().filter(Event::hasPendingLongRunningToolCall).findFirst().orElseThrow();
    assertThat(call.branch()).contains("review.approver");
    String callId = call.functionCalls().get(0).id().orElseThrow();

    Content answer =
        Content.builder()
            .role("user")
            .parts(
                Part.builder()
                    .functionResponse(
                        FunctionResponse.builder()
                            .id(callId)
                            .name("askApproval")
                            .response(Map.of("status", "approved")))
                    .build())
            .build();
    // Any runner on the same store resumes it.
    runner(wf).runAsync("u", "s10", answer, CREATE).toList().blockingGet();

    assertThat(session("s10").state())
        .containsEntry("verdict", "approved")
        .containsEntry("published", "a draft / approved");
    assertThat(ran("publish")).isEqualTo(1);
    @SuppressWarnings("unchecked")
    Map<String, Object> run =
        (Map<String, Object>) session("s10").state().get("adk_workflow:review");
    assertThat(run).containsEntry("status", "done");
  }

  // ---------------------------------------------------------------- agent nodes: exactly-once
  // writes

  /** A tool that appends to a list (a read-modify-write) and counts its calls (an increment). */
  static BaseTool recordTool() {
    return new BaseTool("record", "records a visit") {
      @Override
      public Optional<FunctionDeclaration> declaration() {
        return Optional.of(FunctionDeclaration.builder().name("record").build());
      }

      @Override
      public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext ctx) {
        return Single.fromCallable(
            () -> {
              List<Object> visits =
                  new ArrayList<>((List<?>) ctx.state().getOrDefault("visits", List.of()));
              visits.add("tally");
              ctx.state().put("visits", visits);
              ctx.state().increment("calls", 1);
              return Map.of("ok", true);
            });
      }
    };
  }

  Workflow tallying(ScriptedLlm model, RetryConfig retry) {
    LlmAgent tally =
        LlmAgent.builder().name("tally").model(model).tools(recordTool()).outputKey("said").build();
    Node after =
        Node.function(
            "after",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.state().increment("calls", 10);
              return in;
            });
    return Workflow.builder()
        .name("tallying")
        .start(Node.agent(tally).withRetry(retry))
        .node(after)
        .edge("tally", "after")
        .build();
  }

  @Test
  void anAgentNodeKilledMidway_isUndoneThenRerun_soItsStateWritesApplyOnce() {
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("record", Map.of())
            .thenError(new Crash("tally")) // the process dies after the tool's event was stored
            .thenFunctionCall("record", Map.of())
            .thenText("tallied")
            .build();
    Workflow wf = tallying(model, RetryConfig.NONE);
    assertThatThrownBy(() -> run(wf, "s11", "go")).isInstanceOf(Crash.class);
    assertThat(session("s11").state())
        .containsEntry("calls", 1)
        .containsEntry("visits", List.of("tally"));

    run(wf, "s11", "continue");

    assertThat(session("s11").state())
        .containsEntry("calls", 11)
        .containsEntry("visits", List.of("tally"))
        .containsEntry("said", "tallied");
    // Each write stays in its own event's delta: the killed attempt's, the undo, the rerun's.
    List<Event> stored = session("s11").events();
    assertThat(stored).filteredOn(e -> e.actions().stateDelta().containsKey("visits")).hasSize(3);
    Event undo =
        stored.stream()
            .filter(e -> e.author().equals("tallying"))
            .filter(e -> e.actions().stateDelta().containsKey("visits"))
            .findFirst()
            .orElseThrow();
    // visits restored to absent; calls, created by the attempt and nobody else, removed
    assertThat(undo.actions().stateDelta())
        .containsEntry("visits", null)
        .containsEntry("calls", null);
    assertThat(undo.branch()).contains("tallying.tally");
    // The rerun is on a sibling branch: its model saw none of the undone attempt's events.
    assertThat(ScriptedLlm.functionResponses(model.request(2))).isEmpty();
    assertThat(stored)
        .filteredOn(e -> e.author().equals("tally"))
        .extracting(e -> e.branch().orElse(""))
        .containsOnly("tallying.tally", "tallying.tally@2");
  }

  @Test
  void anAgentNodeRetriedAfterAFailureMidway_hasItsStateWritesAppliedOnce() {
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("record", Map.of())
            .thenError(new IllegalStateException("model unavailable"))
            .thenFunctionCall("record", Map.of())
            .thenText("tallied")
            .build();
    Workflow wf = tallying(model, RetryConfig.attempts(2, Duration.ZERO));

    run(wf, "s12", "go");

    assertThat(session("s12").state())
        .containsEntry("calls", 11)
        .containsEntry("visits", List.of("tally"))
        .containsEntry("said", "tallied");
    model.assertScriptConsumed();
  }

  @Test
  void anAgentNodesUndo_keepsAUserKeyAnotherSessionWroteAfterTheKilledAttempt() {
    BaseTool note =
        new BaseTool("note", "notes a visit") {
          @Override
          public Optional<FunctionDeclaration> declaration() {
            return Optional.of(FunctionDeclaration.builder().name("note").build());
          }

          @Override
          public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext ctx) {
            return Single.fromCallable(
                () -> {
                  List<Object> notes =
                      new ArrayList<>((List<?>) ctx.state().getOrDefault("user:notes", List.of()));
                  notes.add("tally");
                  ctx.state().put("user:notes", notes);
                  return Map.of("ok", true);
                });
          }
        };
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("note", Map.of())
            .thenError(new Crash("noter")) // the process dies after the tool's event was stored
            .thenFunctionCall("note", Map.of())
            .thenText("noted")
            .build();
    Workflow wf =
        Workflow.builder()
            .name("noting")
            .start(Node.agent(LlmAgent.builder().name("noter").model(model).tools(note).build()))
            .build();
    assertThatThrownBy(() -> run(wf, "s13", "go")).isInstanceOf(Crash.class);
    assertThat(session("s13").state()).containsEntry("user:notes", List.of("tally"));

    // Another session of the same user replaces the key before the run resumes.
    Session other = sessions.createSession(APP, "u", null, "s13-other").blockingGet();
    sessions
        .appendEvent(
            other,
            Event.builder()
                .invocationId("elsewhere")
                .author("user")
                .actions(EventActions.builder().putState("user:notes", List.of("other")).build())
                .build())
        .blockingGet();
    run(wf, "s13", "continue");

    // The undo left the other session's value; the rerun added its note to it once.
    assertThat(session("s13").state()).containsEntry("user:notes", List.of("other", "tally"));
  }
}
