package dev.adk4j.sessions;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Which events {@code getSession} returns. The filters apply first, all of them together: events
 * appended after {@link #afterRevision()} (adk4j), from the latest compaction event on with {@link
 * #fromLatestCompaction()} (adk4j), at or after {@link #afterTimestamp()}; then of those the last
 * {@link #numRecentEvents()} ({@code 0} keeps none). Immutable.
 */
public final class GetSessionConfig {
  private final @Nullable Integer numRecentEvents;
  private final @Nullable Instant afterTimestamp;
  private final @Nullable Long afterRevision;
  private final boolean fromLatestCompaction;

  private GetSessionConfig(Builder b) {
    this.numRecentEvents = b.numRecentEvents;
    this.afterTimestamp = b.afterTimestamp;
    this.afterRevision = b.afterRevision;
    this.fromLatestCompaction = b.fromLatestCompaction;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.numRecentEvents = numRecentEvents;
    b.afterTimestamp = afterTimestamp;
    b.afterRevision = afterRevision;
    b.fromLatestCompaction = fromLatestCompaction;
    return b;
  }

  public Optional<Integer> numRecentEvents() {
    return Optional.ofNullable(numRecentEvents);
  }

  public Optional<Instant> afterTimestamp() {
    return Optional.ofNullable(afterTimestamp);
  }

  /** Keep only the events appended after the session was at this revision (adk4j). */
  public Optional<Long> afterRevision() {
    return Optional.ofNullable(afterRevision);
  }

  /** Keep only the events from the session's latest compaction event on (adk4j). */
  public boolean fromLatestCompaction() {
    return fromLatestCompaction;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof GetSessionConfig)) {
      return false;
    }
    GetSessionConfig that = (GetSessionConfig) o;
    return Objects.equals(numRecentEvents, that.numRecentEvents)
        && Objects.equals(afterTimestamp, that.afterTimestamp)
        && Objects.equals(afterRevision, that.afterRevision)
        && fromLatestCompaction == that.fromLatestCompaction;
  }

  @Override
  public int hashCode() {
    return Objects.hash(numRecentEvents, afterTimestamp, afterRevision, fromLatestCompaction);
  }

  @Override
  public String toString() {
    return "GetSessionConfig{numRecentEvents="
        + numRecentEvents
        + ", afterTimestamp="
        + afterTimestamp
        + ", afterRevision="
        + afterRevision
        + ", fromLatestCompaction="
        + fromLatestCompaction
        + "}";
  }

  /** Builds a {@link GetSessionConfig}. */
  public static final class Builder {
    private @Nullable Integer numRecentEvents;
    private @Nullable Instant afterTimestamp;
    private @Nullable Long afterRevision;
    private boolean fromLatestCompaction;

    private Builder() {}

    /**
     * Keep only the last {@code n} events ({@code 0} keeps none), after the other options.
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

    /**
     * Keep only the events appended after the session was at {@code revision} (adk4j): a caller
     * holding a copy at revision r reads just what was appended since. The event an append stores
     * has the revision that append produced, so this keeps the events whose revision is greater
     * than {@code revision}; 0 keeps all, the session's current revision none. Costs what it
     * returns, not the session's history.
     *
     * @throws IllegalArgumentException if {@code revision} is negative
     */
    public Builder afterRevision(long revision) {
      if (revision < 0) {
        throw new IllegalArgumentException("afterRevision must be >= 0, got " + revision);
      }
      this.afterRevision = revision;
      return this;
    }

    /**
     * Keep only the events from the session's latest compaction event (one whose {@code
     * actions().compaction()} is present) on, that event included; all events if there is none
     * (adk4j). The services remember where the latest compaction is, so this costs what it returns,
     * not the session's history.
     */
    public Builder fromLatestCompaction(boolean fromLatestCompaction) {
      this.fromLatestCompaction = fromLatestCompaction;
      return this;
    }

    public GetSessionConfig build() {
      return new GetSessionConfig(this);
    }
  }
}
