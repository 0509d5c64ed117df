package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.models.*, com.google.adk.plugins.*,
// com.google.adk.runner.*, com.google.adk.sessions.*, com.google.adk.tools.* (prefix swap), and
// com.google.adk.summarizer.EventsCompactionConfig -> dev.adk4j.runner.EventsCompactionConfig
// (the guide's import table).
import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.runner.EventsCompactionConfig;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code InvocationContext.callbackContextData()}, the invocation's scratch map that plugins and
 * callbacks hand each other values through, and {@code eventsCompactionConfig()}, the runner's
 * compaction configuration, as ADK for Java offers them.
 */
class InvocationContextProgramTest {

  /**
   * Marks the user's message (and replaces it), then reads the mark back in the model and tool
   * hooks.
   */
  static final class TimingPlugin extends BasePlugin {
    final List<Object> seen = new CopyOnWriteArrayList<>();

    TimingPlugin() {
      super("timing");
    }

    @Override
    public Maybe<Content> onUserMessageCallback(
        InvocationContext invocationContext, Content userMessage) {
      String text = userMessage.parts().orElseThrow().get(0).text().orElseThrow();
      invocationContext.callbackContextData().put("started", text);
      // Replacing the message makes the runner build the invocation's context again.
      return Maybe.just(Content.fromParts(Part.fromText(text + " (timed)")));
    }

    @Override
    public Maybe<LlmResponse> beforeModelCallback(
        CallbackContext callbackContext, LlmRequest.Builder llmRequest) {
      Map<String, Object> data = callbackContext.invocationContext().callbackContextData();
      Object calls = data.merge("modelCalls", 1, (a, b) -> (Integer) a + (Integer) b);
      seen.add("model call " + calls + " for " + data.get("started"));
      return Maybe.empty();
    }

    @Override
    public Maybe<Map<String, Object>> afterToolCallback(
        dev.adk4j.tools.BaseTool tool,
        Map<String, Object> toolArgs,
        ToolContext toolContext,
        Map<String, Object> result) {
      seen.add("tool saw " + toolContext.invocationContext().callbackContextData().get("fromTool"));
      return Maybe.empty();
    }
  }

  /** A tool that leaves a value for the plugin's after-tool hook. */
  public static Map<String, Object> lookup(@Schema(name = "what") String what, ToolContext ctx) {
    ctx.invocationContext().callbackContextData().put("fromTool", what);
    return Map.of("found", what);
  }

  @Test
  void callbackContextData_isOneMapForTheWholeInvocation_andNotStored() {
    TimingPlugin plugin = new TimingPlugin();
    QueueModel model =
        new QueueModel(QueueModel.call("lookup", Map.of("what", "hours")), QueueModel.text("9-5"));
    LlmAgent agent =
        LlmAgent.builder()
            .name("helper")
            .model(model)
            .tools(FunctionTool.create(InvocationContextProgramTest.class, "lookup"))
            .build();
    InMemoryRunner runner = new InMemoryRunner(agent, "shop", List.of(plugin));
    Session session = runner.sessionService().createSession("shop", "u").blockingGet();

    runner
        .runAsync("u", session.id(), Content.fromParts(Part.fromText("when are you open?")))
        .blockingSubscribe();

    assertThat(plugin.seen)
        .containsExactly(
            "model call 1 for when are you open?",
            "tool saw hours",
            "model call 2 for when are you open?");
    assertThat(model.requests.get(0).contents().get(0).parts().orElseThrow().get(0).text())
        .contains("when are you open? (timed)");
    Session stored = runner.sessionService().getSession("shop", "u", session.id()).blockingGet();
    assertThat(stored.state()).doesNotContainKeys("started", "fromTool", "modelCalls");

    // The next invocation starts with a map of its own: its model calls count from 1 again.
    plugin.seen.clear();
    runner
        .runAsync("u", session.id(), Content.fromParts(Part.fromText("thanks")))
        .blockingSubscribe();
    assertThat(plugin.seen).containsExactly("model call 1 for thanks");
  }

  @Test
  void builder_takesTheMap_andToBuilderSharesIt() {
    ConcurrentHashMap<String, Object> data = new ConcurrentHashMap<>(Map.of("k", "v"));
    InMemorySessionService sessions = new InMemorySessionService();
    Session session = sessions.createSession("app", "u").blockingGet();
    LlmAgent agent = LlmAgent.builder().name("a").model(new QueueModel()).build();

    InvocationContext ctx =
        InvocationContext.builder()
            .sessionService(sessions)
            .agent(agent)
            .session(session)
            .callbackContextData(data)
            .endInvocation(true)
            .build();
    InvocationContext copy = ctx.toBuilder().build();
    copy.callbackContextData().put("added", 1);

    assertThat(ctx.callbackContextData()).isSameAs(data).containsEntry("added", 1);
    assertThat(ctx.endInvocation()).isTrue();
    assertThat(ctx.eventsCompactionConfig()).isEmpty();
    InvocationContext plain =
        InvocationContext.builder().sessionService(sessions).agent(agent).session(session).build();
    assertThat(plain.callbackContextData()).isEmpty();
    assertThat(plain.endInvocation()).isFalse();
  }

  @Test
  void eventsCompactionConfig_isTheRunnersConfiguration() {
    EventsCompactionConfig config = new EventsCompactionConfig(5, 2);
    AtomicReference<Optional<EventsCompactionConfig>> seen = new AtomicReference<>();
    AtomicReference<Integer> interval = new AtomicReference<>();
    LlmAgent agent =
        LlmAgent.builder()
            .name("summarized")
            .model(new QueueModel(QueueModel.text("ok")))
            .beforeAgentCallback(
                callbackContext -> {
                  Optional<EventsCompactionConfig> c =
                      callbackContext.invocationContext().eventsCompactionConfig();
                  seen.set(c);
                  interval.set(
                      callbackContext
                          .invocationContext()
                          .eventsCompactionConfig()
                          .get()
                          .compactionInterval());
                  return Maybe.empty();
                })
            .build();
    Runner runner =
        Runner.builder()
            .agent(agent)
            .appName("app")
            .sessionService(new InMemorySessionService())
            .eventsCompactionConfig(config)
            .build();
    Session session = runner.sessionService().createSession("app", "u").blockingGet();

    runner.runAsync("u", session.id(), Content.fromParts(Part.fromText("hi"))).blockingSubscribe();

    assertThat(seen.get()).containsSame(config);
    assertThat(interval.get()).isEqualTo(5);
    assertThat(config.overlapSize()).isEqualTo(2);
  }
}
