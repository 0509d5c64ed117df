package dev.adk4j.agents;

import static dev.adk4j.agents.AgentHarness.APP;
import static dev.adk4j.agents.AgentHarness.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * An {@link LlmAgent} end to end on the scripted model and the in-memory services, run through an
 * {@link InvocationContext} ({@link AgentHarness}): output keys, tools and their failures,
 * callbacks, templated instructions, output schemas, model refusals, {@code maxLlmCalls} and state
 * conflict retries. What only the Runner adds (serialized turns, the closing error event, {@code
 * temp:} cleared between turns) is tested in adk-runner.
 */
class LlmAgentEndToEndTest {

  final AgentHarness harness = new AgentHarness();

  /** Increments user_action_count and marks temp:last_operation_status, like the docs' tool. */
  static final class UpdateActionCount extends BaseTool {
    UpdateActionCount() {
      super("update_action_count", "Updates the user action count in the state.");
    }

    @Override
    public Optional<FunctionDeclaration> declaration() {
      return Optional.of(
          FunctionDeclaration.builder().name(name()).description(description()).build());
    }

    @Override
    public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
      Integer count = (Integer) context.state().getOrDefault("user_action_count", 0);
      context.state().put("user_action_count", count + 1);
      context.state().put("temp:last_operation_status", "success");
      return Single.just(Map.of("count", count + 1));
    }
  }

  /** A tool named {@code name} whose body is {@code body}. */
  static BaseTool tool(String name, Function<ToolContext, Map<String, Object>> body) {
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

  /** Function call ids in {@code events} without a response. */
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
            Session other = harness.sessions().getSession(APP, USER, "other").blockingGet();
            harness
                .sessions()
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
  void greetingAgent_outputKey_storesTheReply() {
    ScriptedLlm llm =
        ScriptedLlm.builder().thenText("Hello there! How can I help you today?").build();
    LlmAgent greeter =
        LlmAgent.builder()
            .name("Greeter")
            .model(llm)
            .instruction("Generate a short, friendly greeting.")
            .outputKey("last_greeting")
            .build();

    List<Event> events = harness.run(greeter, "Hello");

    assertThat(events).hasSize(1);
    Event reply = events.get(0);
    assertThat(reply.finalResponse()).isTrue();
    assertThat(reply.author()).isEqualTo("Greeter");
    assertThat(reply.actions().stateDelta())
        .containsEntry("last_greeting", "Hello there! How can I help you today?");
    assertThat(harness.stored().state())
        .containsEntry("last_greeting", "Hello there! How can I help you today?");
    assertThat(llm.lastRequest().systemInstruction())
        .contains("Generate a short, friendly greeting.");
    assertThat(Contents.lastUserText(llm.lastRequest())).isEqualTo("Hello");
  }

  @Test
  void toolWritesThroughToolContext_countStored_tempNot() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenFunctionCall("update_action_count", Map.of())
            .thenText("Updated.")
            .build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("ToolAgent")
            .model(llm)
            .instruction("Use the update_action_count tool.")
            .tools(new UpdateActionCount())
            .build();

    List<Event> events = harness.run(agent, "Please update the action count.");

    assertThat(events).hasSize(3);
    Event toolResult = events.get(1);
    assertThat(toolResult.functionResponses()).hasSize(1);
    assertThat(toolResult.functionResponses().get(0).id())
        .isEqualTo(events.get(0).functionCalls().get(0).id());
    assertThat(toolResult.actions().stateDelta()).containsEntry("user_action_count", 1);
    assertThat(toolResult.actions().stateDelta()).doesNotContainKey("temp:last_operation_status");
    Session s = harness.stored();
    assertThat(s.state()).containsEntry("user_action_count", 1);
    assertThat(s.state()).doesNotContainKey("temp:last_operation_status");
    assertThat(llm.requests().get(1).contents())
        .anySatisfy(c -> assertThat(c.parts().get().get(0).functionResponse()).isPresent());

    ScriptedLlm again =
        ScriptedLlm.builder()
            .thenFunctionCall("update_action_count", Map.of())
            .thenText("ok")
            .build();
    harness.run(
        LlmAgent.builder().name("ToolAgent").model(again).tools(new UpdateActionCount()).build(),
        "again");
    assertThat(harness.stored().state()).containsEntry("user_action_count", 2);
  }

  @Test
  void beforeAgentCallbackStateWrite_persistsAsItsOwnEvent() {
    ScriptedLlm llm = ScriptedLlm.builder().thenText("hi").build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("Cb")
            .model(llm)
            .beforeAgentCallback(
                (CallbackContext ctx) -> {
                  Integer count = (Integer) ctx.state().getOrDefault("user_action_count", 0);
                  ctx.state().put("user_action_count", count + 1);
                  ctx.state().put("temp:last_operation_status", "success");
                  return Maybe.empty();
                })
            .build();

    List<Event> events = harness.run(agent, "go");

    assertThat(events).hasSize(2);
    Event callbackEvent = events.get(0);
    assertThat(callbackEvent.content()).isEmpty();
    assertThat(callbackEvent.author()).isEqualTo("Cb");
    assertThat(callbackEvent.actions().stateDelta()).containsEntry("user_action_count", 1);
    Session s = harness.stored();
    assertThat(s.state()).containsEntry("user_action_count", 1);
    assertThat(s.state()).doesNotContainKey("temp:last_operation_status");
    assertThat(s.events()).hasSize(3);
    assertThat(s.events().get(1).actions().stateDelta()).containsEntry("user_action_count", 1);
  }

  @Test
  void beforeAgentCallbackReturningContent_skipsTheModel() {
    ScriptedLlm llm = ScriptedLlm.builder().build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("Guard")
            .model(llm)
            .beforeAgentCallback(ctx -> Maybe.just(Contents.model("blocked")))
            .build();
    List<Event> events = harness.run(agent, "go");
    assertThat(events).extracting(Event::stringifyContent).containsExactly("blocked");
    assertThat(llm.callCount()).isZero();
  }

  @Test
  void beforeModelCallback_canAnswerInsteadOfTheModel_andItsWritesLandOnThatEvent() {
    ScriptedLlm llm = ScriptedLlm.builder().build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("Cached")
            .model(llm)
            .outputKey("answer")
            .beforeModelCallback(
                (ctx, request) -> {
                  ctx.state().put("cache_hit", true);
                  return Maybe.just(ScriptedLlm.textResponse("from cache"));
                })
            .build();
    List<Event> events = harness.run(agent, "go");
    assertThat(events).hasSize(1);
    assertThat(events.get(0).actions().stateDelta())
        .containsEntry("cache_hit", true)
        .containsEntry("answer", "from cache");
    assertThat(llm.callCount()).isZero();
  }

  @Test
  void maxLlmCalls_endsARunawayToolLoop() {
    ScriptedLlm llm =
        ScriptedLlm.answering(
            req -> ScriptedLlm.functionCallResponse("update_action_count", Map.of()));
    LlmAgent agent = LlmAgent.builder().name("A").model(llm).tools(new UpdateActionCount()).build();
    assertThatThrownBy(() -> harness.run(agent, "go", RunConfig.builder().maxLlmCalls(3).build()))
        .isInstanceOf(LlmCallsLimitExceededException.class)
        .hasMessageContaining("3");
    assertThat(llm.callCount()).isEqualTo(3);
  }

  @Test
  void failingTool_andUnknownTool_becomeErrorResponsesTheModelSees() {
    BaseTool failing =
        new BaseTool("explode", "fails") {
          @Override
          public Optional<FunctionDeclaration> declaration() {
            return Optional.of(FunctionDeclaration.builder().name("explode").build());
          }

          @Override
          public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext ctx) {
            return Single.error(new IllegalStateException("boom"));
          }
        };
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenFunctionCall("explode", Map.of())
            .thenFunctionCall("no_such_tool", Map.of())
            .thenText("recovered")
            .build();
    LlmAgent agent = LlmAgent.builder().name("A").model(llm).tools(failing).build();

    List<Event> events = harness.run(agent, "go");

    assertThat(events.get(events.size() - 1).stringifyContent()).isEqualTo("recovered");
    Map<String, Object> first = events.get(1).functionResponses().get(0).response().get();
    assertThat(first.get("error").toString()).contains("boom");
    Map<String, Object> second = events.get(3).functionResponses().get(0).response().get();
    assertThat(second.get("error").toString()).contains("no_such_tool");
  }

  @Test
  void errorResponseFromTheModel_isAnEventWithErrorFields_andNoOutputKeyWrite() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenResponse(LlmResponse.builder().errorCode("SAFETY").errorMessage("blocked").build())
            .build();
    LlmAgent agent = LlmAgent.builder().name("A").model(llm).outputKey("out").build();
    List<Event> events = harness.run(agent, "hi");
    assertThat(events.get(0).errorCode()).contains("SAFETY");
    assertThat(harness.stored().state()).doesNotContainKey("out");
  }

  @Test
  void requestCarriesToolDeclarations() {
    ScriptedLlm llm = ScriptedLlm.builder().thenText("ok").build();
    LlmAgent agent = LlmAgent.builder().name("A").model(llm).tools(new UpdateActionCount()).build();
    harness.run(agent, "hi");
    LlmRequest req = llm.lastRequest();
    assertThat(req.functionDeclarations())
        .extracting(d -> d.name().orElse(""))
        .containsExactly("update_action_count");
    assertThat(req.contents()).extracting(Content::role).containsExactly(Optional.of("user"));
  }

  @Test
  void missingRequiredPlaceholder_failsTheInvocationNamingKeyAndAgent() {
    ScriptedLlm llm = ScriptedLlm.builder().build();
    LlmAgent agent =
        LlmAgent.builder().name("Strict").model(llm).instruction("Help with {topic}.").build();
    assertThatThrownBy(() -> harness.run(agent, "hi"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("topic")
        .hasMessageContaining("Strict");
    assertThat(llm.callCount()).isZero();
  }

  @Test
  void globalInstruction_isTemplatedAndPrecedesTheAgentsOwn() {
    ScriptedLlm llm = ScriptedLlm.builder().thenText("ok").build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("A")
            .model(llm)
            .globalInstruction("You serve {user:name}.")
            .instruction("Be brief about {topic?}.")
            .build();
    AgentHarness harness = new AgentHarness(Map.of("user:name", "Alice"));
    harness.run(agent, "hi");
    assertThat(llm.lastRequest().systemInstruction())
        .contains("You serve Alice.\n\nBe brief about .");
  }

  @Test
  void toolContextSetActions_keepsWritesAlreadyMade() {
    BaseTool tool =
        new BaseTool("swap", "swaps actions") {
          @Override
          public Optional<FunctionDeclaration> declaration() {
            return Optional.of(FunctionDeclaration.builder().name("swap").build());
          }

          @Override
          public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext ctx) {
            ctx.state().put("written_before", 1);
            ctx.setActions(
                dev.adk4j.events.EventActions.builder()
                    .putState("from_actions", 2)
                    .skipSummarization(true)
                    .build());
            ctx.state().put("written_after", 3);
            return Single.just(Map.of());
          }
        };
    ScriptedLlm llm = ScriptedLlm.builder().thenFunctionCall("swap", Map.of()).build();
    LlmAgent agent = LlmAgent.builder().name("A").model(llm).tools(tool).build();
    List<Event> events = harness.run(agent, "go");
    Event response = events.get(events.size() - 1);
    assertThat(response.actions().stateDelta())
        .containsEntry("written_before", 1)
        .containsEntry("from_actions", 2)
        .containsEntry("written_after", 3);
    assertThat(response.finalResponse()).isTrue();
    assertThat(llm.callCount()).isEqualTo(1);
    assertThat(harness.stored().state())
        .containsEntry("written_before", 1)
        .containsEntry("from_actions", 2)
        .containsEntry("written_after", 3);
  }

  @Test
  void outputSchema_storesTheParsedObject_andAsksTheModelForJson() {
    ScriptedLlm llm = ScriptedLlm.builder().thenText("{\"city\": \"Paris\", \"days\": 3}").build();
    com.google.genai.types.Schema schema =
        com.google.genai.types.Schema.builder()
            .type("OBJECT")
            .properties(
                Map.of(
                    "city", com.google.genai.types.Schema.builder().type("STRING").build(),
                    "days", com.google.genai.types.Schema.builder().type("INTEGER").build()))
            .build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("Planner")
            .model(llm)
            .outputSchema(schema)
            .outputKey("plan")
            .build();
    harness.run(agent, "plan a trip");
    assertThat(harness.stored().state().get("plan")).isEqualTo(Map.of("city", "Paris", "days", 3));
    assertThat(llm.lastRequest().config().responseMimeType()).contains("application/json");
    assertThat(llm.lastRequest().config().responseSchema()).contains(schema);
  }

  @Test
  void toolThatWritesStateThenThrows_hasItsWritesDiscarded() {
    BaseTool failing =
        tool(
            "half",
            ctx -> {
              ctx.state().put("user:written", "by a failing tool");
              ctx.state().increment("user:n", 1);
              throw new IllegalStateException("half done");
            });
    ScriptedLlm llm =
        ScriptedLlm.builder().thenFunctionCall("half", Map.of()).thenText("ok").build();

    harness.run(LlmAgent.builder().name("A").model(llm).tools(failing).build(), "go");

    Event response = harness.storedEvents().get(2);
    assertThat(response.functionResponses()).hasSize(1);
    assertThat(response.functionResponses().get(0).response().orElseThrow().get("error"))
        .asString()
        .contains("half done");
    assertThat(response.actions().stateDelta()).isEmpty();
    assertThat(harness.stored().state()).doesNotContainKeys("user:written", "user:n");
  }

  @Test
  void callbackWritingOnlyTempKeys_storesNoEvent_butItsWritesAreVisible() {
    ScriptedLlm llm =
        ScriptedLlm.answering(req -> ScriptedLlm.textResponse("mode " + req.systemInstruction()));
    LlmAgent agent =
        LlmAgent.builder()
            .name("A")
            .model(llm)
            .instruction("{temp:mode}")
            .beforeAgentCallback(
                cc -> {
                  cc.state().put("temp:mode", "fast");
                  return Maybe.empty();
                })
            .build();

    List<Event> emitted = harness.run(agent, "hi");

    assertThat(emitted).hasSize(1);
    assertThat(harness.storedEvents()).hasSize(2); // the user's message and the reply only
    assertThat(llm.lastRequest().systemInstruction()).contains("fast");
  }

  @Test
  void conflict_withRetries_reRunsTheToolOnFreshState() {
    harness.sessions().createSession(APP, USER, null, "other").blockingGet();
    AtomicInteger runs = new AtomicInteger();
    ScriptedLlm llm =
        ScriptedLlm.builder().thenFunctionCall("count", Map.of()).thenText("done").build();
    LlmAgent agent = LlmAgent.builder().name("A").model(llm).tools(racingCounter(runs)).build();

    List<Event> events =
        harness.run(agent, "count", RunConfig.builder().stateConflictRetries(2).build());

    assertThat(runs.get()).isEqualTo(2);
    assertThat(harness.stored().state()).containsEntry("user:count", 11);
    assertThat(events.get(events.size() - 1).errorCode()).isEmpty();
    assertThat(unansweredCalls(harness.storedEvents())).isEmpty();
  }
}
