package dev.adk4j.benchmarks.compare;

import org.jspecify.annotations.Nullable;

/**
 * Runner turns on one implementation: an in-memory session service, a {@code Runner} over one
 * {@code LlmAgent} (instruction {@link Workload#INSTRUCTION}, the tool {@link Workload#TOOL} as a
 * {@code FunctionTool}, output key {@link Workload#OUTPUT_KEY}) and a scripted model with no
 * latency. A turn: the user's message, the model's function call, the tool (which writes {@link
 * Workload#TOOL_STATE_KEY} into session state through its tool context), the function response, the
 * model's final answer (stored under the output key): {@value Workload#EVENTS_PER_TURN} events
 * stored, three emitted. One instance is one fresh service and runner.
 */
public interface TurnOps {

  static TurnOps create(String impl) {
    switch (impl) {
      case Workload.ADK4J:
        return new Adk4jTurns();
      case Workload.ADK_JAVA:
        return new AdkJavaTurns();
      default:
        throw new IllegalArgumentException("unknown implementation " + impl);
    }
  }

  void createSession(String sessionId);

  void deleteSession(String sessionId);

  /**
   * Appends {@code events} history events through the session service: alternately a user's
   * question and the agent's answer (text only), one invocation per pair.
   */
  void fillHistory(String sessionId, int events);

  /**
   * One turn: {@code runAsync(user, sessionId, message)} consumed to completion on the calling
   * thread; fails if the run fails.
   *
   * @return how many events the run emitted
   */
  int turn(String sessionId);

  /** Returns once nothing of an earlier turn on the session is still running. */
  void settle(String sessionId);

  int eventCount(String sessionId);

  @Nullable Object stateValue(String sessionId, String key);

  /** Requests the scripted model has answered. */
  long modelCalls();
}
