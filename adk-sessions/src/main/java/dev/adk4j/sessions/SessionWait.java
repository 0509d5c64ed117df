package dev.adk4j.sessions;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Why an invocation is waiting for its session: another invocation holds the session's lease.
 * Reported once per wait, when the first attempt finds the session busy, to the listener given to
 * {@link BaseSessionService#acquireLease(String, String, String, Duration,
 * java.util.function.Consumer)} (the {@code Runner} passes {@code RunConfig}'s {@code
 * sessionWaitListener}; {@code adk-server} turns it into a comment line of its event stream).
 *
 * @param appName the session's app
 * @param userId the session's user
 * @param sessionId the session
 * @param holder the lease's holder as the store names it (for a database lease, {@code
 *     pid@host#start/token} of the holding process), or null when the store cannot tell
 * @param heldFor how much longer the holder's lease runs unless renewed (zero when unknown or for a
 *     lease that never expires, as in memory)
 * @param maxWait how long this invocation waits at most before failing with {@link
 *     SessionBusyException}
 */
public record SessionWait(
    String appName,
    String userId,
    String sessionId,
    @Nullable String holder,
    Duration heldFor,
    Duration maxWait) {

  public SessionWait {
    Objects.requireNonNull(appName, "appName");
    Objects.requireNonNull(userId, "userId");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(heldFor, "heldFor");
    Objects.requireNonNull(maxWait, "maxWait");
  }

  /** One line for a log or a client: who holds the session, and for how long this waits. */
  public String describe() {
    return "waiting up to "
        + maxWait.toMillis()
        + " ms for session '"
        + sessionId
        + "' of user '"
        + userId
        + "' in app '"
        + appName
        + "': "
        + (holder == null ? "another invocation" : "'" + holder + "'")
        + " runs on it"
        + (heldFor.isZero() ? "" : " (its lease runs " + heldFor.toMillis() + " ms more)");
  }
}
