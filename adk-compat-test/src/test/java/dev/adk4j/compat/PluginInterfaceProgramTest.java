package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.events.Event, com.google.adk.models.*,
// com.google.adk.plugins.Plugin, com.google.adk.plugins.PluginManager,
// com.google.adk.runner.Runner (prefix swap only).
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.plugins.Plugin;
import dev.adk4j.plugins.PluginManager;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Plugins written against ADK's {@code Plugin} interface (not {@code BasePlugin}), collected in a
 * {@code PluginManager}: its hooks ask the plugins in order and stop at the first answer, as ADK
 * documents, and a manager given to the runner runs them for every invocation.
 */
class PluginInterfaceProgramTest {

  /** Counts agent and model calls; answers nothing. */
  static final class CountingPlugin implements Plugin {
    final List<String> seen = new CopyOnWriteArrayList<>();

    @Override
    public String getName() {
      return "counting";
    }

    @Override
    public Maybe<Content> beforeAgentCallback(BaseAgent agent, CallbackContext callbackContext) {
      seen.add("agent " + agent.name());
      return Maybe.empty();
    }

    @Override
    public Maybe<LlmResponse> beforeModelCallback(
        CallbackContext callbackContext, LlmRequest.Builder llmRequest) {
      seen.add("model");
      return Maybe.empty();
    }
  }

  /** Answers every model call itself, so the model is never called. */
  static final class CannedAnswerPlugin implements Plugin {
    @Override
    public String getName() {
      return "canned";
    }

    @Override
    public Maybe<LlmResponse> beforeModelCallback(
        CallbackContext callbackContext, LlmRequest.Builder llmRequest) {
      return Maybe.just(QueueModel.text("from the plugin"));
    }
  }

  /** Never asked when an earlier plugin answered. */
  static final class LastPlugin implements Plugin {
    final List<String> seen = new CopyOnWriteArrayList<>();

    @Override
    public String getName() {
      return "last";
    }

    @Override
    public Maybe<LlmResponse> beforeModelCallback(
        CallbackContext callbackContext, LlmRequest.Builder llmRequest) {
      seen.add("model");
      return Maybe.just(QueueModel.text("from the last plugin"));
    }

    @Override
    public Completable close() {
      return Completable.error(new IllegalStateException("cannot close 'last'"));
    }
  }

  @Test
  void pluginManager_inARunner_runsItsPluginsInOrder_andTheFirstAnswerWins() {
    CountingPlugin counting = new CountingPlugin();
    LastPlugin last = new LastPlugin();
    PluginManager manager = new PluginManager(List.of(counting, new CannedAnswerPlugin()));
    manager.registerPlugin(last);
    QueueModel model = new QueueModel(QueueModel.text("from the model"));
    LlmAgent agent = LlmAgent.builder().name("assistant").model(model).build();
    Runner runner = Runner.builder().agent(agent).appName("plugins").plugins(manager).build();
    Session session = runner.sessionService().createSession("plugins", "u").blockingGet();

    List<Event> events =
        runner
            .runAsync("u", session.id(), Content.fromParts(Part.fromText("hi")))
            .toList()
            .blockingGet();

    assertThat(events.get(events.size() - 1).stringifyContent()).isEqualTo("from the plugin");
    assertThat(counting.seen).containsExactly("agent assistant", "model");
    assertThat(last.seen).isEmpty();
    assertThat(model.requests).isEmpty();
    assertThat(manager.getPlugins())
        .extracting(Plugin::getName)
        .containsExactly("counting", "canned", "last");
    assertThat(manager.getPlugin("canned")).isPresent();
    assertThat(manager.getPlugin("absent")).isEmpty();
    assertThat(runner.pluginManager()).isSameAs(manager);
  }

  @Test
  void pluginManager_refusesASecondPluginOfTheSameName() {
    PluginManager manager = new PluginManager();
    manager.registerPlugin(new CountingPlugin());

    assertThatThrownBy(() -> manager.registerPlugin(new CountingPlugin()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'counting'");
  }

  @Test
  void pluginManager_close_closesEveryPlugin_thenFailsWithTheFirstFailure() {
    List<String> closed = new CopyOnWriteArrayList<>();
    Plugin first =
        new Plugin() {
          @Override
          public String getName() {
            return "first";
          }

          @Override
          public Completable close() {
            return Completable.fromRunnable(() -> closed.add("first"))
                .andThen(Completable.error(new IllegalStateException("first failed")));
          }
        };
    Plugin second =
        new Plugin() {
          @Override
          public String getName() {
            return "second";
          }

          @Override
          public Completable close() {
            return Completable.fromRunnable(() -> closed.add("second"));
          }
        };

    new PluginManager(List.of(first, second))
        .close()
        .test()
        .assertError(e -> e.getMessage().equals("first failed"));
    assertThat(closed).containsExactly("first", "second");
  }

  @Test
  void invocationContext_pluginManager_isTheRunnersManager() {
    List<List<String>> seenByTool = new CopyOnWriteArrayList<>();
    LlmAgent agent =
        LlmAgent.builder()
            .name("assistant")
            .model(new QueueModel(QueueModel.text("done")))
            .beforeAgentCallback(
                callbackContext -> {
                  InvocationContext invocation = callbackContext.invocationContext();
                  seenByTool.add(
                      invocation.pluginManager().getPlugins().stream()
                          .map(Plugin::getName)
                          .toList());
                  return Maybe.empty();
                })
            .build();
    Runner runner =
        Runner.builder()
            .agent(agent)
            .appName("plugins")
            .plugins(new PluginManager(List.of(new CountingPlugin())))
            .build();
    Session session = runner.sessionService().createSession("plugins", "u").blockingGet();

    runner.runAsync("u", session.id(), Content.fromParts(Part.fromText("hi"))).blockingSubscribe();

    assertThat(seenByTool).containsExactly(List.of("counting"));
  }

  @Test
  void invocationContextBuilder_pluginManager_isTheContextsPluginManager() {
    PluginManager manager = new PluginManager(List.of(new CountingPlugin()));
    InvocationContext context =
        InvocationContext.builder()
            .sessionService(new InMemorySessionService())
            .agent(LlmAgent.builder().name("assistant").model(new QueueModel()).build())
            .session(Session.builder("s").appName("app").userId("u").build())
            .pluginManager(manager)
            .build();

    assertThat(context.pluginManager()).isSameAs(manager);
    assertThat(context.plugins()).containsExactly(manager);
  }
}
