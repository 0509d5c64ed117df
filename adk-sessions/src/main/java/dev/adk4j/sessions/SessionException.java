package dev.adk4j.sessions;

import dev.adk4j.AdkException;
import dev.adk4j.internal.Text;

/**
 * The root of the session service's exceptions. Messages name the app, user and session they are
 * about.
 */
public class SessionException extends AdkException {
  private static final long serialVersionUID = 1L;

  public SessionException(String message) {
    super(message);
  }

  public SessionException(String message, Throwable cause) {
    super(message, cause);
  }

  /** How adk4j's errors name a session: {@code session 's' of user 'u' in app 'a'}. */
  public static String describe(String appName, String userId, String sessionId) {
    return "session "
        + Text.quote(sessionId)
        + " of user "
        + Text.quote(userId)
        + " in app "
        + Text.quote(appName);
  }
}
