package dev.adk4j.benchmarks.compare;

import com.google.adk.agents.LlmAgent;
import com.google.adk.events.Event;
import com.google.adk.models.BaseLlm;
import com.google.adk.models.BaseLlmConnection;
import com.google.adk.models.LlmRequest;
import com.google.adk.models.LlmResponse;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.InMemorySessionService;
import com.google.adk.sessions.Session;
import com.google.adk.tools.Annotations;
import com.google.adk.tools.FunctionTool;
import com.google.adk.tools.ToolContext;
import io.reactivex.rxjava3.core.Flowable;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * {@link TurnOps} on Google ADK: {@code com.google.adk.runner.Runner} (its default in-memory
 * artifact service, no plugins), {@code com.google.adk.sessions.InMemorySessionService}.
 */
final class AdkJavaTurns implements TurnOps {

  /** A model with no latency that follows {@link Script}. */
  static final class ScriptedModel extends BaseLlm {
    final AtomicLong calls = new AtomicLong();

    ScriptedModel() {
      super("scripted-bench-model");
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
      calls.incrementAndGet();
      return Flowable.just(
          LlmResponse.builder().content(Script.answer(request.contents())).build());
    }

    @Override
    public BaseLlmConnection connect(LlmRequest request) {
      throw new UnsupportedOperationException("no live connection in the benchmarks");
    }
  }

  /**
   * The tool: writes its argument into session state ({@code toolContext} by name, as ADK asks).
   */
  public static final class CityTool {
    @Annotations.Schema(name = Workload.TOOL, description = "Remembers the user's city.")
    public Map<String, Object> setCity(
        @Annotations.Schema(name = Workload.TOOL_ARG) String city, ToolContext toolContext) {
      toolContext.state().put(Workload.TOOL_STATE_KEY, city);
      return Map.of("status", "ok");
    }
  }

  private final InMemorySessionService service = new InMemorySessionService();
  private final ScriptedModel model = new ScriptedModel();
  private final Runner runner;

  AdkJavaTurns() {
    LlmAgent agent =
        LlmAgent.builder()
            .name(Workload.AGENT)
            .model(model)
            .instruction(Workload.INSTRUCTION)
            .tools(FunctionTool.create(new CityTool(), "setCity"))
            .outputKey(Workload.OUTPUT_KEY)
            .build();
    runner = Runner.builder().agent(agent).appName(Workload.APP).sessionService(service).build();
  }

  @Override
  public void createSession(String sessionId) {
    service
        .createSession(Workload.APP, Workload.USER, (Map<String, Object>) null, sessionId)
        .blockingGet();
  }

  @Override
  public void deleteSession(String sessionId) {
    service.deleteSession(Workload.APP, Workload.USER, sessionId).blockingAwait();
  }

  @Override
  public void fillHistory(String sessionId, int events) {
    Session session = get(sessionId);
    for (int i = 1; i <= events; i++) {
      boolean question = i % 2 == 1;
      service
          .appendEvent(
              session,
              Event.builder()
                  .id(Event.generateEventId())
                  .invocationId("history-" + (i + 1) / 2)
                  .author(question ? "user" : Workload.AGENT)
                  .content(question ? Script.question(i) : Script.answer(i))
                  .build())
          .blockingGet();
    }
  }

  private Session get(String sessionId) {
    return service
        .getSession(Workload.APP, Workload.USER, sessionId, Optional.empty())
        .blockingGet();
  }

  @Override
  public int turn(String sessionId) {
    int[] count = {0};
    AtomicReference<Throwable> error = new AtomicReference<>();
    runner
        .runAsync(Workload.USER, sessionId, Script.USER_MESSAGE)
        .blockingSubscribe(e -> count[0]++, error::set);
    if (error.get() != null) {
      throw new IllegalStateException("adk-java turn failed", error.get());
    }
    return count[0];
  }

  @Override
  public void settle(String sessionId) {
    // ADK's Runner does the whole turn before its Flowable completes: nothing runs after it.
  }

  @Override
  public int eventCount(String sessionId) {
    return get(sessionId).events().size();
  }

  @Override
  public @Nullable Object stateValue(String sessionId, String key) {
    return get(sessionId).state().get(key);
  }

  @Override
  public long modelCalls() {
    return model.calls.get();
  }
}
