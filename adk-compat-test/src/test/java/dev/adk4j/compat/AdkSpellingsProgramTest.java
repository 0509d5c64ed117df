package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.artifacts.*, com.google.adk.events.*,
// com.google.adk.models.*, com.google.adk.runner.*, com.google.adk.sessions.*,
// com.google.adk.tools.* (prefix swap only).
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.FinishReason;
import com.google.genai.types.Part;
import dev.adk4j.agents.Callbacks;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.events.ToolConfirmation;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionKey;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.LongRunningFunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * ADK for Java spellings a program calls, written from ADK's public API: {@code
 * InvocationContext.toBuilder()}, {@code ToolContext.builder(..)}, the callback list overloads,
 * {@code LlmRequest.Builder.appendInstructions}, {@code FunctionTool.create(...,
 * requireConfirmation, isLongRunning)}, {@code errorCode(FinishReason)} and {@code
 * saveAndReloadArtifact}.
 */
class AdkSpellingsProgramTest {

  public static Map<String, Object> approve(@Schema(name = "amount") int amount) {
    return Map.of("approved", amount);
  }

  private static InvocationContext invocationContext() {
    InMemorySessionService sessions = new InMemorySessionService();
    Session session = sessions.createSession("app", "user").blockingGet();
    return InvocationContext.builder()
        .sessionService(sessions)
        .agent(LlmAgent.builder().name("clerk").model(new QueueModel()).build())
        .session(session)
        .invocationId("inv-1")
        .build();
  }

  @Test
  void invocationContextToBuilder_copiesTheContext() {
    InvocationContext context = invocationContext();
    LlmAgent other = LlmAgent.builder().name("other").model(new QueueModel()).build();

    InvocationContext copy = context.toBuilder().build();
    InvocationContext forOther = context.toBuilder().agent(other).build();

    assertThat(copy.invocationId()).isEqualTo("inv-1");
    assertThat(copy.session().id()).isEqualTo(context.session().id());
    assertThat(copy.agent()).isSameAs(context.agent());
    assertThat(copy.sessionService()).isSameAs(context.sessionService());
    assertThat(forOther.agent()).isSameAs(other);
    assertThat(forOther.invocationId()).isEqualTo("inv-1");
  }

  @Test
  void toolContextBuilder_buildsWithCallIdConfirmationAndActions() {
    InvocationContext context = invocationContext();
    ToolConfirmation yes = ToolConfirmation.builder().confirmed(true).build();

    ToolContext toolContext =
        ToolContext.builder(context)
            .functionCallId("call-7")
            .toolConfirmation(yes)
            .actions(dev.adk4j.events.EventActions.builder().escalate(true).build())
            .build();
    ToolContext copy = toolContext.toBuilder().build();
    ToolContext plain = ToolContext.builder(context).build();
    plain.toolConfirmation(ToolConfirmation.builder().confirmed(false).build());

    assertThat(toolContext.functionCallId()).contains("call-7");
    assertThat(toolContext.toolConfirmation()).contains(yes);
    assertThat(toolContext.actions().escalate()).contains(true);
    assertThat(copy.functionCallId()).contains("call-7");
    assertThat(copy.toolConfirmation()).contains(yes);
    assertThat(copy.actions().escalate()).contains(true);
    assertThat(plain.functionCallId()).isEmpty();
    assertThat(plain.toolConfirmation().map(ToolConfirmation::confirmed)).contains(false);
  }

  @Test
  void callbackLists_replaceEarlierCallbacksAndRunInOrder() {
    List<String> calls = new CopyOnWriteArrayList<>();
    Callbacks.BeforeModelCallback asyncModel =
        (ctx, request) -> {
          calls.add("model async");
          return Maybe.empty();
        };
    Callbacks.BeforeModelCallbackSync syncModel =
        (ctx, request) -> {
          calls.add("model sync");
          return Optional.empty();
        };
    Callbacks.BeforeAgentCallbackSync syncAgent =
        ctx -> {
          calls.add("agent sync");
          return Optional.empty();
        };
    Callbacks.AfterModelCallbackSync afterModel =
        (ctx, response) -> {
          calls.add("after model");
          return Optional.empty();
        };
    LlmAgent agent =
        LlmAgent.builder()
            .name("list agent")
            .model(new QueueModel(QueueModel.text("done")))
            .beforeModelCallback(
                (ctx, request) -> {
                  calls.add("replaced");
                  return Maybe.empty();
                })
            .beforeModelCallback(List.of(asyncModel, syncModel))
            .afterModelCallback(List.of(afterModel))
            .beforeAgentCallback(List.of(syncAgent))
            .beforeToolCallback(List.of())
            .afterToolCallback(List.of())
            .build();
    InMemoryRunner runner = new InMemoryRunner(agent);
    Session session = runner.sessionService().createSession(runner.appName(), "u").blockingGet();

    List<Event> events =
        runner
            .runAsync("u", session.id(), Content.fromParts(Part.fromText("hi")))
            .toList()
            .blockingGet();

    assertThat(events.get(events.size() - 1).stringifyContent()).isEqualTo("done");
    assertThat(calls).containsExactly("agent sync", "model async", "model sync", "after model");
    assertThat(agent.canonicalBeforeModelCallbacks()).hasSize(2);
    assertThatThrownBy(() -> LlmAgent.builder().beforeModelCallback(List.of("not a callback")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("beforeModelCallback")
        .hasMessageContaining("element 0");
  }

  @Test
  void appendInstructions_joinsWithBlankLines() {
    LlmRequest request =
        LlmRequest.builder()
            .systemInstruction("Be brief.")
            .appendInstructions(List.of("Answer in French.", "Sign as Ada."))
            .appendInstructions(List.of())
            .build();

    assertThat(request.getFirstSystemInstruction())
        .contains("Be brief.\n\nAnswer in French.\n\nSign as Ada.");
  }

  @Test
  void functionToolCreate_withConfirmationAndLongRunningFlags() throws Exception {
    FunctionTool longRunning =
        FunctionTool.create(AdkSpellingsProgramTest.class, "approve", true, true);
    FunctionTool plain =
        FunctionTool.create(AdkSpellingsProgramTest.class, "approve", false, false);
    FunctionTool byMethod =
        FunctionTool.create(
            AdkSpellingsProgramTest.class.getMethod("approve", int.class), false, true);

    assertThat(longRunning).isInstanceOf(LongRunningFunctionTool.class);
    assertThat(longRunning.longRunning()).isTrue();
    assertThat(plain.longRunning()).isFalse();
    assertThat(plain).isNotInstanceOf(LongRunningFunctionTool.class);
    assertThat(byMethod.longRunning()).isTrue();
    assertThat(byMethod.name()).isEqualTo("approve");
  }

  @Test
  void errorCodeFromFinishReason_readsAsItsName() {
    LlmResponse response =
        LlmResponse.builder()
            .errorCode(new FinishReason(FinishReason.Known.SAFETY))
            .errorMessage("blocked")
            .build();
    Event event =
        Event.builder()
            .author("model")
            .errorCode(new FinishReason(FinishReason.Known.MAX_TOKENS))
            .build();

    assertThat(response.errorCode()).contains("SAFETY");
    assertThat(event.errorCode()).contains("MAX_TOKENS");
  }

  @Test
  void saveAndReloadArtifact_answersTheStoredVersion() {
    InMemoryArtifactService artifacts = new InMemoryArtifactService();
    Part first = Part.fromText("v0");

    Part reloaded =
        artifacts.saveAndReloadArtifact("app", "user", "s1", "notes.txt", first).blockingGet();
    artifacts
        .saveAndReloadArtifact("app", "user", "s1", "notes.txt", Part.fromText("v1"))
        .blockingGet();

    assertThat(reloaded.text()).contains("v0");
    assertThat(artifacts.listVersions("app", "user", "s1", "notes.txt").blockingGet())
        .containsExactly(0, 1);
  }

  @Test
  void sessionKey_namesASessionForTheServiceAndTheRunner() {
    LlmAgent agent =
        LlmAgent.builder().name("greeter").model(new QueueModel(QueueModel.text("hello"))).build();
    InMemoryRunner runner = new InMemoryRunner(agent);
    BaseSessionService sessions = runner.sessionService();
    SessionKey key = new SessionKey(runner.appName(), "u1", "s1");

    Session created = sessions.createSession(key, Map.of("topic", "tea")).blockingGet();
    List<Event> events =
        runner.runAsync(key, Content.fromParts(Part.fromText("hi"))).toList().blockingGet();
    Session read = sessions.getSession(key, null).blockingGet();
    Session generated =
        sessions.createSession(new SessionKey(runner.appName(), "u1", null)).blockingGet();

    assertThat(created.sessionKey()).isEqualTo(key);
    assertThat(events.get(events.size() - 1).stringifyContent()).isEqualTo("hello");
    assertThat(read.state()).containsEntry("topic", "tea");
    assertThat(read.events()).hasSize(2);
    assertThat(sessions.listEvents(key).blockingGet().events()).hasSize(2);
    assertThat(sessions.listSessions(key).blockingGet().sessions())
        .extracting(Session::id)
        .containsExactlyInAnyOrder("s1", generated.id());
    sessions.deleteSession(key).blockingAwait();
    assertThat(sessions.getSession(key, null).isEmpty().blockingGet()).isTrue();
    assertThatThrownBy(() -> sessions.listEvents(new SessionKey("app", "u1", null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("app 'app'")
        .hasMessageContaining("no session id");
  }
}
