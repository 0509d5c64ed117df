package dev.adk4j.models;

import dev.adk4j.AdkException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * A call to a model failed: the model API answered with an HTTP error, or it could not be reached.
 * Delivered as the error of the {@code Flowable} returned by {@link
 * BaseLlm#generateContent(LlmRequest, boolean)}.
 *
 * <p>A model that answers but refuses (a blocked prompt, a safety stop) is not an exception: it is
 * an {@link LlmResponse} with {@link LlmResponse#errorCode()}.
 *
 * <p>The message names the model and, when there was an HTTP answer, its status code and status;
 * the cause is the client library's exception.
 */
public class LlmException extends AdkException {
  private static final long serialVersionUID = 1L;

  private final String model;
  private final int statusCode;
  private final @Nullable Duration retryAfter;

  /**
   * @param model the model that was called, never null
   * @param statusCode the HTTP status code, or 0 when there was no HTTP answer (I/O failure)
   * @param message the full message
   * @param cause the underlying exception, may be null
   */
  public LlmException(String model, int statusCode, String message, @Nullable Throwable cause) {
    this(model, statusCode, message, null, cause);
  }

  /**
   * @param model the model that was called, never null
   * @param statusCode the HTTP status code, or 0 when there was no HTTP answer (I/O failure)
   * @param message the full message
   * @param retryAfter how long the API asked the caller to wait before trying again (its {@code
   *     Retry-After} header), or null if it did not say; a negative duration counts as zero
   * @param cause the underlying exception, may be null
   */
  public LlmException(
      String model,
      int statusCode,
      String message,
      @Nullable Duration retryAfter,
      @Nullable Throwable cause) {
    super(message, cause);
    this.model = Objects.requireNonNull(model, "model");
    this.statusCode = statusCode;
    this.retryAfter = retryAfter == null || !retryAfter.isNegative() ? retryAfter : Duration.ZERO;
  }

  /**
   * How long the model API asked to wait before the next attempt (its {@code Retry-After} or {@code
   * retry-after-ms} header); empty when it did not say. {@link RetryPolicy} waits this long instead
   * of its own backoff.
   */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /** The name of the model that was called. */
  public String model() {
    return model;
  }

  /** The HTTP status code of the model API's answer; empty when no answer was received. */
  public OptionalInt statusCode() {
    return statusCode > 0 ? OptionalInt.of(statusCode) : OptionalInt.empty();
  }

  /**
   * Whether trying the same request again may succeed: no answer at all, 408 (timeout), 429 (rate
   * limited) or a 5xx server error. 4xx errors other than 408 and 429 are the request's fault.
   */
  public boolean retryable() {
    return statusCode <= 0 || statusCode == 408 || statusCode == 429 || statusCode >= 500;
  }
}
