package dev.adk4j.sessions;

import org.jspecify.annotations.Nullable;

/**
 * An event's read-modify-write of a state key lost a race: the key's stored value is no longer the
 * value the event's change was computed from, because another session, invocation or instance wrote
 * it since it was read. Nothing of the event was stored.
 *
 * <p>Keys are checked when they were read and then written through a context's state (see {@code
 * State#expectations()}), or when an event names them in {@code EventActions#expectedState()}.
 * Re-read the key and apply the change again, or, for counters, use {@code State#increment}, which
 * never conflicts.
 */
public class StateConflictException extends SessionException {
  private static final long serialVersionUID = 1L;

  private final String appName;
  private final String userId;
  private final String sessionId;
  private final String key;
  private final transient @Nullable Object expected;
  private final transient @Nullable Object actual;

  public StateConflictException(
      String appName,
      String userId,
      String sessionId,
      String key,
      @Nullable Object expected,
      @Nullable Object actual,
      @Nullable String eventId) {
    super(
        "Conflicting write of state key '"
            + key
            + "' of "
            + describe(appName, userId, sessionId)
            + ": "
            + (eventId == null ? "the event" : "event '" + eventId + "'")
            + " was computed from the value the key had when it was read, and another writer"
            + " has changed it since ("
            + (expected == null ? "it was absent" : "it was read")
            + ", it is now "
            + (actual == null ? "absent" : "different")
            + "); nothing of the event was stored. Re-read the key and retry, or use"
            + " State.increment for counters.");
    this.appName = appName;
    this.userId = userId;
    this.sessionId = sessionId;
    this.key = key;
    this.expected = expected;
    this.actual = actual;
  }

  public String appName() {
    return appName;
  }

  public String userId() {
    return userId;
  }

  public String sessionId() {
    return sessionId;
  }

  /** The state key whose stored value changed. */
  public String key() {
    return key;
  }

  /** The value the key had when it was read; {@code null} if it was absent. */
  public @Nullable Object expected() {
    return expected;
  }

  /** The value found in storage; {@code null} if the key is absent. */
  public @Nullable Object actual() {
    return actual;
  }
}
