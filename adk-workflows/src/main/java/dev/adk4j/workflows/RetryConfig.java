package dev.adk4j.workflows;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * When a failed node runs again (ADK's {@code RetryConfig}): at most {@code maxAttempts} attempts
 * in all, waiting {@code initialDelay} before the first retry and {@code backoffFactor} times
 * longer before each next one (never more than {@code maxDelay}), for the errors {@code retryOn}
 * accepts. A failed attempt's state writes are discarded (function nodes) before the next one.
 * {@link Error}s are never retried: they abort the run as a crash would.
 *
 * @param maxAttempts 1 means no retry
 */
public record RetryConfig(
    int maxAttempts,
    Duration initialDelay,
    double backoffFactor,
    Duration maxDelay,
    Predicate<? super Exception> retryOn) {

  /** One attempt, no retry: the default of every node. */
  public static final RetryConfig NONE =
      new RetryConfig(1, Duration.ZERO, 1.0, Duration.ZERO, e -> false);

  public RetryConfig {
    Objects.requireNonNull(initialDelay, "initialDelay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    Objects.requireNonNull(retryOn, "retryOn");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
    }
    if (initialDelay.isNegative() || maxDelay.isNegative()) {
      throw new IllegalArgumentException("Retry delays must not be negative");
    }
    if (!(backoffFactor >= 1.0)) {
      throw new IllegalArgumentException("backoffFactor must be at least 1, got " + backoffFactor);
    }
  }

  /** {@code maxAttempts} attempts for any exception, {@code initialDelay} doubling up to 10 s. */
  public static RetryConfig attempts(int maxAttempts, Duration initialDelay) {
    return new RetryConfig(maxAttempts, initialDelay, 2.0, Duration.ofSeconds(10), e -> true);
  }

  /** This policy, retrying only the exceptions {@code retryOn} accepts. */
  public RetryConfig retryingOn(Predicate<? super Exception> retryOn) {
    return new RetryConfig(maxAttempts, initialDelay, backoffFactor, maxDelay, retryOn);
  }

  /** The wait before attempt {@code attempt} (2 for the first retry). */
  Duration delayBefore(int attempt) {
    double millis = initialDelay.toMillis() * Math.pow(backoffFactor, Math.max(0, attempt - 2));
    return Duration.ofMillis((long) Math.min(millis, (double) maxDelay.toMillis()));
  }
}
