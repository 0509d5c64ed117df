package dev.adk4j.a2a;

import dev.adk4j.AdkException;
import org.jspecify.annotations.Nullable;

/**
 * A remote A2A agent could not be reached, did not answer in time, answered with an error or with
 * something that is not a valid A2A message, or its task ended failed, rejected or canceled. The
 * message names the agent and the URL, and the remote task where there is one; never the content of
 * the conversation.
 *
 * <p>Thrown by {@link RemoteA2aAgent.Builder#build()} when the agent card cannot be read, and as
 * the error of an invocation whose remote call failed (the invocation ends; what was stored before
 * stays a valid history).
 */
public class A2aException extends AdkException {
  private static final long serialVersionUID = 1L;

  public A2aException(String message) {
    super(message);
  }

  public A2aException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
