package dev.adk4j.sessions;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A session is leased to another invocation: either a lease could not be had within the allowed
 * wait, or an append came from outside the invocation that holds the lease (for instance from an
 * instance whose lease expired and was taken over). Nothing was changed.
 */
public class SessionBusyException extends SessionException {
  private static final long serialVersionUID = 1L;

  private final @Nullable String owner;
  private final @Nullable Instant leasedUntil;

  public SessionBusyException(
      String appName,
      String userId,
      String sessionId,
      @Nullable String owner,
      @Nullable Instant leasedUntil,
      String what) {
    super(
        "Busy "
            + describe(appName, userId, sessionId)
            + ": "
            + what
            + (owner == null ? "" : "; it is leased by '" + owner + "'")
            + (leasedUntil == null ? "" : " until " + leasedUntil));
    this.owner = owner;
    this.leasedUntil = leasedUntil;
  }

  /** The holder of the lease when this was thrown, if known. */
  public @Nullable String owner() {
    return owner;
  }

  /** When that lease expires unless renewed, if known. */
  public @Nullable Instant leasedUntil() {
    return leasedUntil;
  }
}
