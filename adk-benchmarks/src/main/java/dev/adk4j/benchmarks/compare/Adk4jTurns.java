package dev.adk4j.benchmarks.compare;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.Annotations;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Flowable;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/** {@link TurnOps} on adk4j: {@code dev.adk4j.runner.Runner}, {@code InMemorySessionService}. */
final class Adk4jTurns implements TurnOps {

  /** A model with no latency that follows {@link Script}. */
  static final class ScriptedModel extends BaseLlm {
    final AtomicLong calls = new AtomicLong();

    ScriptedModel() {
      super("scripted-bench-model");
    }

    @Override
    public boolean blocksSubscriber() {
      return false; // answers at once
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
      calls.incrementAndGet();
      return Flowable.just(
          LlmResponse.builder().content(Script.answer(request.contents())).build());
    }
  }

  /** The tool: writes its argument into session state. */
  public static final class CityTool {
    @Annotations.Schema(name = Workload.TOOL, description = "Remembers the user's city.")
    public Map<String, Object> setCity(String city, ToolContext toolContext) {
      toolContext.state().put(Workload.TOOL_STATE_KEY, city);
      return Map.of("status", "ok");
    }
  }

  private final InMemorySessionService service = new InMemorySessionService();
  private final ScriptedModel model = new ScriptedModel();
  private final Runner runner;

  Adk4jTurns() {
    LlmAgent agent =
        LlmAgent.builder()
            .name(Workload.AGENT)
            .model(model)
            .instruction(Workload.INSTRUCTION)
            .tools(FunctionTool.create(new CityTool(), "setCity"))
            .outputKey(Workload.OUTPUT_KEY)
            .build();
    runner = new Runner(agent, Workload.APP, null, service);
  }

  @Override
  public void createSession(String sessionId) {
    service.createSession(Workload.APP, Workload.USER, null, sessionId).blockingGet();
  }

  @Override
  public void deleteSession(String sessionId) {
    service.deleteSession(Workload.APP, Workload.USER, sessionId).blockingAwait();
  }

  @Override
  public void fillHistory(String sessionId, int events) {
    Session session = service.getSession(Workload.APP, Workload.USER, sessionId).blockingGet();
    for (int i = 1; i <= events; i++) {
      boolean question = i % 2 == 1;
      service
          .appendEvent(
              session,
              Event.builder()
                  .invocationId("history-" + (i + 1) / 2)
                  .author(question ? "user" : Workload.AGENT)
                  .content(question ? Script.question(i) : Script.answer(i))
                  .build())
          .blockingGet();
    }
  }

  @Override
  public int turn(String sessionId) {
    int[] count = {0};
    AtomicReference<Throwable> error = new AtomicReference<>();
    runner
        .runAsync(Workload.USER, sessionId, Script.USER_MESSAGE)
        .blockingSubscribe(e -> count[0]++, error::set);
    if (error.get() != null) {
      throw new IllegalStateException("adk4j turn failed", error.get());
    }
    return count[0];
  }

  @Override
  public void settle(String sessionId) {
    // The runner holds the session's lease until the run's work is done.
    service
        .acquireLease(Workload.APP, Workload.USER, sessionId, Duration.ofSeconds(30))
        .blockingGet()
        .close();
  }

  @Override
  public int eventCount(String sessionId) {
    return service.getSession(Workload.APP, Workload.USER, sessionId).blockingGet().events().size();
  }

  @Override
  public @Nullable Object stateValue(String sessionId, String key) {
    return service
        .getSession(Workload.APP, Workload.USER, sessionId)
        .blockingGet()
        .state()
        .get(key);
  }

  @Override
  public long modelCalls() {
    return model.calls.get();
  }
}
