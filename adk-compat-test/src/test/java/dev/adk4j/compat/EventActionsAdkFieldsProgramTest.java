package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.events.*, com.google.adk.tools.*,
// com.google.adk.runner.InMemoryRunner, com.google.adk.sessions.Session (prefix swap only).
import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.SequentialAgent;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionKey;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * ADK for Java's {@code EventActions} fields {@code endInvocation}, {@code endOfAgent}, {@code
 * requestedAuthConfigs} and {@code deletedArtifactIds}: built, merged, compared and written as ADK
 * does, and {@code endInvocation} honoured: the invocation ends after the event that says so. And
 * ADK's {@code agentState} (ADK for Python's {@code agent_state}), a workflow agent's checkpoint:
 * carried, merged, compared and stored whole.
 */
class EventActionsAdkFieldsProgramTest {

  @Test
  void builderMergeEqualsAndJson_carryAdksFields() {
    EventActions first =
        EventActions.builder()
            .skipSummarization(true)
            .deletedArtifactIds(Set.of("old.txt"))
            .requestedAuthConfigs(
                new ConcurrentHashMap<>(
                    Map.of("call-1", new ConcurrentHashMap<>(Map.of("scheme", "oauth2")))))
            .build();
    EventActions second =
        EventActions.builder()
            .deletedArtifactIds(Set.of("draft.txt"))
            .requestedAuthConfigs(Map.of("call-2", Map.of("scheme", "apiKey")))
            .endOfAgent(true)
            .endInvocation(true)
            .build();

    EventActions merged = first.toBuilder().merge(second).build();
    EventActions back = EventActions.fromJsonString(merged.toJson(), EventActions.class);

    assertThat(merged.deletedArtifactIds()).containsExactlyInAnyOrder("old.txt", "draft.txt");
    assertThat(merged.requestedAuthConfigs())
        .containsOnlyKeys("call-1", "call-2")
        .containsEntry("call-1", Map.of("scheme", "oauth2"));
    assertThat(merged.endOfAgent()).isTrue();
    assertThat(merged.endInvocation()).contains(true);
    assertThat(merged.skipSummarization()).contains(true);
    assertThat(back).isEqualTo(merged);
    assertThat(merged.toBuilder().build()).isEqualTo(merged);
    assertThat(merged.toBuilder().endOfAgent(false).build()).isNotEqualTo(merged);
    assertThat(merged.toJson()).contains("\"endInvocation\":true", "\"endOfAgent\":true");
    // As in ADK: endOfAgent is written only when true, the maps and the set only when not empty.
    assertThat(EventActions.builder().build().toJson())
        .doesNotContain("endOfAgent", "requestedAuthConfigs", "deletedArtifactIds");
    assertThat(EventActions.builder().build().endInvocation()).isEmpty();
  }

  @Test
  void endOfAgent_survivesMergingInEitherOrder() {
    EventActions ends = EventActions.builder().endOfAgent(true).build();
    EventActions plain = EventActions.builder().build();

    assertThat(EventActions.builder().merge(ends).merge(plain).build().endOfAgent()).isTrue();
    assertThat(EventActions.builder().merge(plain).merge(ends).build().endOfAgent()).isTrue();
  }

  /** A tool that ends the invocation, as an ADK tool does through its context's actions. */
  public static Map<String, Object> finish(
      @Schema(name = "reason") String reason, ToolContext toolContext) {
    toolContext.setActions(toolContext.actions().toBuilder().endInvocation(true).build());
    return Map.of("finished", reason);
  }

  @Test
  void endInvocation_fromATool_endsTheInvocationAfterItsEvent() {
    QueueModel model =
        new QueueModel(
            QueueModel.call("finish", Map.of("reason", "done")),
            QueueModel.text("should not be asked"));
    QueueModel next = new QueueModel(QueueModel.text("should not run"));
    LlmAgent worker =
        LlmAgent.builder()
            .name("worker")
            .model(model)
            .tools(FunctionTool.create(EventActionsAdkFieldsProgramTest.class, "finish"))
            .build();
    LlmAgent reviewer = LlmAgent.builder().name("reviewer").model(next).build();
    SequentialAgent pipeline =
        SequentialAgent.builder().name("pipeline").subAgents(worker, reviewer).build();
    InMemoryRunner runner = new InMemoryRunner(pipeline);
    Session session = runner.sessionService().createSession(runner.appName(), "u").blockingGet();

    List<Event> events =
        runner
            .runAsync("u", session.id(), Content.fromParts(Part.fromText("go")))
            .toList()
            .blockingGet();

    assertThat(model.requests).hasSize(1);
    assertThat(next.requests).isEmpty();
    assertThat(events).last().satisfies(e -> assertThat(e.functionResponses()).hasSize(1));
    assertThat(events.get(events.size() - 1).actions().endInvocation()).contains(true);
    Session stored =
        runner.sessionService().getSession(runner.appName(), "u", session.id()).blockingGet();
    assertThat(stored.events().get(stored.events().size() - 1).actions().endInvocation())
        .contains(true);
  }

  @Test
  void endInvocation_fromABeforeAgentCallback_skipsTheAgentAndTheRest() {
    QueueModel model = new QueueModel(QueueModel.text("should not be asked"));
    LlmAgent gate =
        LlmAgent.builder()
            .name("gate")
            .model(model)
            .beforeAgentCallback(
                callbackContext -> {
                  callbackContext.setActions(
                      callbackContext.actions().toBuilder().endInvocation(true).build());
                  return Maybe.just(
                      Content.builder()
                          .role("model")
                          .parts(List.of(Part.fromText("closed today")))
                          .build());
                })
            .build();
    QueueModel after = new QueueModel(QueueModel.text("should not run"));
    SequentialAgent pipeline =
        SequentialAgent.builder()
            .name("pipeline")
            .subAgents(gate, LlmAgent.builder().name("after").model(after).build())
            .build();
    InMemoryRunner runner = new InMemoryRunner(pipeline);
    Session session = runner.sessionService().createSession(runner.appName(), "u").blockingGet();

    List<Event> events =
        runner
            .runAsync("u", session.id(), Content.fromParts(Part.fromText("open?")))
            .toList()
            .blockingGet();

    assertThat(events).extracting(Event::stringifyContent).containsExactly("closed today");
    assertThat(model.requests).isEmpty();
    assertThat(after.requests).isEmpty();
  }

  @Test
  void agentState_isBuiltMergedComparedAndWrittenAsJsonData() {
    Map<String, Object> checkpoint = new ConcurrentHashMap<>(Map.of("round", 2L, "current", "b"));
    EventActions first = EventActions.builder().agentState(checkpoint).build();
    EventActions later =
        EventActions.builder().agentState(Map.of("round", 3, "current", "a")).build();

    // Copied as JSON data at the build: a later change of the caller's map changes nothing.
    checkpoint.put("round", 99);
    assertThat(first.agentState()).contains(Map.of("round", 2, "current", "b"));
    assertThat(first.toJson()).contains("\"agentState\":{");
    assertThat(EventActions.fromJsonString(first.toJson(), EventActions.class)).isEqualTo(first);
    assertThat(first.toBuilder().build()).isEqualTo(first);
    assertThat(first).isNotEqualTo(later);
    // The later step's checkpoint wins; one without a checkpoint keeps the earlier one.
    assertThat(first.merge(later).agentState()).isEqualTo(later.agentState());
    assertThat(later.merge(EventActions.builder().escalate(true).build()).agentState())
        .isEqualTo(later.agentState());
    assertThat(EventActions.builder().build().agentState()).isEmpty();
    assertThat(EventActions.builder().build().toJson()).doesNotContain("agentState");
    assertThat(EventActions.builder().agentState(Map.of()).build().isEmpty()).isFalse();
  }

  /** A custom workflow agent that records where it is, as ADK's resumable agents do. */
  static final class CheckpointingAgent extends BaseAgent {
    CheckpointingAgent() {
      super("stepper", "Does two steps.", null, null, null);
    }

    @Override
    protected Flowable<Event> runAsyncImpl(InvocationContext ctx) {
      return Flowable.just(
          Event.builder()
              .invocationId(ctx.invocationId())
              .author(name())
              .content(Content.fromParts(Part.fromText("step 1 done")))
              .actions(
                  EventActions.builder()
                      .agentState(Map.of("step", 1, "pending", List.of("step 2")))
                      .build())
              .build(),
          Event.builder()
              .invocationId(ctx.invocationId())
              .author(name())
              .actions(EventActions.builder().endOfAgent(true).build())
              .build());
    }
  }

  @Test
  void agentState_ofAnEvent_isStoredWhole_andReadBack() {
    InMemoryRunner runner = new InMemoryRunner(new CheckpointingAgent());
    Session session = runner.sessionService().createSession(runner.appName(), "u").blockingGet();

    runner.runAsync("u", session.id(), Content.fromParts(Part.fromText("go"))).blockingSubscribe();

    Session stored =
        runner
            .sessionService()
            .getSession(new SessionKey(runner.appName(), "u", session.id()), null)
            .blockingGet();
    Event checkpoint =
        stored.events().stream()
            .filter(e -> e.actions().agentState().isPresent())
            .findFirst()
            .orElseThrow();
    assertThat(checkpoint.actions().agentState())
        .contains(Map.of("step", 1, "pending", List.of("step 2")));
    assertThat(Event.fromJsonString(checkpoint.toJson(), Event.class)).isEqualTo(checkpoint);
    assertThat(stored.events().get(stored.events().size() - 1).actions().endOfAgent()).isTrue();
  }
}
