package dev.adk4j.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InvocationFailedException;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import io.reactivex.rxjava3.core.Flowable;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Retry backoffs and node timeouts are measured by the workflow's scheduler: with a {@link
 * ManualTime} the test moves the clock, so an hour of backoff or a minute of timeout passes without
 * waiting, and the waits asked for are seen exactly.
 */
class NodeTimeTest {
  static final RunConfig CREATE = RunConfig.builder().autoCreateSession(true).build();

  final ManualTime time = new ManualTime();
  final InMemorySessionService sessions = new InMemorySessionService();

  @AfterEach
  void stop() {
    time.shutdownNow();
  }

  CompletableFuture<List<Event>> start(Workflow wf, String session) {
    return start(wf, session, CREATE);
  }

  CompletableFuture<List<Event>> start(Workflow wf, String session, RunConfig config) {
    Runner runner = Runner.builder().agent(wf).appName("app").sessionService(sessions).build();
    return CompletableFuture.supplyAsync(
        () ->
            InvocationFailedException.throwIfFailed(
                runner.runAsync("u", session, Contents.user("go"), config).toList().blockingGet()));
  }

  Session session(String id) {
    return sessions.getSession("app", "u", id, Optional.empty()).blockingGet();
  }

  static <T> T join(CompletableFuture<T> run) throws Exception {
    try {
      return run.get(20, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw (Exception) e.getCause();
    }
  }

  @Test
  void retryBackoff_waitsOnTheWorkflowsScheduler_doublingFromTheInitialDelay() throws Exception {
    AtomicInteger attempts = new AtomicInteger();
    Node flaky =
        Node.function(
                "flaky",
                String.class,
                String.class,
                (ctx, in) -> {
                  if (attempts.incrementAndGet() < 3) {
                    throw new java.io.IOException("transient");
                  }
                  ctx.state().put("done", true);
                  return "ok";
                })
            .withRetry(
                new RetryConfig(3, Duration.ofHours(1), 2.0, Duration.ofHours(5), e -> true));
    Workflow wf = Workflow.builder().name("backoff").scheduler(time).start(flaky).build();

    CompletableFuture<List<Event>> run = start(wf, "s1");
    time.awaitPending(1);
    assertThat(time.requested).containsExactly(Duration.ofHours(1));
    assertThat(attempts).hasValue(1);
    time.advance(Duration.ofMinutes(59));
    assertThat(run).isNotDone();
    time.advance(Duration.ofMinutes(1));
    time.awaitPending(1);
    assertThat(time.requested).containsExactly(Duration.ofHours(1), Duration.ofHours(2));
    assertThat(attempts).hasValue(2);
    time.advance(Duration.ofHours(2));

    join(run);
    assertThat(attempts).hasValue(3);
    assertThat(session("s1").state()).containsEntry("done", true);
  }

  /**
   * A node whose first attempt writes, counts down {@code hangs}, then hangs until interrupted;
   * later ones finish. A test moves time only after {@code hangs}: an attempt timed out before its
   * thread started never runs, and the retry would then be the one to hang.
   */
  static Node hanging(AtomicInteger attempts, CountDownLatch hangs, CountDownLatch interrupted) {
    return Node.function(
        "slow",
        String.class,
        String.class,
        (ctx, in) -> {
          int n = attempts.incrementAndGet();
          ctx.state().put("attempt_" + n, true);
          if (n == 1) {
            hangs.countDown();
            try {
              new CountDownLatch(1).await();
            } catch (InterruptedException e) {
              interrupted.countDown();
              throw e;
            }
          }
          return "finished on attempt " + n;
        });
  }

  @Test
  void aNodeOverItsTimeout_isInterrupted_itsWritesDropped_andItsRetryPolicyRunsItAgain()
      throws Exception {
    AtomicInteger attempts = new AtomicInteger();
    CountDownLatch hangs = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    Node slow =
        hanging(attempts, hangs, interrupted)
            .withTimeout(Duration.ofMinutes(1))
            .withRetry(
                RetryConfig.attempts(2, Duration.ZERO)
                    .retryingOn(e -> e instanceof TimeoutException));
    Workflow wf = Workflow.builder().name("deadline").scheduler(time).start(slow).build();

    CompletableFuture<List<Event>> run = start(wf, "s2");
    time.awaitPending(1);
    assertThat(hangs.await(10, TimeUnit.SECONDS)).isTrue();
    time.advance(Duration.ofMinutes(1));

    join(run);
    assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(attempts).hasValue(2);
    assertThat(session("s2").state())
        .containsEntry("attempt_2", true)
        .doesNotContainKey("attempt_1");
    Event done =
        session("s2").events().stream()
            .filter(e -> e.nodeInfo().map(n -> n.name().equals("slow")).orElse(false))
            .findFirst()
            .orElseThrow();
    assertThat(done.output()).contains("finished on attempt 2");
  }

  @Test
  void aNodeOverItsTimeout_withoutRetry_endsTheRunWithAnErrorNamingTheNodeAndTimeout()
      throws Exception {
    CountDownLatch hangs = new CountDownLatch(1);
    Node slow =
        hanging(new AtomicInteger(), hangs, new CountDownLatch(1))
            .withTimeout(Duration.ofMinutes(1));
    Workflow wf = Workflow.builder().name("deadline").scheduler(time).start(slow).build();

    CompletableFuture<List<Event>> run = start(wf, "s3");
    time.awaitPending(1);
    assertThat(hangs.await(10, TimeUnit.SECONDS)).isTrue();
    time.advance(Duration.ofSeconds(59));
    assertThat(run).isNotDone();
    time.advance(Duration.ofSeconds(1));

    assertThatThrownBy(() -> join(run))
        .isInstanceOf(InvocationFailedException.class)
        .hasMessageContaining("'slow'")
        .hasMessageContaining("'deadline'")
        .hasMessageContaining("timed out after PT1M");
    Event error =
        session("s3").events().stream()
            .filter(e -> e.errorCode().orElse("").equals("WORKFLOW_NODE_FAILED"))
            .findFirst()
            .orElseThrow();
    assertThat(error.errorMessage().orElseThrow()).contains("timed out after PT1M");
    assertThat(session("s3").state()).doesNotContainKey("attempt_1");
  }

  @Test
  void anAttemptTimedOutBeforeItsThreadStarted_neverRuns_andItsRetryRunsOnce() throws Exception {
    // The executor runs the node (submitted by the run) and holds back, as a busy pool would, the
    // first task a node submits on it: the node's first timed attempt.
    CompletableFuture<Runnable> held = new CompletableFuture<>();
    java.util.concurrent.Executor gated =
        task -> {
          boolean fromNode = Thread.currentThread().getName().equals("gated");
          if (!fromNode || !held.complete(task)) {
            new Thread(task, "gated").start();
          }
        };
    AtomicInteger runs = new AtomicInteger();
    Node counted =
        Node.function(
                "counted",
                String.class,
                String.class,
                (ctx, in) -> {
                  int n = runs.incrementAndGet();
                  ctx.state().put("run_" + n, true);
                  return "run " + n;
                })
            .withTimeout(Duration.ofMinutes(1))
            .withRetry(
                RetryConfig.attempts(2, Duration.ZERO)
                    .retryingOn(e -> e instanceof TimeoutException));
    Workflow wf = Workflow.builder().name("queued").scheduler(time).start(counted).build();
    RunConfig config = RunConfig.builder().autoCreateSession(true).toolExecutor(gated).build();
    CompletableFuture<List<Event>> run = start(wf, "s5", config);

    Runnable first = held.get(10, TimeUnit.SECONDS);
    time.awaitPending(1);
    time.advance(Duration.ofMinutes(1)); // the first attempt times out before it starts
    join(run);
    assertThat(runs).hasValue(1);

    Thread late = new Thread(first); // its thread starts now: it must not run the node
    late.start();
    late.join(10_000);
    assertThat(late.isAlive()).isFalse();
    assertThat(runs).hasValue(1);
    assertThat(session("s5").state()).containsEntry("run_1", true).doesNotContainKey("run_2");
  }

  @Test
  void anAgentNodeWhoseModelHangs_isStoppedAtItsTimeout_andRetried() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFlowable(
                req -> {
                  asked.countDown();
                  return Flowable.never(); // no answer
                })
            .thenText("answered")
            .build();
    LlmAgent agent = LlmAgent.builder().name("asker").model(model).outputKey("answer").build();
    Node asker =
        Node.agent(agent)
            .withTimeout(Duration.ofSeconds(30))
            .withRetry(RetryConfig.attempts(2, Duration.ZERO));
    Workflow wf = Workflow.builder().name("patient").scheduler(time).start(asker).build();

    CompletableFuture<List<Event>> run = start(wf, "s4");
    time.awaitPending(1);
    assertThat(asked.await(10, TimeUnit.SECONDS)).isTrue(); // the first attempt waits on the model
    time.advance(Duration.ofSeconds(30));

    join(run);
    assertThat(session("s4").state()).containsEntry("answer", "answered");
    model.assertScriptConsumed();
  }

  @Test
  void timeouts_areRefusedOnJoinsLoopsAndNestedWorkflows_andMustBePositive() {
    assertThatThrownBy(() -> Node.join("j").withTimeout(Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'j'");
    Node f = Node.function("f", String.class, String.class, (ctx, in) -> in);
    assertThatThrownBy(() -> f.withTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'f'");
    assertThat(f.withTimeout(Duration.ofSeconds(5)).timeout()).contains(Duration.ofSeconds(5));
  }
}
