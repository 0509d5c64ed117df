package dev.adk4j.sessions;

/**
 * An event was appended through a {@link Session} copy that is older than storage: another append
 * happened since the copy was loaded. Nothing was changed; reload the session with {@code
 * getSession} and apply the change again.
 */
public class StaleSessionException extends SessionException {
  private static final long serialVersionUID = 1L;

  private final long copyRevision;
  private final long storedRevision;

  public StaleSessionException(
      String appName, String userId, String sessionId, long copyRevision, long storedRevision) {
    super(
        "Stale "
            + describe(appName, userId, sessionId)
            + ": the copy is at revision "
            + copyRevision
            + " but storage is at revision "
            + storedRevision
            + "; nothing was appended. Reload the session and retry.");
    this.copyRevision = copyRevision;
    this.storedRevision = storedRevision;
  }

  /** The revision of the session copy that was appended through. */
  public long copyRevision() {
    return copyRevision;
  }

  /** The revision in storage when the append was refused. */
  public long storedRevision() {
    return storedRevision;
  }
}
