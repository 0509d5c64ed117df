package dev.adk4j.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.google.genai.types.Schema;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A before-agent callback that returns content answers in its agent's place: that agent is skipped
 * (its model is not called, its after-agent callbacks do not run) and the content becomes its
 * event, carrying the callback's state writes and, for an {@link LlmAgent} with an output key, the
 * answer under that key. The rest of the invocation goes on: the next sub-agent of a sequence, the
 * other branches of a parallel agent, the next rounds of a loop.
 */
class BeforeAgentCallbackTest {

  private final AgentHarness harness = new AgentHarness();

  /** An agent whose model fails the test if it is ever called. */
  private static LlmAgent.Builder guarded(String name, String reply) {
    return LlmAgent.builder()
        .name(name)
        .model(ScriptedLlm.builder().build())
        .instruction("never sent")
        .beforeAgentCallback(ctx -> Maybe.just(Contents.model(reply)));
  }

  private static LlmAgent answering(String name, String answer) {
    return LlmAgent.builder()
        .name(name)
        .model(ScriptedLlm.answering(r -> ScriptedLlm.textResponse(answer)))
        .instruction("Answer.")
        .build();
  }

  @Test
  void sequential_beforeCallbackContent_skipsOnlyThatSubAgent_andThePipelineGoesOn() {
    AtomicInteger afterCallbackRuns = new AtomicInteger();
    ScriptedLlm guardedModel = ScriptedLlm.builder().build();
    LlmAgent guarded =
        LlmAgent.builder()
            .name("guarded")
            .model(guardedModel)
            .instruction("never sent")
            .beforeAgentCallback(
                ctx -> {
                  ctx.state().put("guard_ran", true);
                  return Maybe.just(Contents.model("guarded: skipped"));
                })
            .afterAgentCallback(
                ctx -> {
                  afterCallbackRuns.incrementAndGet();
                  return Maybe.empty();
                })
            .build();
    ScriptedLlm lastModel = ScriptedLlm.builder().thenText("last answer").build();
    LlmAgent last = LlmAgent.builder().name("last").model(lastModel).instruction("Last.").build();
    SequentialAgent pipeline =
        SequentialAgent.builder()
            .name("pipeline")
            .subAgents(answering("first", "first answer"), guarded, last)
            .build();

    List<Event> events = harness.run(pipeline, "go");

    assertThat(events)
        .extracting(Event::author, Event::stringifyContent)
        .containsExactly(
            tuple("first", "first answer"),
            tuple("guarded", "guarded: skipped"),
            tuple("last", "last answer"));
    // The callback's writes ride on the event of its content.
    assertThat(events.get(1).actions().stateDelta()).containsEntry("guard_ran", true);
    assertThat(guardedModel.callCount()).isZero();
    assertThat(afterCallbackRuns).as("after-agent callbacks of a skipped agent").hasValue(0);
    assertThat(lastModel.callCount()).isEqualTo(1);
    // Skipping one agent is not ending the invocation.
    assertThat(harness.lastContext().endInvocation()).isFalse();
    assertThat(harness.stored().events())
        .extracting(Event::author)
        .containsExactly("user", "first", "guarded", "last");
    assertThat(harness.stored().state()).containsEntry("guard_ran", true);
  }

  @Test
  void parallel_beforeCallbackContent_inOneBranch_leavesTheOtherBranchAndTheNextAgentRunning() {
    // One thread for the branches: the guarded branch runs to its end before the other starts.
    ExecutorService oneThread = Executors.newSingleThreadExecutor();
    try {
      ParallelAgent fanOut =
          ParallelAgent.builder()
              .name("fan_out")
              .scheduler(Schedulers.from(oneThread))
              .subAgents(guarded("guarded", "guarded: skipped").build(), answering("other", "B"))
              .build();
      SequentialAgent pipeline =
          SequentialAgent.builder()
              .name("pipeline")
              .subAgents(fanOut, answering("after", "done"))
              .build();

      List<Event> events = harness.run(pipeline, "go");

      assertThat(events)
          .extracting(Event::author, Event::stringifyContent)
          .containsExactly(
              tuple("guarded", "guarded: skipped"), tuple("other", "B"), tuple("after", "done"));
      assertThat(events.get(0).branch()).contains("pipeline.fan_out.guarded");
      assertThat(harness.lastContext().endInvocation()).isFalse();
    } finally {
      oneThread.shutdownNow();
    }
  }

  @Test
  void loop_beforeCallbackContent_skipsThatSubAgentInEachRound_andTheLoopRunsAllRounds() {
    AtomicInteger rounds = new AtomicInteger();
    LlmAgent gate =
        LlmAgent.builder()
            .name("gate")
            .model(ScriptedLlm.builder().build())
            .beforeAgentCallback(
                ctx -> Maybe.just(Contents.model("gate round " + rounds.incrementAndGet())))
            .build();
    LoopAgent loop =
        LoopAgent.builder()
            .name("loop")
            .maxIterations(3)
            .subAgents(gate, answering("worker", "worked"))
            .build();

    List<Event> events = harness.run(loop, "go");

    assertThat(events)
        .extracting(Event::author, Event::stringifyContent)
        .containsExactly(
            tuple("gate", "gate round 1"),
            tuple("worker", "worked"),
            tuple("gate", "gate round 2"),
            tuple("worker", "worked"),
            tuple("gate", "gate round 3"),
            tuple("worker", "worked"));
    assertThat(harness.lastContext().endInvocation()).isFalse();
  }

  @Test
  void loop_onlyAnExplicitEscalate_fromABeforeCallback_endsTheLoop() {
    AtomicInteger rounds = new AtomicInteger();
    LlmAgent gate =
        LlmAgent.builder()
            .name("gate")
            .model(ScriptedLlm.builder().build())
            .beforeAgentCallback(
                ctx -> {
                  int round = rounds.incrementAndGet();
                  if (round == 2) {
                    ctx.setActions(EventActions.builder().escalate(true).build());
                  }
                  return Maybe.just(Contents.model("gate round " + round));
                })
            .build();
    LoopAgent loop =
        LoopAgent.builder()
            .name("loop")
            .maxIterations(10)
            .subAgents(gate, answering("worker", "worked"))
            .build();

    List<Event> events = harness.run(loop, "go");

    assertThat(events)
        .extracting(Event::author, Event::stringifyContent)
        .containsExactly(
            tuple("gate", "gate round 1"),
            tuple("worker", "worked"),
            tuple("gate", "gate round 2"));
    assertThat(events.get(2).actions().escalate()).contains(true);
  }

  @Test
  void outputKey_storesTheCallbacksContent_inTheSameEventsDelta() {
    LlmAgent cached =
        LlmAgent.builder()
            .name("cached")
            .model(ScriptedLlm.builder().build())
            .outputKey("answer")
            .beforeAgentCallback(
                ctx -> {
                  ctx.state().put("cache_hit", true);
                  return Maybe.just(Contents.model("from cache"));
                })
            .build();

    List<Event> events = harness.run(cached, "go");

    assertThat(events).hasSize(1);
    assertThat(events.get(0).stringifyContent()).isEqualTo("from cache");
    assertThat(events.get(0).actions().stateDelta())
        .containsEntry("answer", "from cache")
        .containsEntry("cache_hit", true);
    assertThat(harness.stored().state()).containsEntry("answer", "from cache");
    assertThat(harness.stored().events().get(1).actions().stateDelta())
        .containsEntry("answer", "from cache");
  }

  @Test
  void outputKey_withOutputSchema_storesTheParsedJsonOfTheCallbacksContent() {
    LlmAgent cached =
        guarded("cached", "{\"city\": \"Paris\", \"temperature\": 21}")
            .outputKey("weather")
            .outputSchema(
                Schema.builder()
                    .type("OBJECT")
                    .properties(
                        Map.of(
                            "city", Schema.builder().type("STRING").build(),
                            "temperature", Schema.builder().type("INTEGER").build()))
                    .build())
            .build();

    List<Event> events = harness.run(cached, "go");

    Map<String, Object> expected = Map.of("city", "Paris", "temperature", 21);
    assertThat(events.get(0).actions().stateDelta()).containsEntry("weather", expected);
    assertThat(harness.stored().state()).containsEntry("weather", expected);
  }

  @Test
  void tempOutputKey_fromACallbacksContent_isVisibleToTheNextSubAgent() {
    LlmAgent drafter = guarded("drafter", "A cached draft.").outputKey("temp:draft").build();
    ScriptedLlm reviewerModel = ScriptedLlm.builder().thenText("Fine.").build();
    LlmAgent reviewer =
        LlmAgent.builder()
            .name("reviewer")
            .model(reviewerModel)
            .instruction("Review: {temp:draft}")
            .outputKey("review")
            .build();
    SequentialAgent pipeline =
        SequentialAgent.builder().name("pipeline").subAgents(drafter, reviewer).build();

    harness.run(pipeline, "go");

    assertThat(reviewerModel.callCount()).isEqualTo(1);
    assertThat(reviewerModel.lastRequest().systemInstruction())
        .hasValueSatisfying(i -> assertThat(i).contains("Review: A cached draft."));
    assertThat(harness.stored().state())
        .containsEntry("review", "Fine.")
        .doesNotContainKey("temp:draft");
  }
}
