package dev.adk4j.internal.telemetry;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
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
 * <p>A {@code call_llm} span that produced an event carries, as ADK's does, the event's id ({@code
 * gcp.vertex.agent.event_id}) and the model's token counts ({@code gen_ai.usage.input_tokens},
 * {@code gen_ai.usage.output_tokens}). The model request and response as JSON ({@code
 * gcp.vertex.agent.llm_request}, {@code gcp.vertex.agent.llm_response}, what ADK's dev UI shows in
 * an event's request and response panes) hold the conversation, so they are recorded only when
 * content capture is on: when adk-server keeps spans for its trace views ({@link
 * #captureContentForTraceViews()}), or when the system property {@value #CAPTURE_CONTENT_PROPERTY}
 * is {@code true}. {@code -D}{@value #CAPTURE_CONTENT_PROPERTY}{@code =false}, or ADK's environment
 * variable {@value #ADK_CAPTURE_CONTENT_ENV}{@code =false}, turns it off everywhere. Nothing is
 * built for a span that does not record (no OpenTelemetry SDK registered).
 *
 * <p>Internal to adk4j: not part of its API, may change in any release.
 */
public final class Telemetry {

  /** The instrumentation scope name of adk4j's tracer. */
  public static final String INSTRUMENTATION_NAME = "dev.adk4j";

  /** Set to {@code true} to record state values (as JSON) in {@value #STATE_EVENT} span events. */
  public static final String STATE_VALUES_PROPERTY = "adk4j.telemetry.stateValues";

  /**
   * Set to {@code true} to record model requests and responses (as JSON) on {@code call_llm} spans
   * for any registered OpenTelemetry SDK; {@code false} never records them, even for adk-server's
   * trace views.
   */
  public static final String CAPTURE_CONTENT_PROPERTY = "adk4j.telemetry.captureContent";

  /** ADK's switch, honoured too: {@code false} or {@code 0} turns content capture off. */
  public static final String ADK_CAPTURE_CONTENT_ENV = "ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS";

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
  // ADK's names, which its dev UI (and tools built for ADK's traces) read on a model call's span
  static final AttributeKey<String> ADK_EVENT_ID =
      AttributeKey.stringKey("gcp.vertex.agent.event_id");
  static final AttributeKey<String> LLM_REQUEST =
      AttributeKey.stringKey("gcp.vertex.agent.llm_request");
  static final AttributeKey<String> LLM_RESPONSE =
      AttributeKey.stringKey("gcp.vertex.agent.llm_response");
  static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
  static final AttributeKey<Long> OUTPUT_TOKENS =
      AttributeKey.longKey("gen_ai.usage.output_tokens");

  private static final boolean ADK_CAPTURE_OFF =
      adkCaptureOff(System.getenv(ADK_CAPTURE_CONTENT_ENV));
  private static volatile boolean contentForTraceViews;
  private static final ObjectMapper MAPPER = Json.newMapper();

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

  /**
   * The span a no-op tracer would start under {@code parent} (one carrying the parent's span
   * context, so that context still propagates), or null when an OpenTelemetry SDK is registered:
   * without one, no span builder, name or attribute is made for each agent, model and tool call.
   */
  private static @Nullable Span untraced(Context parent) {
    if (GlobalOpenTelemetry.getOrNoop() != io.opentelemetry.api.OpenTelemetry.noop()) {
      return null;
    }
    return Span.wrap(Span.fromContext(parent).getSpanContext());
  }

  /** Starts the span of one Runner invocation, a child of {@code parent}'s span if it has one. */
  public static Span startInvocation(
      Context parent, String appName, String sessionId, String invocationId, String agentName) {
    Span untraced = untraced(parent);
    if (untraced != null) {
      return untraced;
    }
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
    Span untraced = untraced(parent);
    if (untraced != null) {
      return untraced;
    }
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
    Span untraced = untraced(parent);
    if (untraced != null) {
      return untraced;
    }
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

  /**
   * Turns content capture on for the JVM, unless {@value #CAPTURE_CONTENT_PROPERTY} or {@value
   * #ADK_CAPTURE_CONTENT_ENV} says otherwise: adk-server calls it when it keeps spans for its trace
   * views ({@code --traces}).
   */
  public static void captureContentForTraceViews() {
    contentForTraceViews = true;
  }

  /** Whether model requests and responses are recorded on spans that record (see the class). */
  public static boolean capturesContent() {
    String property = System.getProperty(CAPTURE_CONTENT_PROPERTY);
    if (property != null) {
      return Boolean.parseBoolean(property.trim());
    }
    return !ADK_CAPTURE_OFF && contentForTraceViews;
  }

  static boolean adkCaptureOff(@Nullable String value) {
    return value != null && (value.trim().equalsIgnoreCase("false") || value.trim().equals("0"));
  }

  /**
   * Records on a {@code call_llm} span what the model call produced: the id of the event stored
   * from its (last complete) response, if one was stored, the token counts, and with content
   * capture on the request and the response as JSON. Does nothing if the span does not record.
   *
   * @param response the model's last complete response, null if it gave none (it failed)
   * @param stored the event stored from it, null if none was
   */
  public static void modelCalled(
      Span span, LlmRequest request, @Nullable LlmResponse response, @Nullable Event stored) {
    if (!span.isRecording()) {
      return;
    }
    if (stored != null) {
      span.setAttribute(ADK_EVENT_ID, stored.id());
    }
    if (response != null) {
      response
          .usageMetadata()
          .ifPresent(
              u -> {
                u.promptTokenCount().ifPresent(n -> span.setAttribute(INPUT_TOKENS, (long) n));
                u.candidatesTokenCount().ifPresent(n -> span.setAttribute(OUTPUT_TOKENS, (long) n));
              });
    }
    if (!capturesContent()) {
      return;
    }
    try {
      span.setAttribute(LLM_REQUEST, requestJson(request));
      if (response != null) {
        span.setAttribute(LLM_RESPONSE, responseJson(response));
      }
    } catch (RuntimeException e) {
      // a value Jackson cannot write must not fail the model call it describes
      span.setAttribute(LLM_REQUEST, "<not serializable>");
    }
  }

  /**
   * The request as ADK's trace shows it: {@code {model, config, contents}}, the config with the
   * system instruction as text and without a response schema, and no inline bytes in the contents
   * (a file the user sent is left out, its other parts kept). Keys are camelCase, as genai's Java
   * types write them (ADK for Python writes snake_case; the dev UI reads either).
   */
  static String requestJson(LlmRequest request) {
    ObjectNode o = MAPPER.createObjectNode();
    request.model().ifPresent(m -> o.put("model", m));
    ObjectNode config = MAPPER.valueToTree(request.config());
    config.remove("systemInstruction");
    config.remove("responseSchema");
    request.systemInstruction().ifPresent(s -> config.put("systemInstruction", s));
    o.set("config", config);
    ArrayNode contents = o.putArray("contents");
    for (Content c : request.contents()) {
      List<Part> parts = c.parts().orElse(List.of());
      boolean bytes = false;
      for (Part p : parts) {
        bytes |= p.inlineData().isPresent();
      }
      Content shown = c;
      if (bytes) {
        List<Part> kept = new ArrayList<>();
        for (Part p : parts) {
          if (p.inlineData().isEmpty()) {
            kept.add(p);
          }
        }
        shown = c.toBuilder().parts(kept).build();
      }
      contents.add(MAPPER.<com.fasterxml.jackson.databind.JsonNode>valueToTree(shown));
    }
    return o.toString();
  }

  /** The response as ADK's trace shows it: its fields that are set, in camelCase. */
  static String responseJson(LlmResponse response) {
    ObjectNode o = MAPPER.createObjectNode();
    response.content().ifPresent(c -> o.set("content", MAPPER.valueToTree(c)));
    response.partial().ifPresent(p -> o.put("partial", p));
    response.turnComplete().ifPresent(t -> o.put("turnComplete", t));
    response.errorCode().ifPresent(e -> o.put("errorCode", e));
    response.errorMessage().ifPresent(e -> o.put("errorMessage", e));
    response.usageMetadata().ifPresent(u -> o.set("usageMetadata", MAPPER.valueToTree(u)));
    return o.toString();
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
    Span untraced = untraced(parent);
    if (untraced != null) {
      return untraced;
    }
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
