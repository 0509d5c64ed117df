package dev.adk4j.sessions;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One change of a state key, as a stored event made it (adk4j): the value the event's delta gave
 * the key ({@code null}: the key was removed), which event, who and which invocation, and when.
 * {@link BaseSessionService#stateHistory} returns them oldest first.
 *
 * @param key the state key, its prefix included
 * @param value the value the key got, as stored (its JSON round trip; a copy the caller may
 *     change); {@code null} if the event removed the key
 * @param userId the user whose session stored the event: for an {@code app:} key, possibly another
 *     user than the one asking
 * @param sessionId the session that stored the event
 * @param eventId the event's id
 * @param author the event's author, or null if it has none
 * @param invocationId the event's invocation, or null if it has none
 * @param timestamp the event's time
 */
public record StateChange(
    String key,
    @Nullable Object value,
    String userId,
    String sessionId,
    String eventId,
    @Nullable String author,
    @Nullable String invocationId,
    Instant timestamp) {

  public StateChange {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(userId, "userId");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(timestamp, "timestamp");
  }

  /** Whether this change removed the key. */
  public boolean removed() {
    return value == null;
  }
}
