package dev.adk4j.internal.telemetry;

import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * adk4j's tracing, through the OpenTelemetry API only: the application brings the SDK and registers
 * it with {@link GlobalOpenTelemetry}; without one, every span is a no-op and nothing is exported.
 *
 * <p>Spans, with the GenAI semantic-convention attributes ADK uses: {@code invocation} (one per
 * Runner invocation), {@code invoke_agent <name>} (each agent run, a child of its caller's span),
 * {@code call_llm} (each model call) and {@code execute_tool <name>} (each tool call). Each stored
 * event whose delta writes state adds a span event {@value #STATE_EVENT} to the span of the step
 * that stored it, naming the keys written; their values are left out unless the system property
 * {@value #STATE_VALUES_PROPERTY} is {@code true}.
 *
 * <p>Internal to adk4j: not part of its API, may change in any release.
 */
public final class Telemetry {

  /** The instrumentation scope name of adk4j's tracer. */
  public static final String INSTRUMENTATION_NAME = "dev.adk4j";

  /** Set to {@code true} to record state values (as JSON) in {@value #STATE_EVENT} span events. */
  public static final String STATE_VALUES_PROPERTY = "adk4j.telemetry.stateValues";

  /** The span event of a stored event that wrote state. */
  public static final String STATE_EVENT = "adk4j.state_delta";

  static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
  static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("gen_ai.system");
  static final AttributeKey<String> AGENT_NAME = AttributeKey.stringKey("gen_ai.agent.name");
  static final AttributeKey<String> AGENT_DESCRIPTION =
      AttributeKey.stringKey("gen_ai.agent.description");
  static final AttributeKey<String> CONVERSATION = AttributeKey.stringKey("gen_ai.conversation.id");
  static final AttributeKey<String> MODEL = AttributeKey.stringKey("gen_ai.request.model");
  static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
  static final AttributeKey<String> TOOL_DESCRIPTION =
      AttributeKey.stringKey("gen_ai.tool.description");
  static final AttributeKey<String> TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool_call.id");
  static final AttributeKey<String> TOOL_TYPE = AttributeKey.stringKey("gen_ai.tool.type");
  static final AttributeKey<String> INVOCATION_ID = AttributeKey.stringKey("adk4j.invocation_id");
  static final AttributeKey<String> APP_NAME = AttributeKey.stringKey("adk4j.app_name");
  static final AttributeKey<String> EVENT_ID = AttributeKey.stringKey("adk4j.event_id");
  static final AttributeKey<String> AUTHOR = AttributeKey.stringKey("adk4j.event.author");
  static final AttributeKey<List<String>> STATE_KEYS =
      AttributeKey.stringArrayKey("adk4j.state.keys");
  static final AttributeKey<String> STATE_VALUES = AttributeKey.stringKey("adk4j.state.values");

  /** The value of {@code gen_ai.system} on every span. */
  static final String SYSTEM_NAME = "adk4j";

  private Telemetry() {}

  /**
   * The tracer of the registered OpenTelemetry, looked up each time and without registering
   * anything ({@link GlobalOpenTelemetry#getOrNoop()}): an application may register its SDK at any
   * time, before or after adk4j's first span.
   */
  private static Tracer tracer() {
    return GlobalOpenTelemetry.getOrNoop().getTracer(INSTRUMENTATION_NAME);
  }

  /** Starts the span of one Runner invocation, a child of {@code parent}'s span if it has one. */
  public static Span startInvocation(
      Context parent, String appName, String sessionId, String invocationId, String agentName) {
    return tracer()
        .spanBuilder("invocation")
        .setParent(parent)
        .setAttribute(SYSTEM, SYSTEM_NAME)
        .setAttribute(APP_NAME, appName)
        .setAttribute(CONVERSATION, sessionId)
        .setAttribute(INVOCATION_ID, invocationId)
        .setAttribute(AGENT_NAME, agentName)
        .startSpan();
  }

  /**
   * Marks an invocation span as the resumption of invocation {@code invocationId}, which paused on
   * a long-running call: the span carries that id from then on.
   */
  public static void resumed(Span invocation, String invocationId) {
    invocation.setAttribute(INVOCATION_ID, invocationId);
    invocation.setAttribute("adk4j.invocation.resumed", true);
  }

  /** Starts the span of one agent run under {@code parent}. */
  public static Span startAgent(
      Context parent, String agentName, String description, String sessionId, String invocationId) {
    return tracer()
        .spanBuilder("invoke_agent " + agentName)
        .setParent(parent)
        .setAttribute(SYSTEM, SYSTEM_NAME)
        .setAttribute(OPERATION, "invoke_agent")
        .setAttribute(AGENT_NAME, agentName)
        .setAttribute(AGENT_DESCRIPTION, description)
        .setAttribute(CONVERSATION, sessionId)
        .setAttribute(INVOCATION_ID, invocationId)
        .startSpan();
  }

  /** Starts the span of one model call under {@code parent}. */
  public static Span startModelCall(
      Context parent, String agentName, @Nullable String model, String invocationId) {
    return tracer()
        .spanBuilder("call_llm")
        .setParent(parent)
        .setAttribute(SYSTEM, SYSTEM_NAME)
        .setAttribute(OPERATION, "call_llm")
        .setAttribute(AGENT_NAME, agentName)
        .setAttribute(MODEL, model == null ? "" : model)
        .setAttribute(INVOCATION_ID, invocationId)
        .startSpan();
  }

  /** Starts the span of one tool call under {@code parent}. */
  public static Span startToolCall(
      Context parent,
      String toolName,
      String description,
      String toolType,
      @Nullable String callId,
      String agentName,
      String invocationId) {
    return tracer()
        .spanBuilder("execute_tool " + toolName)
        .setParent(parent)
        .setAttribute(SYSTEM, SYSTEM_NAME)
        .setAttribute(OPERATION, "execute_tool")
        .setAttribute(TOOL_NAME, toolName)
        .setAttribute(TOOL_DESCRIPTION, description)
        .setAttribute(TOOL_TYPE, toolType)
        .setAttribute(TOOL_CALL_ID, callId == null ? "" : callId)
        .setAttribute(AGENT_NAME, agentName)
        .setAttribute(INVOCATION_ID, invocationId)
        .startSpan();
  }

  /** Marks {@code span} failed with {@code error}. */
  public static void fail(Span span, Throwable error) {
    span.recordException(error);
    span.setStatus(
        StatusCode.ERROR,
        error.getClass().getSimpleName()
            + (error.getMessage() == null ? "" : ": " + error.getMessage()));
  }

  /** Marks {@code span} failed with {@code message} (a tool's error response). */
  public static void fail(Span span, String message) {
    span.setStatus(StatusCode.ERROR, message);
  }

  /**
   * Adds a {@value #STATE_EVENT} span event to the span of {@code context} if {@code stored} wrote
   * state: its id, author and the keys written, sorted; the values only if {@value
   * #STATE_VALUES_PROPERTY} is set.
   */
  public static void stateWritten(Context context, Event stored) {
    Map<String, @Nullable Object> delta = stored.actions().stateDelta();
    if (delta.isEmpty()) {
      return;
    }
    Span span = Span.fromContext(context);
    if (!span.isRecording()) {
      return;
    }
    List<String> keys = new ArrayList<>(delta.keySet());
    keys.sort(null);
    AttributesBuilder attributes =
        Attributes.builder()
            .put(EVENT_ID, stored.id())
            .put(AUTHOR, stored.author() == null ? "" : stored.author())
            .put(STATE_KEYS, keys);
    if (Boolean.getBoolean(STATE_VALUES_PROPERTY)) {
      attributes.put(STATE_VALUES, Json.toJson(delta));
    }
    span.addEvent(STATE_EVENT, attributes.build());
  }
}
