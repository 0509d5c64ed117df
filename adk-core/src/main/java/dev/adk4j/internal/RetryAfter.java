package dev.adk4j.internal;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Reads how long an HTTP API asks its caller to wait: the {@code retry-after-ms} header
 * (milliseconds, sent by some model APIs) or the standard {@code Retry-After} header (seconds, or
 * an HTTP date), as the model adapters receive them.
 *
 * <p>Internal to adk4j: not part of its API, may change in any release.
 */
public final class RetryAfter {
  private RetryAfter() {}

  /**
   * The wait asked for, or null when neither header is present or readable.
   *
   * @param retryAfterMs the value of {@code retry-after-ms}, may be null
   * @param retryAfter the value of {@code Retry-After}, may be null
   * @param now the current time, for an HTTP date
   */
  public static @Nullable Duration parse(
      @Nullable String retryAfterMs, @Nullable String retryAfter, Instant now) {
    if (retryAfterMs != null) {
      try {
        double ms = Double.parseDouble(retryAfterMs.trim());
        if (ms >= 0 && Double.isFinite(ms)) {
          return Duration.ofMillis((long) ms);
        }
      } catch (NumberFormatException e) {
        // fall through to Retry-After
      }
    }
    if (retryAfter == null || retryAfter.isBlank()) {
      return null;
    }
    String value = retryAfter.trim();
    try {
      double seconds = Double.parseDouble(value);
      if (seconds >= 0 && Double.isFinite(seconds)) {
        return Duration.ofMillis((long) (seconds * 1000));
      }
      return null;
    } catch (NumberFormatException e) {
      // an HTTP date
    }
    try {
      ZonedDateTime at =
          ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME.withLocale(Locale.ROOT));
      Duration d = Duration.between(now, at.toInstant());
      return d.isNegative() ? Duration.ZERO : d;
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
