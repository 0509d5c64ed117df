package dev.adk4j.sessions;

/** A session with the requested id already exists for that app and user. */
public class SessionAlreadyExistsException extends SessionException {
  private static final long serialVersionUID = 1L;

  public SessionAlreadyExistsException(String appName, String userId, String sessionId) {
    super(
        "Cannot create "
            + describe(appName, userId, sessionId)
            + ": a session with that id already exists");
  }
}
