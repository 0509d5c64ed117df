package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.FunctionDeclaration;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
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

/**
 * The Runner end to end, with the scripted model and the in-memory service: the user's message and
 * its state delta, what is emitted and stored when, streaming, missing sessions, {@code temp:}
 * values gone between turns, turns serialized per session, {@link InMemoryRunner}. The agents' own
 * behaviour is tested in adk-agents ({@code LlmAgentEndToEndTest}, {@code WorkflowAgentsTest}).
 */
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
}
