package dev.adk4j.agents;

/** An invocation reached {@link RunConfig#maxLlmCalls()}. */
public class LlmCallsLimitExceededException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LlmCallsLimitExceededException(String message) {
    super(message);
  }
}
