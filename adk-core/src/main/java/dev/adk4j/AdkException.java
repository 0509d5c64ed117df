package dev.adk4j;

import org.jspecify.annotations.Nullable;

/**
 * The root of every exception adk4j defines, so that an application can tell adk4j's failures from
 * its own with one {@code catch}. Unchecked, like the rest of the API: failures of asynchronous
 * operations arrive as the error of the returned {@code Single}, {@code Maybe} or {@code Flowable}.
 *
 * <p>The families below it each name what they are about:
 *
 * <ul>
 *   <li>{@code dev.adk4j.sessions.SessionException}: a session service refused or failed an
 *       operation (unknown or duplicate session, stale writer, conflict, busy); the message names
 *       the app, user and session.
 *   <li>{@code dev.adk4j.models.LlmException}: a model call failed (HTTP error or no answer).
 *   <li>{@code dev.adk4j.agents.LlmCallsLimitExceededException}: an invocation reached its {@code
 *       maxLlmCalls}.
 * </ul>
 *
 * <p>Invalid arguments (a blank id, a state key or value that is not allowed) are reported with the
 * JDK's {@link IllegalArgumentException}, as Java APIs do; a value that cannot be stored never
 * reaches a session service.
 */
public class AdkException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public AdkException(String message) {
    super(message);
  }

  public AdkException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
