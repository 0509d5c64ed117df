package dev.adk4j.spring;

import com.google.genai.types.Content;
import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.sessions.StateConflictException;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * adk4j's Micrometer meters, recorded from the runners' plugin hooks (see {@code
 * docs/spring-boot.md} for the names and tags). Thread-safe: one instance serves every runner.
 */
final class MetricsPlugin extends BasePlugin implements SessionWaits {
  static final String TURNS = "adk4j.turns";
  static final String TURN_DURATION = "adk4j.turn.duration";
  static final String MODEL_CALLS = "adk4j.model.calls";
  static final String MODEL_TOKENS = "adk4j.model.tokens";
  static final String TOOL_CALLS = "adk4j.tool.calls";
  static final String TOOL_FAILURES = "adk4j.tool.failures";
  static final String STATE_CONFLICTS = "adk4j.state.conflicts";
  static final String APPENDS = "adk4j.session.appends";
  static final String SESSION_WAITS = "adk4j.session.waits";

  private final MeterRegistry registry;
  private final String backend;
  private final Map<String, Long> started = new ConcurrentHashMap<>();

  /**
   * @param backend the session store's name for the appends' {@code backend} tag
   */
  MetricsPlugin(MeterRegistry registry, String backend) {
    super("adk4j-metrics");
    this.registry = registry;
    this.backend = backend;
  }

  /** A run of the ADK API waited for its session: another turn held it. */
  @Override
  public void accept(dev.adk4j.sessions.SessionWait wait) {
    Counter.builder(SESSION_WAITS)
        .description("Runs that waited for their session because another turn held it")
        .tag("app", wait.appName())
        .register(registry)
        .increment();
  }

  @Override
  public Maybe<Content> beforeRunCallback(InvocationContext ctx) {
    started.put(ctx.invocationId(), System.nanoTime());
    return Maybe.empty();
  }

  @Override
  public Completable afterRunCallback(InvocationContext ctx) {
    turnEnded(ctx, "success");
    return Completable.complete();
  }

  @Override
  public Completable onRunErrorCallback(InvocationContext ctx, Throwable error) {
    turnEnded(ctx, "error");
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof StateConflictException) {
        Counter.builder(STATE_CONFLICTS)
            .description("Turns that ended with a state conflict")
            .tag("app", ctx.appName())
            .register(registry)
            .increment();
        break;
      }
    }
    return Completable.complete();
  }

  private void turnEnded(InvocationContext ctx, String outcome) {
    Counter.builder(TURNS)
        .description("Turns (invocations) run")
        .tag("app", ctx.appName())
        .tag("outcome", outcome)
        .register(registry)
        .increment();
    Long start = started.remove(ctx.invocationId());
    if (start != null) {
      Timer.builder(TURN_DURATION)
          .description("How long turns take, from the root agent's start to the last event")
          .tag("app", ctx.appName())
          .tag("outcome", outcome)
          .register(registry)
          .record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public Maybe<Event> onEventCallback(InvocationContext ctx, Event event) {
    if (!event.partial().orElse(false)) {
      Counter.builder(APPENDS)
          .description("Events appended to sessions")
          .tag("app", ctx.appName())
          .tag("backend", backend)
          .register(registry)
          .increment();
    }
    return Maybe.empty();
  }

  @Override
  public Maybe<LlmResponse> afterModelCallback(CallbackContext ctx, LlmResponse response) {
    if (!response.partial().orElse(false)) {
      String app = ctx.appName();
      modelCall(app, "success");
      response
          .usageMetadata()
          .ifPresent(
              u -> {
                tokens(app, "input", u.promptTokenCount().orElse(0));
                tokens(app, "output", u.candidatesTokenCount().orElse(0));
              });
    }
    return Maybe.empty();
  }

  @Override
  public Maybe<LlmResponse> onModelErrorCallback(
      CallbackContext ctx, LlmRequest.Builder request, Throwable error) {
    modelCall(ctx.appName(), "error");
    return Maybe.empty();
  }

  private void modelCall(String app, String outcome) {
    Counter.builder(MODEL_CALLS)
        .description("Model calls")
        .tag("app", app)
        .tag("outcome", outcome)
        .register(registry)
        .increment();
  }

  private void tokens(String app, String type, int count) {
    if (count > 0) {
      Counter.builder(MODEL_TOKENS)
          .description("Tokens models read (input) and wrote (output), as they report them")
          .baseUnit("tokens")
          .tag("app", app)
          .tag("type", type)
          .register(registry)
          .increment(count);
    }
  }

  @Override
  public Maybe<Map<String, Object>> beforeToolCallback(
      BaseTool tool, Map<String, Object> args, ToolContext ctx) {
    Counter.builder(TOOL_CALLS)
        .description("Tool calls")
        .tag("app", ctx.appName())
        .tag("tool", tool.name())
        .register(registry)
        .increment();
    return Maybe.empty();
  }

  @Override
  public Maybe<Map<String, Object>> onToolErrorCallback(
      BaseTool tool, Map<String, Object> args, ToolContext ctx, Throwable error) {
    Counter.builder(TOOL_FAILURES)
        .description("Tool calls that failed")
        .tag("app", ctx.appName())
        .tag("tool", tool.name())
        .register(registry)
        .increment();
    return Maybe.empty();
  }
}
