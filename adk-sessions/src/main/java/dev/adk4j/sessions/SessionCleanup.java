package dev.adk4j.sessions;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a session service cleans up (adk4j): it deletes expired sessions (those created with a time
 * to live that saw no activity for that long, see {@link BaseSessionService#createSession(String,
 * String, java.util.Map, String, Duration)}) and, with {@link Builder#retainLastEvents}, deletes
 * the old events of idle sessions, keeping their last ones. Run it with {@link
 * BaseSessionService#purgeExpired(SessionCleanup)} or {@link #runOn}, or schedule it with {@link
 * #schedule}:
 *
 * <pre>{@code
 * SessionCleanup cleanup =
 *     SessionCleanup.builder().retainLastEvents(100, Duration.ofDays(30)).build();
 * ScheduledFuture<?> task = cleanup.schedule(executor, sessions, Duration.ofMinutes(10));
 * }</pre>
 *
 * <p>The work is done in batches of {@link #batchSize()} sessions, each batch its own short
 * transaction, so that appends are never held up for long; a run stops after {@link #maxBatches()}
 * batches of each kind (the next run goes on). App and user state are never deleted, and a
 * retention trim leaves state untouched (it is stored apart from events).
 *
 * <p>Immutable and thread-safe.
 */
public final class SessionCleanup {

  private static final Logger log = LoggerFactory.getLogger(SessionCleanup.class);
  private static final SessionCleanup DEFAULTS = builder().build();

  private final int batchSize;
  private final int maxBatches;
  private final int retainLastEvents;
  private final @Nullable Duration retentionIdleFor;

  private SessionCleanup(Builder b) {
    this.batchSize = b.batchSize;
    this.maxBatches = b.maxBatches;
    this.retainLastEvents = b.retainLastEvents;
    this.retentionIdleFor = b.retentionIdleFor;
  }

  /** Expired sessions only, in batches of 500, at most 1,000 batches a run. */
  public static SessionCleanup defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Sessions per batch (each batch is one transaction). Default 500. */
  public int batchSize() {
    return batchSize;
  }

  /** Batches of each kind (expiry, retention) in one run at most. Default 1,000. */
  public int maxBatches() {
    return maxBatches;
  }

  /**
   * The events retention keeps per idle session; meaningful when {@link #retentionIdleFor()} is
   * set.
   */
  public int retainLastEvents() {
    return retainLastEvents;
  }

  /** How long a session must have been idle for retention to trim it; null: no retention. */
  public @Nullable Duration retentionIdleFor() {
    return retentionIdleFor;
  }

  /** Runs this cleanup once on {@code sessions}, on the calling thread. */
  public Result runOn(BaseSessionService sessions) {
    return sessions.purgeExpired(this).blockingGet();
  }

  /**
   * Runs this cleanup on {@code sessions} every {@code every} (with a fixed delay between the end
   * of a run and the start of the next) on {@code executor}, first after one delay. A run that
   * fails is logged at WARN and the next one goes on; cancel the returned future to stop.
   */
  public ScheduledFuture<?> schedule(
      ScheduledExecutorService executor, BaseSessionService sessions, Duration every) {
    Objects.requireNonNull(executor, "executor");
    Objects.requireNonNull(sessions, "sessions");
    Objects.requireNonNull(every, "every");
    if (every.isNegative() || every.isZero()) {
      throw new IllegalArgumentException("every must be positive, got " + every);
    }
    long millis = every.toMillis();
    return executor.scheduleWithFixedDelay(
        () -> {
          try {
            Result r = runOn(sessions);
            if (r.expiredSessions() > 0 || r.trimmedEvents() > 0) {
              log.debug("Session cleanup: {}", r);
            }
          } catch (RuntimeException e) {
            log.warn("Session cleanup failed; the next run will try again: {}", e.toString());
          }
        },
        millis,
        millis,
        TimeUnit.MILLISECONDS);
  }

  @Override
  public String toString() {
    return "SessionCleanup{batchSize="
        + batchSize
        + ", maxBatches="
        + maxBatches
        + (retentionIdleFor == null
            ? ""
            : ", retainLastEvents=" + retainLastEvents + ", idleFor=" + retentionIdleFor)
        + "}";
  }

  /**
   * What a cleanup run did: expired sessions deleted, idle sessions trimmed, events deleted by
   * retention, and transactions (batches) run.
   */
  public record Result(int expiredSessions, int trimmedSessions, long trimmedEvents, int batches) {
    /** Nothing done. */
    public static final Result NONE = new Result(0, 0, 0, 0);
  }

  /** Builds a {@link SessionCleanup}; checks each setting, naming it. Not thread-safe. */
  public static final class Builder {
    private int batchSize = 500;
    private int maxBatches = 1000;
    private int retainLastEvents;
    private @Nullable Duration retentionIdleFor;

    private Builder() {}

    /** Sessions per batch, 1 to 10,000. Default 500. */
    public Builder batchSize(int batchSize) {
      if (batchSize < 1 || batchSize > 10_000) {
        throw new IllegalArgumentException("batchSize must be 1 to 10000, got " + batchSize);
      }
      this.batchSize = batchSize;
      return this;
    }

    /** Batches of each kind per run, at least 1. Default 1,000. */
    public Builder maxBatches(int maxBatches) {
      if (maxBatches < 1) {
        throw new IllegalArgumentException("maxBatches must be >= 1, got " + maxBatches);
      }
      this.maxBatches = maxBatches;
      return this;
    }

    /**
     * Retention: in sessions idle (no append) for longer than {@code idleFor}, delete every event
     * but the last {@code keep}. State stays as it is; listings and reads of the session return the
     * remaining events with their original sequence numbers.
     */
    public Builder retainLastEvents(int keep, Duration idleFor) {
      if (keep < 0) {
        throw new IllegalArgumentException("retainLastEvents must be >= 0, got " + keep);
      }
      Objects.requireNonNull(idleFor, "idleFor");
      if (idleFor.isNegative()) {
        throw new IllegalArgumentException("idleFor must not be negative, got " + idleFor);
      }
      this.retainLastEvents = keep;
      this.retentionIdleFor = idleFor;
      return this;
    }

    public SessionCleanup build() {
      return new SessionCleanup(this);
    }
  }
}
