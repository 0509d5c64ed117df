package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.LlmCallsLimitExceededException;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The Runner and LlmAgent end to end, with the scripted model and the in-memory service. */
class RunnerTest {

  static final String APP = "state_app";
  static final String USER = "user1";

  final InMemorySessionService sessions = new InMemorySessionService();

  Runner runner(BaseAgent agent) {
    return new Runner(agent, APP, null, sessions);
  }

  Session newSession(String id) {
    return sessions.createSession(APP, USER, null, id).blockingGet();
  }

  Session stored(String id) {
    return sessions.getSession(APP, USER, id).blockingGet();
  }

  static List<Event> run(Runner runner, String sessionId, String text) {
    return runner
        .runAsync(USER, sessionId, Contents.user(text), RunConfig.builder().build())
        .toList()
        .blockingGet();
  }

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
    newSession("session1");

    List<Event> events = run(runner(greeter), "session1", "Hello");

    assertThat(events).hasSize(1);
    Event reply = events.get(0);
    assertThat(reply.finalResponse()).isTrue();
    assertThat(reply.author()).isEqualTo("Greeter");
    assertThat(reply.actions().stateDelta())
        .containsEntry("last_greeting", "Hello there! How can I help you today?");
    assertThat(stored("session1").state())
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
    newSession("s");
    Runner runner = runner(agent);

    List<Event> events = run(runner, "s", "Please update the action count.");

    assertThat(events).hasSize(3);
    Event toolResult = events.get(1);
    assertThat(toolResult.functionResponses()).hasSize(1);
    assertThat(toolResult.functionResponses().get(0).id())
        .isEqualTo(events.get(0).functionCalls().get(0).id());
    assertThat(toolResult.actions().stateDelta()).containsEntry("user_action_count", 1);
    assertThat(toolResult.actions().stateDelta()).doesNotContainKey("temp:last_operation_status");
    Session s = stored("s");
    assertThat(s.state()).containsEntry("user_action_count", 1);
    assertThat(s.state()).doesNotContainKey("temp:last_operation_status");
    assertThat(llm.requests().get(1).contents())
        .anySatisfy(c -> assertThat(c.parts().get().get(0).functionResponse()).isPresent());

    ScriptedLlm again =
        ScriptedLlm.builder()
            .thenFunctionCall("update_action_count", Map.of())
            .thenText("ok")
            .build();
    run(
        runner(
            LlmAgent.builder()
                .name("ToolAgent")
                .model(again)
                .tools(new UpdateActionCount())
                .build()),
        "s",
        "again");
    assertThat(stored("s").state()).containsEntry("user_action_count", 2);
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
    newSession("s");

    List<Event> events = run(runner(agent), "s", "go");

    assertThat(events).hasSize(2);
    Event callbackEvent = events.get(0);
    assertThat(callbackEvent.content()).isEmpty();
    assertThat(callbackEvent.author()).isEqualTo("Cb");
    assertThat(callbackEvent.actions().stateDelta()).containsEntry("user_action_count", 1);
    Session s = stored("s");
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
    newSession("s");
    List<Event> events = run(runner(agent), "s", "go");
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
    newSession("s");
    List<Event> events = run(runner(agent), "s", "go");
    assertThat(events).hasSize(1);
    assertThat(events.get(0).actions().stateDelta())
        .containsEntry("cache_hit", true)
        .containsEntry("answer", "from cache");
    assertThat(llm.callCount()).isZero();
  }

  @Test
  void stateDeltaGivenToRunAsync_ridesOnTheUserEvent() {
    ScriptedLlm llm = ScriptedLlm.builder().thenText("ok").build();
    LlmAgent agent = LlmAgent.builder().name("A").model(llm).build();
    newSession("s");

    runner(agent)
        .runAsync(
            USER,
            "s",
            Contents.user("hi"),
            RunConfig.builder().build(),
            Map.of("user:theme", "dark", "temp:scratch", 1))
        .blockingSubscribe();

    Session s = stored("s");
    Event userEvent = s.events().get(0);
    assertThat(userEvent.author()).isEqualTo("user");
    assertThat(userEvent.actions().stateDelta()).containsEntry("user:theme", "dark");
    assertThat(userEvent.actions().stateDelta()).doesNotContainKey("temp:scratch");
    assertThat(s.state()).containsEntry("user:theme", "dark");
  }

  @Test
  void eachEventIsStoredBeforeItIsEmitted() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenFunctionCall("update_action_count", Map.of())
            .thenText("done")
            .build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("A")
            .model(llm)
            .outputKey("out")
            .tools(new UpdateActionCount())
            .build();
    newSession("s");
    List<String> seen = new ArrayList<>();
    runner(agent)
        .runAsync(USER, "s", Contents.user("go"), RunConfig.builder().build())
        .blockingForEach(
            e -> {
              List<String> storedIds = new ArrayList<>();
              stored("s").events().forEach(x -> storedIds.add(x.id()));
              assertThat(storedIds).contains(e.id());
              seen.add(e.id());
              if (e.finalResponse()) {
                assertThat(stored("s").state()).containsEntry("out", "done");
              }
            });
    assertThat(seen).hasSize(3);
  }

  @Test
  void streaming_emitsPartialEvents_butStoresOnlyTheFinalOne() {
    ScriptedLlm llm =
        ScriptedLlm.builder().streamChunks(3).thenText("Hello streaming world").build();
    LlmAgent agent = LlmAgent.builder().name("S").model(llm).outputKey("said").build();
    newSession("s");

    List<Event> events =
        runner(agent)
            .runAsync(
                USER,
                "s",
                Contents.user("hi"),
                RunConfig.builder().streamingMode(RunConfig.StreamingMode.SSE).build())
            .toList()
            .blockingGet();

    List<Event> partials = events.stream().filter(e -> e.partial().orElse(false)).toList();
    assertThat(partials).hasSizeGreaterThanOrEqualTo(2);
    assertThat(events.get(events.size() - 1).partial()).isEmpty();
    Session s = stored("s");
    assertThat(s.events()).hasSize(2);
    assertThat(s.events()).noneMatch(e -> e.partial().orElse(false));
    assertThat(s.state()).containsEntry("said", "Hello streaming world");
  }

  @Test
  void unknownSession_failsWithSessionNotFound_unlessTheConfigCreatesIt() {
    ScriptedLlm llm = ScriptedLlm.builder().thenText("hi").build();
    LlmAgent agent = LlmAgent.builder().name("A").model(llm).build();
    Runner runner = runner(agent);

    assertThatThrownBy(() -> run(runner, "ghost", "hi"))
        .isInstanceOf(SessionNotFoundException.class)
        .hasMessageContaining("ghost");

    runner
        .runAsync(
            USER, "ghost", Contents.user("hi"), RunConfig.builder().autoCreateSession(true).build())
        .blockingSubscribe();
    assertThat(stored("ghost").events()).hasSize(2);
  }

  @Test
  void tempValues_areGoneWhenTheInvocationEnds() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenFunctionCall("update_action_count", Map.of())
            .thenText("first")
            .thenText("second")
            .build();
    List<Object> seenTemp = new ArrayList<>();
    LlmAgent agent =
        LlmAgent.builder()
            .name("A")
            .model(llm)
            .tools(new UpdateActionCount())
            .beforeModelCallback(
                (ctx, req) -> {
                  seenTemp.add(ctx.state().get("temp:last_operation_status"));
                  return Maybe.empty();
                })
            .build();
    newSession("s");
    Runner runner = runner(agent);
    run(runner, "s", "one");
    run(runner, "s", "two");
    // First invocation: before the tool (null), after it ("success"); second: gone again.
    assertThat(seenTemp).containsExactly(null, "success", null);
  }

  @Test
  void maxLlmCalls_endsARunawayToolLoop() {
    ScriptedLlm llm =
        ScriptedLlm.answering(
            req -> ScriptedLlm.functionCallResponse("update_action_count", Map.of()));
    LlmAgent agent = LlmAgent.builder().name("A").model(llm).tools(new UpdateActionCount()).build();
    newSession("s");
    assertThatThrownBy(
            () ->
                runner(agent)
                    .runAsync(
                        USER, "s", Contents.user("go"), RunConfig.builder().maxLlmCalls(3).build())
                    .blockingSubscribe())
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
    newSession("s");

    List<Event> events = run(runner(agent), "s", "go");

    assertThat(events.get(events.size() - 1).stringifyContent()).isEqualTo("recovered");
    Map<String, Object> first = events.get(1).functionResponses().get(0).response().get();
    assertThat(first.get("error").toString()).contains("boom");
    Map<String, Object> second = events.get(3).functionResponses().get(0).response().get();
    assertThat(second.get("error").toString()).contains("no_such_tool");
  }

  @Test
  void twoRunsOnOneSessionThroughOneRunner_areSerialized_neverStale() throws Exception {
    CountDownLatch firstInModel = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ScriptedLlm llm =
        ScriptedLlm.answering(
            req -> {
              if (Contents.lastUserText(req).equals("first")) {
                firstInModel.countDown();
                try {
                  release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
              return ScriptedLlm.textResponse("re: " + Contents.lastUserText(req));
            });
    LlmAgent agent = LlmAgent.builder().name("A").model(llm).outputKey("last").build();
    newSession("s");
    Runner runner = runner(agent);

    var first =
        runner
            .runAsync(USER, "s", Contents.user("first"), RunConfig.builder().build())
            .subscribeOn(Schedulers.io())
            .toList()
            .toFuture();
    assertThat(firstInModel.await(10, TimeUnit.SECONDS)).isTrue();
    var second =
        runner
            .runAsync(USER, "s", Contents.user("second"), RunConfig.builder().build())
            .subscribeOn(Schedulers.io())
            .toList()
            .toFuture();
    Thread.sleep(100);
    assertThat(second.isDone()).isFalse();
    release.countDown();
    first.get(10, TimeUnit.SECONDS);
    second.get(10, TimeUnit.SECONDS);

    Session s = stored("s");
    assertThat(s.events())
        .extracting(Event::stringifyContent)
        .containsExactly("first", "re: first", "second", "re: second");
    assertThat(s.state()).containsEntry("last", "re: second");
  }

  @Test
  void inMemoryRunner_hasItsOwnSessionService() {
    ScriptedLlm llm = ScriptedLlm.builder().thenText("hi").build();
    InMemoryRunner runner = new InMemoryRunner(LlmAgent.builder().name("A").model(llm).build());
    BaseSessionService service = runner.sessionService();
    service.createSession(runner.appName(), USER, null, "s").blockingGet();
    runner.runAsync(USER, "s", Contents.user("hi")).blockingSubscribe();
    assertThat(service.getSession(runner.appName(), USER, "s").blockingGet().events()).hasSize(2);
  }

  @Test
  void errorResponseFromTheModel_isAnEventWithErrorFields_andNoOutputKeyWrite() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenResponse(LlmResponse.builder().errorCode("SAFETY").errorMessage("blocked").build())
            .build();
    LlmAgent agent = LlmAgent.builder().name("A").model(llm).outputKey("out").build();
    newSession("s");
    List<Event> events = run(runner(agent), "s", "hi");
    assertThat(events.get(0).errorCode()).contains("SAFETY");
    assertThat(stored("s").state()).doesNotContainKey("out");
  }

  @Test
  void requestCarriesToolDeclarations() {
    ScriptedLlm llm = ScriptedLlm.builder().thenText("ok").build();
    LlmAgent agent = LlmAgent.builder().name("A").model(llm).tools(new UpdateActionCount()).build();
    newSession("s");
    run(runner(agent), "s", "hi");
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
    newSession("s");
    assertThatThrownBy(() -> run(runner(agent), "s", "hi"))
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
    sessions.createSession(APP, USER, Map.of("user:name", "Alice"), "s").blockingGet();
    run(runner(agent), "s", "hi");
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
    newSession("s");
    List<Event> events = run(runner(agent), "s", "go");
    Event response = events.get(events.size() - 1);
    assertThat(response.actions().stateDelta())
        .containsEntry("written_before", 1)
        .containsEntry("from_actions", 2)
        .containsEntry("written_after", 3);
    assertThat(response.finalResponse()).isTrue();
    assertThat(llm.callCount()).isEqualTo(1);
    assertThat(stored("s").state())
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
    newSession("s");
    run(runner(agent), "s", "plan a trip");
    assertThat(stored("s").state().get("plan")).isEqualTo(Map.of("city", "Paris", "days", 3));
    assertThat(llm.lastRequest().config().responseMimeType()).contains("application/json");
    assertThat(llm.lastRequest().config().responseSchema()).contains(schema);
  }
}
