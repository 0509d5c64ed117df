package dev.adk4j.sessions;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Which events {@code getSession} returns: those at or after {@link #afterTimestamp()}, then of
 * those the last {@link #numRecentEvents()} ({@code 0} keeps none). Immutable.
 */
public final class GetSessionConfig {
  private final @Nullable Integer numRecentEvents;
  private final @Nullable Instant afterTimestamp;

  private GetSessionConfig(Builder b) {
    this.numRecentEvents = b.numRecentEvents;
    this.afterTimestamp = b.afterTimestamp;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.numRecentEvents = numRecentEvents;
    b.afterTimestamp = afterTimestamp;
    return b;
  }

  public Optional<Integer> numRecentEvents() {
    return Optional.ofNullable(numRecentEvents);
  }

  public Optional<Instant> afterTimestamp() {
    return Optional.ofNullable(afterTimestamp);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GetSessionConfig
        && Objects.equals(numRecentEvents, ((GetSessionConfig) o).numRecentEvents)
        && Objects.equals(afterTimestamp, ((GetSessionConfig) o).afterTimestamp);
  }

  @Override
  public int hashCode() {
    return Objects.hash(numRecentEvents, afterTimestamp);
  }

  @Override
  public String toString() {
    return "GetSessionConfig{numRecentEvents="
        + numRecentEvents
        + ", afterTimestamp="
        + afterTimestamp
        + "}";
  }

  /** Builds a {@link GetSessionConfig}. */
  public static final class Builder {
    private @Nullable Integer numRecentEvents;
    private @Nullable Instant afterTimestamp;

    private Builder() {}

    /**
     * Keep only the last {@code n} events ({@code 0} keeps none).
     *
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public Builder numRecentEvents(int n) {
      if (n < 0) {
        throw new IllegalArgumentException("numRecentEvents must be >= 0, got " + n);
      }
      this.numRecentEvents = n;
      return this;
    }

    /** Keep only events whose timestamp is at or after {@code after}. */
    public Builder afterTimestamp(Instant after) {
      this.afterTimestamp = Objects.requireNonNull(after, "afterTimestamp");
      return this;
    }

    public GetSessionConfig build() {
      return new GetSessionConfig(this);
    }
  }
}
