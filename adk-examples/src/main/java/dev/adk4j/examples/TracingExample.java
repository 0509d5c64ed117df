package dev.adk4j.examples;

import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Tracing: the application registers an OpenTelemetry SDK (here one that keeps the spans in
 * memory); adk4j, which uses the API only, then records a span per invocation, agent, model call
 * and tool call, and the state keys each stored event wrote (never their values, by default).
 */
public final class TracingExample {
  private TracingExample() {}

  /** An exporter that keeps the finished spans, for the transcript. */
  static final class KeepingExporter implements SpanExporter {
    final List<SpanData> spans = new ArrayList<>();

    @Override
    public synchronized CompletableResultCode export(Collection<SpanData> batch) {
      spans.addAll(batch);
      return CompletableResultCode.ofSuccess();
    }

    synchronized List<SpanData> takeAll() {
      List<SpanData> out = new ArrayList<>(spans);
      spans.clear();
      return out;
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }

  private static final KeepingExporter EXPORTER = new KeepingExporter();

  // tag::tracing[]
  /** Registers an SDK that sends adk4j's spans to {@code exporter} (once per JVM). */
  static synchronized void registerTracing(SpanExporter exporter) {
    if (GlobalOpenTelemetry.isSet()) {
      return; // registered already (by an earlier run, or by the OpenTelemetry agent)
    }
    SdkTracerProvider tracing =
        SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    GlobalOpenTelemetry.set(
        new OpenTelemetry() {
          @Override
          public TracerProvider getTracerProvider() {
            return tracing;
          }

          @Override
          public ContextPropagators getPropagators() {
            return ContextPropagators.noop();
          }
        });
  }

  // end::tracing[]

  /** Runs the tool-state agent once with tracing on; returns the spans of that run. */
  public static List<SpanData> run(BaseSessionService sessions, Transcript t) {
    registerTracing(EXPORTER);
    EXPORTER.takeAll();
    Runner runner = new Runner(ToolStateExample.agent().build(), "tracing_app", null, sessions);
    ExampleSupport.freshSession(sessions, "tracing_app", "user10", "traced", null);

    t.step("Run the ToolAgent once with an OpenTelemetry SDK registered");
    ExampleSupport.run(runner, "user10", "traced", "Count this, please.", t);
    List<SpanData> spans = EXPORTER.takeAll();
    t.say("Spans of the invocation (parents before children):");
    SpanData root =
        spans.stream().filter(s -> s.getName().equals("invocation")).findFirst().orElseThrow();
    print(root, spans, 1, t);
    return spans;
  }

  private static void print(SpanData span, List<SpanData> all, int depth, Transcript t) {
    StringBuilder line = new StringBuilder("  ".repeat(depth)).append(span.getName());
    String op = span.getAttributes().get(AttributeKey.stringKey("gen_ai.operation.name"));
    if (op != null) {
      line.append("  [gen_ai.operation.name=").append(op).append(']');
    }
    span.getEvents().stream()
        .filter(e -> e.getName().equals("adk4j.state_delta"))
        .forEach(
            e ->
                line.append("  state keys written: ")
                    .append(
                        e.getAttributes().get(AttributeKey.stringArrayKey("adk4j.state.keys"))));
    t.say(line.toString());
    all.stream()
        .filter(s -> s.getParentSpanId().equals(span.getSpanId()))
        .sorted(Comparator.comparingLong(SpanData::getStartEpochNanos))
        .forEach(child -> print(child, all, depth + 1, t));
  }
}
