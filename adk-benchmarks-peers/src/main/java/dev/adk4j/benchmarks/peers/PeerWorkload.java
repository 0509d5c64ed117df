package dev.adk4j.benchmarks.peers;

/**
 * The turn every framework runs, as plain strings: the adapters turn them into each framework's own
 * types, so the benchmark bodies see none of them.
 *
 * <p>A turn: the user's message {@link #USER_MESSAGE}; the scripted model answers it with a call of
 * the tool {@link #TOOL} (no arguments); the tool reads the conversation's counter {@link
 * #COUNTER}, writes it back plus one and returns the new value; the model, seeing the tool's
 * result, answers {@link #FINAL_ANSWER}. The scripted models answer at once, on the calling thread,
 * and decide by the last message of the request alone: a tool result gets the final answer,
 * anything else the tool call.
 */
public final class PeerWorkload {
  private PeerWorkload() {}

  public static final String ADK4J = "adk4j";
  public static final String ADK_JAVA = "adk-java";
  public static final String LANGCHAIN4J = "langchain4j";
  public static final String SPRING_AI = "spring-ai";

  /** Where the conversation lives: in memory, or in each framework's own JDBC store. */
  public static final String MEMORY = "memory";

  public static final String SQLITE = "sqlite";
  public static final String POSTGRESQL = "postgresql";

  public static final String APP = "peer_app";
  public static final String USER = "peer_user";
  public static final String AGENT = "counter_agent";
  public static final String INSTRUCTION = "You count the user's visits with the counter tool.";
  public static final String USER_MESSAGE = "Count this visit, please.";
  public static final String TOOL = "increment_counter";
  public static final String TOOL_DESCRIPTION =
      "Adds one to this conversation's visit counter and returns the new value.";

  /** The counter's key in the conversation's state. */
  public static final String COUNTER = "visits";

  public static final String FINAL_ANSWER = "Counted: this visit is recorded.";

  /** The i-th prior message (1-based): odd ones the user's, even ones the assistant's. */
  public static String priorMessage(int i) {
    return i % 2 == 1 ? "earlier question " + i : "earlier answer " + i;
  }

  /** Value of the counter held as a number of any type, 0 when absent. */
  public static long counterValue(Object value) {
    if (value == null) {
      return 0;
    }
    if (value instanceof Number) {
      return ((Number) value).longValue();
    }
    return Long.parseLong(value.toString());
  }
}
