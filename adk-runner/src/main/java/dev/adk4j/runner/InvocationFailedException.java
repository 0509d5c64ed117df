package dev.adk4j.runner;

import dev.adk4j.AdkException;
import dev.adk4j.events.Event;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import org.jspecify.annotations.Nullable;

/**
 * An invocation that failed after it began, as its final event tells it. A run of {@link
 * Runner#runAsync} that fails after it began does not signal an error: it ends with an event whose
 * {@code errorCode} (one of {@link #ERROR_CODES}) and {@code errorMessage} say why, and completes,
 * so that every consumer, RxJava's blocking iterators included, sees every event. A caller that
 * wants the failure as an exception gets it from that event:
 *
 * <pre>{@code
 * List<Event> events = runner.runAsync(user, session, message).toList().blockingGet();
 * InvocationFailedException.throwIfFailed(events); // or of(events), an Optional
 * }</pre>
 */
public class InvocationFailedException extends AdkException {
  private static final long serialVersionUID = 1L;

  /**
   * The error codes of a runner's final event when an invocation fails: {@code STATE_CONFLICT},
   * {@code LLM_CALLS_LIMIT_EXCEEDED}, {@code MODEL_ERROR}, {@code INVALID_ARGUMENT}, {@code
   * SESSION_BUSY} (another turn took the session over), {@code SESSION_NOT_FOUND} (the session was
   * deleted meanwhile), {@code STORE_ERROR} (the session service failed), {@code INTERRUPTED},
   * {@code INTERNAL_ERROR}, {@code CANCELLED}. A model's own error codes on its responses (a finish
   * reason such as {@code SAFETY}) are not among them.
   */
  public static final Set<String> ERROR_CODES =
      Set.of(
          "STATE_CONFLICT",
          "LLM_CALLS_LIMIT_EXCEEDED",
          "MODEL_ERROR",
          "INVALID_ARGUMENT",
          "SESSION_BUSY",
          "SESSION_NOT_FOUND",
          "STORE_ERROR",
          "INTERRUPTED",
          "INTERNAL_ERROR",
          "CANCELLED");

  /**
   * What made each final event a runner emitted in this process: while the caller holds the event,
   * {@link #of(Event)} gives that exception as the cause (an event read back from storage has
   * none).
   */
  private static final Map<Event, Throwable> CAUSES =
      Collections.synchronizedMap(new WeakHashMap<>());

  private final transient Event event;

  private InvocationFailedException(Event event, String code, @Nullable Throwable cause) {
    super(
        "Invocation "
            + event.invocationId()
            + " failed ("
            + code
            + "): "
            + event.errorMessage().orElse(""),
        cause);
    this.event = event;
  }

  /** Records {@code cause} as what made the runner's final event {@code event}. */
  static void remember(Event event, Throwable cause) {
    CAUSES.put(event, cause);
  }

  /**
   * The failure {@code event} records, if it is a runner's final event of a failed invocation (its
   * {@code errorCode} is one of {@link #ERROR_CODES}). Its cause is the exception that ended the
   * invocation (an {@code LlmException} with the model's HTTP status, for instance) when a runner
   * of this process emitted {@code event}; none for an event read from storage.
   */
  public static Optional<InvocationFailedException> of(Event event) {
    Objects.requireNonNull(event, "event");
    return event
        .errorCode()
        .filter(ERROR_CODES::contains)
        .map(code -> new InvocationFailedException(event, code, CAUSES.get(event)));
  }

  /** The failure the last of {@code events} (a run's events) records, if any. */
  public static Optional<InvocationFailedException> of(List<Event> events) {
    Objects.requireNonNull(events, "events");
    return events.isEmpty() ? Optional.empty() : of(events.get(events.size() - 1));
  }

  /**
   * Returns {@code events} (a run's events) as they are, or fails as ADK for Java's {@code
   * runAsync} would if their last event records a failure: {@code
   * throwIfFailed(runner.runAsync(user, session, message).toList().blockingGet())}.
   *
   * @throws RuntimeException the exception that ended the invocation ({@link #failure()}) if it is
   *     known here and unchecked (an {@code LlmException}, a {@code StateConflictException}, ...),
   *     else an {@code InvocationFailedException}
   */
  public static List<Event> throwIfFailed(List<Event> events) {
    Optional<InvocationFailedException> failure = of(events);
    if (failure.isPresent()) {
      Throwable t = failure.get().failure();
      if (t instanceof RuntimeException r) {
        throw r;
      }
      if (t instanceof Error e) {
        throw e;
      }
      throw failure.get();
    }
    return events;
  }

  /** One of {@link #ERROR_CODES}. */
  public String errorCode() {
    return event.errorCode().orElseThrow();
  }

  /**
   * The exception that ended the invocation ({@link #getCause()}) when it is known here, else this
   * exception: what a caller rethrows to fail as ADK for Java's {@code runAsync} would.
   */
  public Throwable failure() {
    Throwable cause = getCause();
    return cause != null ? cause : this;
  }

  /** The final event that records the failure. */
  public Event event() {
    return event;
  }
}
