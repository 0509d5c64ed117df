package dev.adk4j.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Content;
import dev.adk4j.events.Event;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
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
 * the newest {@value #MAX_SPANS} spans.
 *
 * <p>adk4j's spans carry invocation ids, agent and tool names but no event ids, and no model
 * request or response; the server links a model event to its {@code call_llm} span by order (the
 * k-th model response of an agent in an invocation came from the k-th model call of that agent in
 * that invocation) and shows the event's content as the model's response.
 */
final class Traces implements SpanProcessor {
  private static final Logger log = LoggerFactory.getLogger(Traces.class);

  static final int MAX_SPANS = 20_000;
  private static final int MAX_EVENTS = 20_000;

  private static final AttributeKey<String> INVOCATION_ID =
      AttributeKey.stringKey("adk4j.invocation_id");
  private static final AttributeKey<String> CONVERSATION =
      AttributeKey.stringKey("gen_ai.conversation.id");
  private static final AttributeKey<String> AGENT_NAME =
      AttributeKey.stringKey("gen_ai.agent.name");

  private static @Nullable Traces installed;

  /** A model event the server passed on: its invocation, author and place among theirs. */
  private record EventRef(String invocationId, String agent, int index, String content) {}

  private final ArrayDeque<SpanData> spans = new ArrayDeque<>();
  private final Map<String, EventRef> events =
      new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, EventRef> eldest) {
          return size() > MAX_EVENTS;
        }
      };
  private final Map<String, List<String>> modelEvents =
      new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<String>> eldest) {
          return size() > MAX_EVENTS;
        }
      };

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
    installed = t;
    log.info("traces: the Runner's spans are kept in memory for the dev UI's trace views");
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
      while (spans.size() > MAX_SPANS) {
        spans.removeFirst();
      }
    }
  }

  @Override
  public boolean isEndRequired() {
    return true;
  }

  // ---- events ----

  /** Notes an event a run produced: a complete model response is linked to its model call. */
  synchronized void event(Event e) {
    String invocationId = e.invocationId();
    String author = e.author();
    if (e.partial().orElse(false) || invocationId == null || author == null) {
      return;
    }
    Optional<Content> content = e.content();
    boolean fromModel =
        content.isPresent()
            && "model".equals(content.get().role().orElse(""))
            && !"user".equals(author);
    if (!fromModel) {
      return;
    }
    String key = invocationId + '\u0000' + author;
    List<String> ids = modelEvents.computeIfAbsent(key, k -> new ArrayList<>());
    if (ids.contains(e.id())) {
      return;
    }
    ids.add(e.id());
    events.put(e.id(), new EventRef(invocationId, author, ids.size() - 1, content.get().toJson()));
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
    ArrayNode out = Wire.MAPPER.createArrayNode();
    for (SpanData s : found) {
      ObjectNode o = out.addObject();
      o.put("name", s.getName());
      o.put("span_id", s.getSpanId());
      o.put("trace_id", s.getTraceId());
      o.put("start_time", s.getStartEpochNanos());
      o.put("end_time", s.getEndEpochNanos());
      o.set("attributes", attributes(s));
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
    EventRef ref = events.get(eventId);
    if (ref == null) {
      return Optional.empty();
    }
    List<SpanData> calls = calls(ref.invocationId(), ref.agent());
    if (ref.index() >= calls.size()) {
      return Optional.empty();
    }
    SpanData s = calls.get(ref.index());
    ObjectNode o = attributes(s);
    o.put("trace_id", s.getTraceId());
    o.put("span_id", s.getSpanId());
    return Optional.of(o);
  }

  /** The ended {@code call_llm} spans of an agent in an invocation, in the order they started. */
  private List<SpanData> calls(String invocationId, String agent) {
    List<SpanData> calls = new ArrayList<>();
    for (SpanData s : spans) {
      if (s.getName().equals("call_llm")
          && invocationId.equals(s.getAttributes().get(INVOCATION_ID))
          && agent.equals(s.getAttributes().get(AGENT_NAME))) {
        calls.add(s);
      }
    }
    calls.sort(Comparator.comparingLong(SpanData::getStartEpochNanos));
    return calls;
  }

  /**
   * A span's attributes, with the names ADK's dev UI reads beside adk4j's: {@code
   * gcp.vertex.agent.invocation_id}, {@code gcp.vertex.agent.session_id}, and on a model call
   * linked to its event {@code gcp.vertex.agent.event_id} and {@code gcp.vertex.agent.llm_response}
   * (the event's content).
   */
  private ObjectNode attributes(SpanData s) {
    ObjectNode a = Wire.MAPPER.createObjectNode();
    s.getAttributes().forEach((k, v) -> a.set(k.getKey(), Wire.MAPPER.<JsonNode>valueToTree(v)));
    String invocation = s.getAttributes().get(INVOCATION_ID);
    if (invocation != null) {
      a.put("gcp.vertex.agent.invocation_id", invocation);
    }
    String session = s.getAttributes().get(CONVERSATION);
    if (session != null) {
      a.put("gcp.vertex.agent.session_id", session);
    }
    String agent = s.getAttributes().get(AGENT_NAME);
    if (s.getName().equals("call_llm") && invocation != null && agent != null) {
      List<String> ids = modelEvents.get(invocation + '\u0000' + agent);
      int index = calls(invocation, agent).indexOf(s);
      if (ids != null && index >= 0 && index < ids.size()) {
        EventRef ref = events.get(ids.get(index));
        a.put("gcp.vertex.agent.event_id", ids.get(index));
        if (ref != null) {
          a.put("gcp.vertex.agent.llm_response", ref.content());
        }
      }
    }
    return a;
  }

  @Override
  public String toString() {
    return "Traces{" + spans.size() + " spans}";
  }
}
