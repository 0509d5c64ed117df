package dev.adk4j.spring;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/** Keeps the spans the application's OpenTelemetry SDK ends, for a test to look at. */
final class RecordedSpans implements SpanExporter {
  private final List<SpanData> spans = new CopyOnWriteArrayList<>();

  @Override
  public CompletableResultCode export(Collection<SpanData> batch) {
    spans.addAll(batch);
    return CompletableResultCode.ofSuccess();
  }

  @Override
  public CompletableResultCode flush() {
    return CompletableResultCode.ofSuccess();
  }

  @Override
  public CompletableResultCode shutdown() {
    return CompletableResultCode.ofSuccess();
  }

  /** The first span ended so far that matches, waiting up to 10 s for one. */
  SpanData await(String what, Predicate<SpanData> match) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (true) {
      Optional<SpanData> found = spans.stream().filter(match).findFirst();
      if (found.isPresent()) {
        return found.get();
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no span " + what + " among " + names());
      }
      Thread.sleep(20);
    }
  }

  /** Every span ended so far in the trace {@code traceId}. */
  List<SpanData> inTrace(String traceId) {
    return spans.stream().filter(s -> s.getTraceId().equals(traceId)).toList();
  }

  private List<String> names() {
    return spans.stream().map(s -> s.getName() + " " + s.getTraceId()).toList();
  }
}
