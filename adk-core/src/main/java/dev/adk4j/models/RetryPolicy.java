package dev.adk4j.models;

import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When a model adapter tries a failed call again: only when the model API said it is rate limited
 * or overloaded (an {@link LlmException} with HTTP status 429, 503 or 529), only before the call
 * produced any response, and at most {@link #maxRetries()} times. It waits what the API asked for
 * ({@link LlmException#retryAfter()}, from its {@code Retry-After} header) when it said, otherwise
 * an exponential backoff from {@link #initialBackoff()} with 20 % jitter; never longer than {@link
 * #maxBackoff()}. The waits are timers, not sleeping threads: cancelling the call (as {@code
 * RunConfig.llmCallTimeout} does when it passes, retries included) cancels the wait.
 *
 * <p>Other failures (400, 401, 404, 500, an unreadable answer, a connection failure) are reported
 * at once: trying the same request again would fail the same way or hide a server fault. Immutable
 * and thread-safe.
 */
public final class RetryPolicy {
  private static final Logger LOG = LoggerFactory.getLogger(RetryPolicy.class);

  private static final RetryPolicy NONE = new RetryPolicy(0, Duration.ZERO, Duration.ZERO);
  private static final RetryPolicy DEFAULTS =
      new RetryPolicy(3, Duration.ofMillis(500), Duration.ofSeconds(30));

  private final int maxRetries;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Scheduler scheduler;

  private RetryPolicy(int maxRetries, Duration initialBackoff, Duration maxBackoff) {
    this(maxRetries, initialBackoff, maxBackoff, Schedulers.io());
  }

  private RetryPolicy(
      int maxRetries, Duration initialBackoff, Duration maxBackoff, Scheduler scheduler) {
    this.maxRetries = maxRetries;
    this.initialBackoff = initialBackoff;
    this.maxBackoff = maxBackoff;
    this.scheduler = scheduler;
  }

  /**
   * This policy with its waits timed by {@code scheduler} (an I/O scheduler by default, on which
   * the retried call is also subscribed): a test's {@code TestScheduler} moves through the backoff
   * without sleeping.
   */
  public RetryPolicy withScheduler(Scheduler scheduler) {
    return new RetryPolicy(
        maxRetries, initialBackoff, maxBackoff, Objects.requireNonNull(scheduler, "scheduler"));
  }

  /** No retry: every failure is reported at once. */
  public static RetryPolicy none() {
    return NONE;
  }

  /** 3 retries, backoff from 500 ms doubling, at most 30 s per wait (Retry-After included). */
  public static RetryPolicy defaults() {
    return DEFAULTS;
  }

  /**
   * A policy of {@code maxRetries} retries, backoff from {@code initialBackoff} doubling, each wait
   * at most {@code maxBackoff}.
   *
   * @throws IllegalArgumentException if {@code maxRetries < 0}, a duration is negative, or {@code
   *     maxBackoff < initialBackoff}
   */
  public static RetryPolicy of(int maxRetries, Duration initialBackoff, Duration maxBackoff) {
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must be >= 0, was " + maxRetries);
    }
    if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException(
          "need 0 <= initialBackoff <= maxBackoff, was " + initialBackoff + " and " + maxBackoff);
    }
    return new RetryPolicy(maxRetries, initialBackoff, maxBackoff);
  }

  public int maxRetries() {
    return maxRetries;
  }

  public Duration initialBackoff() {
    return initialBackoff;
  }

  public Duration maxBackoff() {
    return maxBackoff;
  }

  /** Whether {@code error} is one this policy retries: a 429, 503 or 529 {@link LlmException}. */
  public static boolean isRetried(Throwable error) {
    if (!(error instanceof LlmException)) {
      return false;
    }
    int status = ((LlmException) error).statusCode().orElse(0);
    return status == 429 || status == 503 || status == 529;
  }

  /** The wait before retry number {@code retry} (0 for the first) after {@code error}. */
  Duration delay(int retry, Throwable error) {
    Duration asked =
        error instanceof LlmException ? ((LlmException) error).retryAfter().orElse(null) : null;
    Duration d;
    if (asked != null) {
      d = asked;
    } else {
      long base = initialBackoff.toMillis() << Math.min(retry, 20);
      double jitter = 0.8 + 0.4 * ThreadLocalRandom.current().nextDouble();
      d = Duration.ofMillis((long) (base * jitter));
    }
    return d.compareTo(maxBackoff) > 0 ? maxBackoff : d;
  }

  /**
   * {@code call}, subscribed to again after each retried failure that came before its first item. A
   * retry subscribes on an I/O thread (a blocking HTTP call may run there).
   */
  public <T> Flowable<T> apply(Flowable<T> call) {
    Objects.requireNonNull(call, "call");
    if (maxRetries == 0) {
      return call;
    }
    return Flowable.defer(
        () -> {
          AtomicBoolean emitted = new AtomicBoolean();
          AtomicInteger retries = new AtomicInteger();
          return call.doOnNext(item -> emitted.set(true))
              .retryWhen(
                  errors ->
                      errors.concatMap(
                          e -> {
                            int n = retries.getAndIncrement();
                            if (emitted.get() || n >= maxRetries || !isRetried(e)) {
                              return Flowable.error(e);
                            }
                            Duration wait = delay(n, e);
                            LOG.debug(
                                "Retry {} of {} in {} ms after: {}",
                                n + 1,
                                maxRetries,
                                wait.toMillis(),
                                e.getMessage());
                            return Flowable.timer(
                                wait.toMillis(), TimeUnit.MILLISECONDS, scheduler);
                          }));
        });
  }

  @Override
  public String toString() {
    return "RetryPolicy{maxRetries="
        + maxRetries
        + ", initialBackoff="
        + initialBackoff
        + ", maxBackoff="
        + maxBackoff
        + "}";
  }
}
