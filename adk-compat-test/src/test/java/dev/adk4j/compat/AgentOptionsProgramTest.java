package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.events.Event, com.google.adk.runner.*,
// com.google.adk.sessions.Session, com.google.adk.tools.*; com.google.adk.sessions.State ->
// dev.adk4j.state.State (the guide's import table).
import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.sessions.Session;
import dev.adk4j.state.State;
import dev.adk4j.tools.AgentTool;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@code LlmAgent.Builder} options as ADK for Java spells them: the agent's own {@code
 * onModelErrorCallback} and {@code onToolErrorCallbackSync}, {@code maxSteps}, {@code inputSchema}
 * (for an {@code AgentTool}) and {@code disallowTransferToPeers}; a custom agent that overrides
 * ADK's {@code runLiveImpl}; {@code new State(Map[, Map])}.
 */
class AgentOptionsProgramTest {

  static List<Event> run(InMemoryRunner runner, String text) {
    Session session = runner.sessionService().createSession(runner.appName(), "user").blockingGet();
    return runner
        .runAsync("user", session.id(), Content.fromParts(Part.fromText(text)))
        .toList()
        .blockingGet();
  }

  static Map<String, Object> responseOf(List<Event> events, String tool) {
    for (Event e : events) {
      for (FunctionResponse r : e.functionResponses()) {
        if (r.name().orElse("").equals(tool)) {
          return r.response().orElseThrow();
        }
      }
    }
    throw new AssertionError("no response of " + tool + " in " + events);
  }

  @Test
  void agentsOnModelErrorCallback_answersForAModelThatFailedWithAnIOException() {
    List<Exception> errors = new CopyOnWriteArrayList<>();
    LlmAgent agent =
        LlmAgent.builder()
            .name("assistant")
            .model(new PluginsAndModelsProgramTest.OfflineModel())
            .onModelErrorCallback(
                (callbackContext, request, error) -> {
                  errors.add(error);
                  return Maybe.just(QueueModel.text("Offline, try later."));
                })
            .build();

    List<Event> events = run(new InMemoryRunner(agent), "hi");

    assertThat(errors).singleElement().isInstanceOf(IOException.class);
    assertThat(events.get(events.size() - 1).stringifyContent()).isEqualTo("Offline, try later.");
    assertThat(agent.canonicalOnModelErrorCallbacks()).hasSize(1);
  }

  /** A tool whose call fails (a {@code FunctionTool} answers its method's exception itself). */
  static final class OrderTool extends BaseTool {
    OrderTool() {
      super("lookUp", "Looks an order up.");
    }

    @Override
    public Optional<FunctionDeclaration> declaration() {
      return Optional.of(FunctionDeclaration.builder().name("lookUp").build());
    }

    @Override
    public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext toolContext) {
      return Single.error(new IllegalStateException("the order service is down"));
    }
  }

  @Test
  void agentsOnToolErrorCallbackSync_answersTheFailedCall() {
    List<String> failed = new CopyOnWriteArrayList<>();
    QueueModel model =
        new QueueModel(
            QueueModel.call("lookUp", Map.of("id", "o-1")), QueueModel.text("Sorry about that."));
    LlmAgent agent =
        LlmAgent.builder()
            .name("assistant")
            .model(model)
            .tools(new OrderTool())
            .onToolErrorCallbackSync(
                (invocation, tool, args, toolContext, error) -> {
                  failed.add(tool.name() + ": " + error.getMessage());
                  return Optional.of(Map.of("status", "unavailable"));
                })
            .build();

    List<Event> events = run(new InMemoryRunner(agent), "where is o-1?");

    assertThat(failed).containsExactly("lookUp: the order service is down");
    assertThat(responseOf(events, "lookUp")).isEqualTo(Map.of("status", "unavailable"));
    assertThat(events.get(events.size() - 1).stringifyContent()).isEqualTo("Sorry about that.");
  }

  public static Map<String, Object> ping() {
    return Map.of("pong", true);
  }

  @Test
  void maxSteps_endsTheAgentsRunAfterThatManyModelCalls_withoutAnError() {
    QueueModel model =
        new QueueModel(
            QueueModel.call("ping", Map.of()),
            QueueModel.call("ping", Map.of()),
            QueueModel.text("never asked"));
    LlmAgent agent =
        LlmAgent.builder()
            .name("pinger")
            .model(model)
            .tools(FunctionTool.create(AgentOptionsProgramTest.class, "ping"))
            .maxSteps(1)
            .disallowTransferToPeers(true)
            .build();

    List<Event> events = run(new InMemoryRunner(agent), "ping");

    assertThat(model.requests).hasSize(1);
    assertThat(events).hasSize(2);
    assertThat(responseOf(events, "ping")).isEqualTo(Map.of("pong", true));
    assertThat(events).allSatisfy(e -> assertThat(e.errorCode()).isEmpty());
    assertThat(agent.maxSteps()).contains(1);
    assertThat(agent.disallowTransferToPeers()).isTrue();
  }

  @Test
  void inputSchema_isTheAgentToolsParameters_andTheAgentGetsTheArgumentsAsJson() {
    Schema input =
        Schema.builder()
            .type("OBJECT")
            .properties(Map.of("amount", Schema.builder().type("INTEGER").build()))
            .required(List.of("amount"))
            .build();
    QueueModel converterModel = new QueueModel(QueueModel.text("38 EUR"));
    LlmAgent converter =
        LlmAgent.builder()
            .name("converter")
            .description("Converts dollars to euros.")
            .model(converterModel)
            .inputSchema(input)
            .build();
    AgentTool tool = AgentTool.create(converter);
    QueueModel model =
        new QueueModel(QueueModel.call("converter", Map.of("amount", 42)), QueueModel.text("ok"));
    LlmAgent agent = LlmAgent.builder().name("assistant").model(model).tools(tool).build();

    List<Event> events = run(new InMemoryRunner(agent), "42 dollars in euros?");

    assertThat(tool.declaration().orElseThrow().parameters()).contains(input);
    Content childMessage =
        converterModel
            .requests
            .get(0)
            .contents()
            .get(converterModel.requests.get(0).contents().size() - 1);
    assertThat(childMessage.parts().orElseThrow().get(0).text()).contains("{\"amount\":42}");
    assertThat(responseOf(events, "converter").toString()).contains("38 EUR");
  }

  /** A custom agent as ADK for Java requires it: with a {@code runLiveImpl} override. */
  static final class GreeterAgent extends BaseAgent {
    GreeterAgent() {
      super("greeter", "Greets.", null, null, null);
    }

    @Override
    protected Flowable<Event> runAsyncImpl(InvocationContext invocationContext) {
      return Flowable.just(
          Event.builder()
              .invocationId(invocationContext.invocationId())
              .author(name())
              .content(Content.fromParts(Part.fromText("Hello!")))
              .build());
    }

    @Override
    protected Flowable<Event> runLiveImpl(InvocationContext invocationContext) {
      return runAsyncImpl(invocationContext);
    }
  }

  @Test
  void customAgent_withRunLiveImplOverride_compilesAndRuns() {
    List<Event> events = run(new InMemoryRunner(new GreeterAgent()), "hi");

    assertThat(events)
        .singleElement()
        .satisfies(e -> assertThat(e.stringifyContent()).isEqualTo("Hello!"));
  }

  @Test
  void newState_fromAPlainMap_copiesIt_andRecordsWritesInItsDelta() {
    Map<String, Object> initial = new HashMap<>();
    initial.put("count", 1);
    initial.put("gone", null);

    State state = new State(initial, null);
    state.put("count", 2);

    assertThat(state.get("count")).isEqualTo(2);
    assertThat(state.containsKey("gone")).isFalse();
    assertThat(state.hasDelta()).isTrue();
    assertThat(state.delta()).containsEntry("count", 2);
    assertThat(initial).containsEntry("count", 1);

    ConcurrentHashMap<String, Object> shared = new ConcurrentHashMap<>(Map.of("a", "x"));
    State over = new State(shared);
    over.put("b", "y");
    assertThat(shared).containsEntry("b", "y");
    assertThat(new State(Map.of("k", "v")).hasDelta()).isFalse();
  }
}
