package dev.adk4j.sessions;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock a test moves: it stands still until {@link #advance} moves it. Thread-safe. */
final class MutableClock extends Clock {
  private final AtomicLong millis;

  MutableClock(Instant start) {
    this.millis = new AtomicLong(start.toEpochMilli());
  }

  /** A clock at a fixed, round instant (2030-01-01T00:00:00Z). */
  static MutableClock atFixedStart() {
    return new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  }

  void advance(Duration by) {
    millis.addAndGet(by.toMillis());
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("a test clock stays in UTC");
  }
}
