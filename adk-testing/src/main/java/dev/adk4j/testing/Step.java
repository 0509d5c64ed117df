package dev.adk4j.testing;

import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import io.reactivex.rxjava3.core.Flowable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One step of a {@link ScriptedLlm} script: what one model call produces (one response computed
 * from the request, responses as given and an error, a {@code Flowable} of its own, or nothing),
 * and the delay before each of its signals. Immutable.
 */
final class Step {

  /** What the step is, as the model's errors and {@code assertScriptConsumed} name it. */
  final String description;

  private final Kind kind;
  private final @Nullable Function<LlmRequest, LlmResponse> answer;
  private final @Nullable Function<LlmRequest, Flowable<LlmResponse>> flowable;
  private final List<LlmResponse> responses;
  private final @Nullable Throwable error;
  private final @Nullable Duration delay;

  private enum Kind {
    /** One response (computed from the request), chunked into partials when streaming. */
    ANSWER,
    /** The given responses as they are, then the error if there is one. */
    VERBATIM,
    /** Whatever the function's Flowable emits. */
    FLOWABLE,
    /** Nothing, ever. */
    NO_ANSWER
  }

  private Step(
      String description,
      Kind kind,
      @Nullable Function<LlmRequest, LlmResponse> answer,
      @Nullable Function<LlmRequest, Flowable<LlmResponse>> flowable,
      List<LlmResponse> responses,
      @Nullable Throwable error,
      @Nullable Duration delay) {
    this.description = description;
    this.kind = kind;
    this.answer = answer;
    this.flowable = flowable;
    this.responses = responses;
    this.error = error;
    this.delay = delay;
  }

  /** One response computed from the request; in partials first when streaming, if it has text. */
  static Step answer(String description, Function<LlmRequest, LlmResponse> answer) {
    return new Step(description, Kind.ANSWER, answer, null, List.of(), null, null);
  }

  /** Exactly {@code responses}, streaming or not, then {@code error} if not null. */
  static Step verbatim(String description, List<LlmResponse> responses, @Nullable Throwable e) {
    return new Step(description, Kind.VERBATIM, null, null, List.copyOf(responses), e, null);
  }

  /** Whatever {@code f} returns for the request. */
  static Step flowable(String description, Function<LlmRequest, Flowable<LlmResponse>> f) {
    return new Step(description, Kind.FLOWABLE, null, f, List.of(), null, null);
  }

  /** Never answers nor completes. */
  static Step noAnswer() {
    return new Step(
        "no answer (never responds)", Kind.NO_ANSWER, null, null, List.of(), null, null);
  }

  /** This step with each response, and the error, {@code d} after the signal before it. */
  Step delayed(Duration d) {
    return new Step(
        description + " delayed " + d.toMillis() + " ms",
        kind,
        answer,
        flowable,
        responses,
        error,
        d);
  }

  /**
   * What this step answers {@code request}, delayed if the step is. Lazy: a computed answer is
   * computed on subscription, on the subscribing thread.
   *
   * @param stream whether the caller asked to stream: an {@link #answer} with text then comes as
   *     {@code streamChunks} partial responses first
   * @param model the model's name, for the error when a function of the script returns null
   */
  Flowable<LlmResponse> flow(LlmRequest request, boolean stream, String model, int streamChunks) {
    Flowable<LlmResponse> flow =
        Flowable.defer(() -> produce(request, stream, model, streamChunks));
    return delay == null ? flow : delayed(flow, delay);
  }

  private Flowable<LlmResponse> produce(
      LlmRequest request, boolean stream, String model, int streamChunks) {
    switch (kind) {
      case ANSWER:
        LlmResponse response =
            Objects.requireNonNull(
                Objects.requireNonNull(answer, "an ANSWER step has its function").apply(request),
                () -> "ScriptedLlm '" + model + "': " + description + " returned null");
        return Flowable.fromIterable(stream ? chunked(response, streamChunks) : List.of(response));
      case VERBATIM:
        Flowable<LlmResponse> out = Flowable.fromIterable(responses);
        return error == null ? out : out.concatWith(Flowable.error(error));
      case FLOWABLE:
        return Objects.requireNonNull(
            Objects.requireNonNull(flowable, "a FLOWABLE step has its function").apply(request),
            () -> "ScriptedLlm '" + model + "': " + description + " returned null");
      default:
        return Flowable.never();
    }
  }

  /**
   * {@code response} as {@code chunks} partial text responses (fewer if its text is shorter), then
   * itself; just itself if it has no text, is partial already or carries an error code.
   */
  private static List<LlmResponse> chunked(LlmResponse response, int chunks) {
    String text = response.content().map(Requests::text).orElse("");
    if (response.partial().orElse(false) || response.errorCode().isPresent() || text.isEmpty()) {
      return List.of(response);
    }
    int n = Math.min(chunks, text.length());
    List<LlmResponse> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(
          ScriptedLlm.partialResponse(
              text.substring(i * text.length() / n, (i + 1) * text.length() / n)));
    }
    out.add(response);
    return out;
  }

  /** Each response, and the error, {@code delay} after the signal before it; completion at once. */
  private static Flowable<LlmResponse> delayed(Flowable<LlmResponse> flow, Duration delay) {
    long nanos = delay.toNanos();
    return flow.materialize()
        .concatMap(
            n ->
                n.isOnComplete()
                    ? Flowable.just(n)
                    : Flowable.timer(nanos, TimeUnit.NANOSECONDS).map(tick -> n))
        .dematerialize(n -> n);
  }
}
