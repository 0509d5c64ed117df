package dev.adk4j.sessions;

/** The session does not exist (it was never created, or it was deleted). */
public class SessionNotFoundException extends SessionException {
  private static final long serialVersionUID = 1L;

  public SessionNotFoundException(String appName, String userId, String sessionId) {
    super("No " + describe(appName, userId, sessionId));
  }
}
