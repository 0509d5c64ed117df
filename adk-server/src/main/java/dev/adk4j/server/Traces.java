package dev.adk4j.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.adk4j.internal.telemetry.Telemetry;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The spans the Runner records, kept in memory for the dev UI's trace views ({@code
 * /debug/trace/...}), as ADK's server keeps them: an OpenTelemetry SDK whose only processor is this
 * one, registered globally (adk4j's spans go to the globally registered OpenTelemetry) when the
 * server is started with traces on and no application registered one first. One per JVM; it keeps
 * the newest {@value #MAX_SPANS} spans, and fewer when their model requests and responses together
 * pass {@value #MAX_CONTENT_CHARS} characters.
 *
 * <p>Installing it turns on adk4j's content capture ({@link
 * Telemetry#captureContentForTraceViews()}): each {@code call_llm} span then carries the model
 * request and response as JSON and the id of the event it produced, which is how an event finds its
 * model call here.
 */
final class Traces implements SpanProcessor {
  private static final Logger log = LoggerFactory.getLogger(Traces.class);

  static final int MAX_SPANS = 20_000;

  /** Characters of model requests and responses kept, at most (about 128 MB of strings). */
  static final long MAX_CONTENT_CHARS = 64L << 20;

  private static final AttributeKey<String> INVOCATION_ID =
      AttributeKey.stringKey("adk4j.invocation_id");
  private static final AttributeKey<String> CONVERSATION =
      AttributeKey.stringKey("gen_ai.conversation.id");
  private static final AttributeKey<String> EVENT_ID =
      AttributeKey.stringKey("gcp.vertex.agent.event_id");
  private static final AttributeKey<String> LLM_REQUEST =
      AttributeKey.stringKey("gcp.vertex.agent.llm_request");
  private static final AttributeKey<String> LLM_RESPONSE =
      AttributeKey.stringKey("gcp.vertex.agent.llm_response");

  private static @Nullable Traces installed;

  private final ArrayDeque<SpanData> spans = new ArrayDeque<>();

  /** The model call that produced each event, by event id (spans still kept). */
  private final Map<String, SpanData> byEvent = new HashMap<>();

  private long contentChars;

  private Traces() {}

  /**
   * The JVM's collector, registered as the global OpenTelemetry on first use; null (with a warning)
   * when an application registered its own OpenTelemetry first: its spans go there, not here.
   */
  static synchronized @Nullable Traces install() {
    if (installed != null) {
      return installed;
    }
    if (GlobalOpenTelemetry.isSet()) {
      log.warn(
          "traces: an OpenTelemetry is registered already; adk4j's spans go to it, and the dev"
              + " UI's trace views stay empty");
      return null;
    }
    Traces t = new Traces();
    SdkTracerProvider provider = SdkTracerProvider.builder().addSpanProcessor(t).build();
    GlobalOpenTelemetry.set(
        new OpenTelemetry() {
          @Override
          public TracerProvider getTracerProvider() {
            return provider;
          }

          @Override
          public ContextPropagators getPropagators() {
            return ContextPropagators.noop();
          }
        });
    Telemetry.captureContentForTraceViews();
    installed = t;
    log.info(
        "traces: the Runner's spans are kept in memory for the dev UI's trace views"
            + (Telemetry.capturesContent()
                ? ", with each model call's request and response"
                : " (model requests and responses are not recorded: "
                    + Telemetry.CAPTURE_CONTENT_PROPERTY
                    + " or "
                    + Telemetry.ADK_CAPTURE_CONTENT_ENV
                    + " is false)"));
    return t;
  }

  // ---- SpanProcessor ----

  @Override
  public void onStart(Context parentContext, ReadWriteSpan span) {}

  @Override
  public boolean isStartRequired() {
    return false;
  }

  @Override
  public void onEnd(ReadableSpan span) {
    SpanData data = span.toSpanData();
    synchronized (this) {
      spans.addLast(data);
      contentChars += contentChars(data);
      String eventId = data.getAttributes().get(EVENT_ID);
      if (eventId != null) {
        byEvent.put(eventId, data);
      }
      while (spans.size() > MAX_SPANS || (contentChars > MAX_CONTENT_CHARS && spans.size() > 1)) {
        SpanData gone = spans.removeFirst();
        contentChars -= contentChars(gone);
        String goneEvent = gone.getAttributes().get(EVENT_ID);
        if (goneEvent != null) {
          byEvent.remove(goneEvent, gone);
        }
      }
    }
  }

  private static long contentChars(SpanData s) {
    String request = s.getAttributes().get(LLM_REQUEST);
    String response = s.getAttributes().get(LLM_RESPONSE);
    return (request == null ? 0 : request.length()) + (response == null ? 0 : response.length());
  }

  @Override
  public boolean isEndRequired() {
    return true;
  }

  // ---- views ----

  /**
   * The spans of the session's invocations (every span of their traces), oldest first, in ADK's
   * shape: {@code [{name, span_id, trace_id, start_time, end_time, attributes, parent_span_id}]}.
   */
  synchronized ArrayNode session(String sessionId) {
    Set<String> traceIds = new HashSet<>();
    for (SpanData s : spans) {
      if (sessionId.equals(s.getAttributes().get(CONVERSATION))) {
        traceIds.add(s.getTraceId());
      }
    }
    List<SpanData> found = new ArrayList<>();
    for (SpanData s : spans) {
      if (traceIds.contains(s.getTraceId())) {
        found.add(s);
      }
    }
    found.sort(Comparator.comparingLong(SpanData::getStartEpochNanos));
    Map<String, String> sessionOfTrace = new HashMap<>();
    for (SpanData s : found) {
      String session = s.getAttributes().get(CONVERSATION);
      if (session != null) {
        sessionOfTrace.putIfAbsent(s.getTraceId(), session);
      }
    }
    ArrayNode out = Wire.MAPPER.createArrayNode();
    for (SpanData s : found) {
      ObjectNode o = out.addObject();
      o.put("name", s.getName());
      o.put("span_id", s.getSpanId());
      o.put("trace_id", s.getTraceId());
      o.put("start_time", s.getStartEpochNanos());
      o.put("end_time", s.getEndEpochNanos());
      o.set("attributes", attributes(s, sessionOfTrace.get(s.getTraceId())));
      @Nullable String parent = s.getParentSpanContext().isValid() ? s.getParentSpanId() : null;
      if (parent == null) {
        o.putNull("parent_span_id");
      } else {
        o.put("parent_span_id", parent);
      }
    }
    return out;
  }

  /** The model call that produced event {@code eventId}: its attributes, as ADK answers. */
  synchronized Optional<ObjectNode> event(String eventId) {
    SpanData s = byEvent.get(eventId);
    if (s == null) {
      return Optional.empty();
    }
    String session = null;
    for (SpanData other : spans) {
      if (other.getTraceId().equals(s.getTraceId())) {
        session = other.getAttributes().get(CONVERSATION);
        if (session != null) {
          break;
        }
      }
    }
    ObjectNode o = attributes(s, session);
    o.put("trace_id", s.getTraceId());
    o.put("span_id", s.getSpanId());
    return Optional.of(o);
  }

  /**
   * A span's attributes, with the names ADK's dev UI groups and links by beside adk4j's: {@code
   * gcp.vertex.agent.invocation_id} and {@code gcp.vertex.agent.session_id} (the session of the
   * span's trace). A model call's span carries ADK's own names already ({@code
   * gcp.vertex.agent.event_id}, {@code gcp.vertex.agent.llm_request}, {@code
   * gcp.vertex.agent.llm_response}: see {@link Telemetry}).
   */
  private static ObjectNode attributes(SpanData s, @Nullable String session) {
    ObjectNode a = Wire.MAPPER.createObjectNode();
    s.getAttributes().forEach((k, v) -> a.set(k.getKey(), Wire.MAPPER.<JsonNode>valueToTree(v)));
    String invocation = s.getAttributes().get(INVOCATION_ID);
    if (invocation != null) {
      a.put("gcp.vertex.agent.invocation_id", invocation);
    }
    if (session != null) {
      a.put("gcp.vertex.agent.session_id", session);
    }
    return a;
  }

  @Override
  public String toString() {
    return "Traces{" + spans.size() + " spans}";
  }
}
