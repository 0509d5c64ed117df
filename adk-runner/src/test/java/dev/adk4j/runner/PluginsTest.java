package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.agents.SequentialAgent;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmException;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.plugins.GlobalInstructionPlugin;
import dev.adk4j.runner.TestBackends.Backend;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionLimits;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.AgentTool;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Plugins registered on the Runner: every hook runs, before the agent's own callbacks; a value from
 * a before-hook short-circuits as ADK specifies; and state written in a hook lands, once, in the
 * delta of that step's event, on every backend.
 */
class PluginsTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  @TempDir static Path dir;
  static TestBackends backends;
  static final AtomicInteger N = new AtomicInteger();

  @BeforeAll
  static void open() throws Exception {
    backends = new TestBackends(POSTGRES, dir, SessionLimits.defaults());
  }

  @AfterAll
  static void close() throws Exception {
    backends.close();
  }

  record Fixture(BaseSessionService sessions, String app) {
    Session stored() {
      return sessions.getSession(app, "u", "s").blockingGet();
    }

    Runner runner(BaseAgent agent, BasePlugin... plugins) {
      return Runner.builder()
          .agent(agent)
          .appName(app)
          .sessionService(sessions)
          .plugins(plugins)
          .build();
    }

    List<Event> run(Runner runner, String text) {
      return runner
          .runAsync("u", "s", Contents.user(text), RunConfig.builder().build())
          .toList()
          .blockingGet();
    }
  }

  static Fixture fixture(Backend backend) {
    BaseSessionService sessions = backends.get(backend);
    String app = "plugins_" + N.incrementAndGet();
    sessions.createSession(app, "u", null, "s").blockingGet();
    return new Fixture(sessions, app);
  }

  /** A tool that writes {@code tool_ran} and answers {@code {"ok": true}}. */
  static final class EchoTool extends BaseTool {
    final AtomicInteger runs = new AtomicInteger();

    EchoTool() {
      super("echo", "Echoes.");
    }

    @Override
    public Optional<FunctionDeclaration> declaration() {
      return Optional.of(FunctionDeclaration.builder().name("echo").description("Echoes.").build());
    }

    @Override
    public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
      return Single.fromCallable(
          () -> {
            runs.incrementAndGet();
            context.state().put("tool_ran", true);
            return Map.of("ok", true);
          });
    }
  }

  /**
   * Records every hook, in order, and writes a counter per agent/model/tool hook through the
   * context it is given.
   */
  static class Recorder extends BasePlugin {
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());

    Recorder(String name) {
      super(name);
    }

    @Override
    public Maybe<Content> onUserMessageCallback(InvocationContext ctx, Content userMessage) {
      calls.add("onUserMessage");
      return Maybe.empty();
    }

    @Override
    public Maybe<Content> beforeRunCallback(InvocationContext ctx) {
      calls.add("beforeRun");
      return Maybe.empty();
    }

    @Override
    public Maybe<Event> onEventCallback(InvocationContext ctx, Event event) {
      calls.add("onEvent:" + event.author());
      return Maybe.empty();
    }

    @Override
    public Completable afterRunCallback(InvocationContext ctx) {
      calls.add("afterRun");
      return Completable.complete();
    }

    @Override
    public Maybe<Content> beforeAgentCallback(BaseAgent agent, CallbackContext ctx) {
      calls.add("plugin.beforeAgent:" + agent.name());
      ctx.state().increment("plugin:agent_starts", 1);
      return Maybe.empty();
    }

    @Override
    public Maybe<Content> afterAgentCallback(BaseAgent agent, CallbackContext ctx) {
      calls.add("plugin.afterAgent:" + agent.name());
      return Maybe.empty();
    }

    @Override
    public Maybe<LlmResponse> beforeModelCallback(CallbackContext ctx, LlmRequest.Builder request) {
      calls.add("plugin.beforeModel");
      ctx.state().increment("plugin:model_calls", 1);
      return Maybe.empty();
    }

    @Override
    public Maybe<LlmResponse> afterModelCallback(CallbackContext ctx, LlmResponse response) {
      calls.add("plugin.afterModel");
      return Maybe.empty();
    }

    @Override
    public Maybe<Map<String, Object>> beforeToolCallback(
        BaseTool tool, Map<String, Object> args, ToolContext ctx) {
      calls.add("plugin.beforeTool:" + tool.name());
      ctx.state().increment("plugin:tool_calls", 1);
      return Maybe.empty();
    }

    @Override
    public Maybe<Map<String, Object>> afterToolCallback(
        BaseTool tool, Map<String, Object> args, ToolContext ctx, Map<String, Object> result) {
      calls.add("plugin.afterTool:" + tool.name());
      return Maybe.empty();
    }
  }

  /** An agent that calls echo once and then answers, with callbacks recording into {@code log}. */
  static LlmAgent agent(ScriptedLlm model, EchoTool tool, List<String> log) {
    return LlmAgent.builder()
        .name("agent")
        .model(model)
        .tools(tool)
        .beforeAgentCallback(
            ctx -> {
              log.add("agent.beforeAgent");
              return Maybe.empty();
            })
        .afterAgentCallback(
            ctx -> {
              log.add("agent.afterAgent");
              return Maybe.empty();
            })
        .beforeModelCallback(
            (ctx, req) -> {
              log.add("agent.beforeModel");
              return Maybe.empty();
            })
        .afterModelCallback(
            (ctx, resp) -> {
              log.add("agent.afterModel");
              return Maybe.empty();
            })
        .beforeToolCallback(
            (tool1, args, ctx) -> {
              log.add("agent.beforeTool");
              return Maybe.empty();
            })
        .afterToolCallback(
            (tool1, args, ctx, resp) -> {
              log.add("agent.afterTool");
              return Maybe.empty();
            })
        .build();
  }

  static ScriptedLlm echoThenText() {
    return ScriptedLlm.builder().thenFunctionCall("echo", Map.of()).thenText("done").build();
  }

  static List<Event> writersOf(Session s, String key) {
    return s.events().stream().filter(e -> e.actions().stateDelta().containsKey(key)).toList();
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void everyHookRuns_beforeTheAgentsCallbacks_andItsWritesLandInTheStepsEventOnce(Backend backend) {
    Fixture f = fixture(backend);
    Recorder recorder = new Recorder("recorder");
    List<String> log = recorder.calls;
    EchoTool tool = new EchoTool();

    List<Event> emitted = f.run(f.runner(agent(echoThenText(), tool, log), recorder), "hi");

    assertThat(log)
        .containsExactly(
            "onUserMessage",
            "beforeRun",
            "plugin.beforeAgent:agent",
            "agent.beforeAgent",
            "onEvent:agent",
            "plugin.beforeModel",
            "agent.beforeModel",
            "plugin.afterModel",
            "agent.afterModel",
            "onEvent:agent",
            "plugin.beforeTool:echo",
            "agent.beforeTool",
            "plugin.afterTool:echo",
            "agent.afterTool",
            "onEvent:agent",
            "plugin.beforeModel",
            "agent.beforeModel",
            "plugin.afterModel",
            "agent.afterModel",
            "onEvent:agent",
            "plugin.afterAgent:agent",
            "agent.afterAgent",
            "afterRun");
    // The before-agent hook's write is the agent-callback event; the model hooks' writes are in
    // the model response events; the tool hook's in the function-response event.
    assertThat(emitted).hasSize(4);
    assertThat(emitted.get(0).actions().stateDelta()).containsEntry("plugin:agent_starts", 1);
    assertThat(emitted.get(1).actions().stateDelta()).containsEntry("plugin:model_calls", 1);
    assertThat(emitted.get(2).actions().stateDelta())
        .containsEntry("plugin:tool_calls", 1)
        .containsEntry("tool_ran", true);
    assertThat(emitted.get(3).actions().stateDelta()).containsEntry("plugin:model_calls", 2);
    Session stored = f.stored();
    assertThat(stored.state())
        .containsEntry("plugin:agent_starts", 1)
        .containsEntry("plugin:model_calls", 2)
        .containsEntry("plugin:tool_calls", 1);
    assertThat(writersOf(stored, "plugin:tool_calls")).hasSize(1);
    assertThat(writersOf(stored, "plugin:model_calls")).hasSize(2);
    assertThat(writersOf(stored, "plugin:agent_starts")).hasSize(1);
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void beforeHooksShortCircuit_skippingTheRestAndTheAgentsCallbacks(Backend backend) {
    Fixture f = fixture(backend);
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    Recorder later = new Recorder("later");
    BasePlugin answering =
        new BasePlugin("answering") {
          @Override
          public Maybe<LlmResponse> beforeModelCallback(
              CallbackContext ctx, LlmRequest.Builder request) {
            ctx.state().put("answered_by", "plugin");
            boolean toolAnswered =
                request.build().contents().stream()
                    .anyMatch(
                        c ->
                            c.parts().orElse(List.of()).stream()
                                .anyMatch(p -> p.functionResponse().isPresent()));
            return Maybe.just(
                toolAnswered
                    ? ScriptedLlm.textResponse("cached answer")
                    : ScriptedLlm.functionCallResponse("echo", Map.of()));
          }

          @Override
          public Maybe<Map<String, Object>> beforeToolCallback(
              BaseTool tool, Map<String, Object> args, ToolContext ctx) {
            ctx.state().put("tool_answered_by", "plugin");
            return Maybe.just(Map.of("cached", true));
          }
        };
    ScriptedLlm model = ScriptedLlm.builder().build();
    EchoTool tool = new EchoTool();

    List<Event> emitted = f.run(f.runner(agent(model, tool, log), answering, later), "hi");

    assertThat(model.requests()).isEmpty();
    assertThat(tool.runs).hasValue(0);
    assertThat(log).containsExactly("agent.beforeAgent", "agent.afterAgent");
    assertThat(later.calls)
        .doesNotContain("plugin.beforeModel", "plugin.beforeTool:echo", "plugin.afterTool:echo");
    // emitted: the later plugin's before-agent write, the call, the response, the answer.
    assertThat(emitted).hasSize(4);
    Event response = emitted.get(2);
    assertThat(response.functionResponses().get(0).response().orElseThrow())
        .containsEntry("cached", true);
    assertThat(response.actions().stateDelta())
        .containsEntry("tool_answered_by", "plugin")
        .doesNotContainKey("tool_ran");
    assertThat(emitted.get(emitted.size() - 1).stringifyContent()).isEqualTo("cached answer");
    assertThat(f.stored().state())
        .containsEntry("answered_by", "plugin")
        .containsEntry("tool_answered_by", "plugin")
        .doesNotContainKey("tool_ran");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void beforeAgentAndBeforeRunShortCircuit(Backend backend) {
    Fixture f = fixture(backend);
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    BasePlugin gate =
        new BasePlugin("gate") {
          @Override
          public Maybe<Content> beforeAgentCallback(BaseAgent agent, CallbackContext ctx) {
            ctx.state().put("gated", agent.name());
            return Maybe.just(Contents.model("closed today"));
          }
        };
    ScriptedLlm model = ScriptedLlm.builder().build();
    List<Event> emitted = f.run(f.runner(agent(model, new EchoTool(), log), gate), "hi");
    assertThat(log).isEmpty();
    assertThat(model.requests()).isEmpty();
    assertThat(emitted).hasSize(1);
    assertThat(emitted.get(0).stringifyContent()).isEqualTo("closed today");
    assertThat(emitted.get(0).actions().stateDelta()).containsEntry("gated", "agent");

    Recorder recorder = new Recorder("recorder");
    BasePlugin maintenance =
        new BasePlugin("maintenance") {
          @Override
          public Maybe<Content> beforeRunCallback(InvocationContext ctx) {
            return Maybe.just(Contents.model("down for maintenance"));
          }
        };
    List<Event> second =
        f.run(f.runner(agent(model, new EchoTool(), log), maintenance, recorder), "hello?");
    assertThat(second).hasSize(1);
    assertThat(second.get(0).author()).isEqualTo("agent");
    assertThat(second.get(0).stringifyContent()).isEqualTo("down for maintenance");
    assertThat(recorder.calls).containsExactly("onUserMessage", "onEvent:agent", "afterRun");
    assertThat(log).isEmpty();
    List<Event> stored = f.stored().events();
    assertThat(stored.get(stored.size() - 1).id()).isEqualTo(second.get(0).id());
    assertThat(stored.get(stored.size() - 2).stringifyContent()).isEqualTo("hello?");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void errorHooks_answerForAFailedModelOrTool_keepingOnlyTheHooksWrites(Backend backend) {
    Fixture f = fixture(backend);
    BaseTool failing =
        new BaseTool("flaky", "Fails.") {
          @Override
          public Optional<FunctionDeclaration> declaration() {
            return Optional.of(FunctionDeclaration.builder().name("flaky").build());
          }

          @Override
          public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext ctx) {
            return Single.fromCallable(
                () -> {
                  ctx.state().put("half_written", true);
                  throw new IllegalStateException("flaky is down");
                });
          }
        };
    BasePlugin rescue =
        new BasePlugin("rescue") {
          @Override
          public Maybe<LlmResponse> onModelErrorCallback(
              CallbackContext ctx, LlmRequest.Builder request, Throwable error) {
            ctx.state().put("model_rescued", error.getMessage());
            return Maybe.just(ScriptedLlm.textResponse("fallback answer"));
          }

          @Override
          public Maybe<Map<String, Object>> onToolErrorCallback(
              BaseTool tool, Map<String, Object> args, ToolContext ctx, Throwable error) {
            ctx.state().put("tool_rescued", tool.name());
            return Maybe.just(Map.of("fallback", true));
          }
        };
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("flaky", Map.of())
            .thenError(new LlmException("scripted", 503, "overloaded", null))
            .build();
    LlmAgent agent = LlmAgent.builder().name("agent").model(model).tools(failing).build();

    List<Event> emitted = f.run(f.runner(agent, rescue), "hi");

    Event response = emitted.get(1);
    assertThat(response.functionResponses().get(0).response().orElseThrow())
        .containsExactly(Map.entry("fallback", true));
    assertThat(response.actions().stateDelta())
        .containsEntry("tool_rescued", "flaky")
        .doesNotContainKey("half_written");
    Event last = emitted.get(2);
    assertThat(last.stringifyContent()).isEqualTo("fallback answer");
    assertThat(last.actions().stateDelta()).containsKey("model_rescued");
    assertThat(last.errorCode()).isEmpty();
    assertThat(f.stored().state())
        .containsEntry("tool_rescued", "flaky")
        .containsKey("model_rescued")
        .doesNotContainKey("half_written");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void onUserMessageReplacesWhatIsStored_onEventReplacesOnlyWhatIsEmitted(Backend backend) {
    Fixture f = fixture(backend);
    BasePlugin redactor =
        new BasePlugin("redactor") {
          @Override
          public Maybe<Content> onUserMessageCallback(InvocationContext ctx, Content message) {
            return Maybe.just(Contents.user("my card is [redacted]"));
          }

          @Override
          public Maybe<Event> onEventCallback(InvocationContext ctx, Event event) {
            return Maybe.just(event.toBuilder().content(Contents.model("(hidden)")).build());
          }
        };
    ScriptedLlm model =
        ScriptedLlm.answering(r -> ScriptedLlm.textResponse("seen: " + ScriptedLlm.userText(r)));

    List<Event> emitted =
        f.run(
            f.runner(LlmAgent.builder().name("agent").model(model).build(), redactor),
            "my card is 4111 1111 1111 1111");

    assertThat(ScriptedLlm.userText(model.request(0))).isEqualTo("my card is [redacted]");
    assertThat(emitted).hasSize(1);
    assertThat(emitted.get(0).stringifyContent()).isEqualTo("(hidden)");
    List<Event> stored = f.stored().events();
    assertThat(stored.get(0).stringifyContent()).isEqualTo("my card is [redacted]");
    assertThat(stored.get(1).id()).isEqualTo(emitted.get(0).id());
    assertThat(stored.get(1).stringifyContent()).isEqualTo("seen: my card is [redacted]");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void globalInstruction_reachesEveryAgent_agentToolChildrenIncluded_templatedFromState(
      Backend backend) {
    Fixture f = fixture(backend);
    f.sessions()
        .appendEvent(
            f.sessions().getSession(f.app(), "u", "s").blockingGet(),
            Event.builder()
                .author("user")
                .actions(
                    dev.adk4j.events.EventActions.builder()
                        .stateDelta(Map.of("app:shop", "Acme"))
                        .build())
                .build())
        .blockingGet();
    ScriptedLlm first = ScriptedLlm.answering(r -> ScriptedLlm.textResponse("first"));
    ScriptedLlm child = ScriptedLlm.answering(r -> ScriptedLlm.textResponse("child answer"));
    ScriptedLlm second =
        ScriptedLlm.builder()
            .thenFunctionCall("helper", Map.of("request", "help"))
            .thenText("second")
            .build();
    LlmAgent helper = LlmAgent.builder().name("helper").model(child).instruction("Help.").build();
    SequentialAgent root =
        SequentialAgent.builder()
            .name("root")
            .subAgents(
                LlmAgent.builder().name("a").model(first).instruction("Be first.").build(),
                LlmAgent.builder()
                    .name("b")
                    .model(second)
                    .instruction("Be second.")
                    .tools(AgentTool.create(helper))
                    .build())
            .build();

    f.run(f.runner(root, new GlobalInstructionPlugin("You work for {app:shop}.")), "hi");

    assertThat(ScriptedLlm.instruction(first.request(0)))
        .startsWith("You work for Acme.\n\nBe first.");
    assertThat(ScriptedLlm.instruction(second.request(0)))
        .startsWith("You work for Acme.\n\nBe second.");
    assertThat(ScriptedLlm.instruction(child.request(0))).startsWith("You work for Acme.\n\nHelp.");
  }

  @Test
  void pluginNamesMustBeDistinct_andConstructorsKeepWorking() {
    Fixture f = fixture(Backend.MEMORY);
    LlmAgent agent =
        LlmAgent.builder()
            .name("agent")
            .model(ScriptedLlm.answering(r -> ScriptedLlm.textResponse("x")))
            .build();
    assertThatThrownBy(() -> f.runner(agent, new Recorder("same"), new Recorder("same")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'same'");
    Recorder r = new Recorder("r");
    Runner byConstructor = new Runner(agent, f.app(), null, f.sessions(), null, List.of(r));
    assertThat(byConstructor.plugins()).containsExactly(r);
    f.run(byConstructor, "hi");
    assertThat(r.calls).contains("beforeRun", "afterRun");
    assertThat(new Runner(agent, f.app(), null, f.sessions()).plugins()).isEmpty();
    assertThat(new InMemoryRunner(agent, "app", List.of(r)).plugins()).containsExactly(r);
  }
}
