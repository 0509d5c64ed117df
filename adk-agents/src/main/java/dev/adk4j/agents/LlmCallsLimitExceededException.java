package dev.adk4j.agents;

import dev.adk4j.AdkException;

/** An invocation reached {@link RunConfig#maxLlmCalls()}. */
public class LlmCallsLimitExceededException extends AdkException {
  private static final long serialVersionUID = 1L;

  public LlmCallsLimitExceededException(String message) {
    super(message);
  }
}
