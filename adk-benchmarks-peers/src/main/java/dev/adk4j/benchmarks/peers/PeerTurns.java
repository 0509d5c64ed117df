package dev.adk4j.benchmarks.peers;

/**
 * One framework set up for {@link PeerWorkload}'s turn: an agent (or AI service, or chat client)
 * with the counter tool, its chat memory or session store, and a scripted model in the framework's
 * own model interface. One instance serves every conversation of a trial, as one application would.
 */
public interface PeerTurns extends AutoCloseable {

  static PeerTurns create(String impl, String store) {
    switch (impl) {
      case PeerWorkload.ADK4J:
        return new Adk4jPeer(store);
      case PeerWorkload.ADK_JAVA:
        requireMemory(impl, store);
        return new AdkJavaPeer();
      case PeerWorkload.LANGCHAIN4J:
        requireMemory(impl, store);
        return new LangChain4jPeer();
      case PeerWorkload.SPRING_AI:
        return new SpringAiPeer(store);
      default:
        throw new IllegalArgumentException("unknown framework " + impl);
    }
  }

  private static void requireMemory(String impl, String store) {
    if (!PeerWorkload.MEMORY.equals(store)) {
      throw new IllegalArgumentException(impl + " has no " + store + " store in this benchmark");
    }
  }

  /** Starts a conversation: a session, or nothing where memory is created on first use. */
  void begin(String conversationId);

  /** Adds {@code messages} prior text messages (see {@link PeerWorkload#priorMessage}). */
  void fill(String conversationId, int messages);

  /** One turn, run to completion on the calling thread; returns the final answer's text. */
  String turn(String conversationId);

  /** The counter in the conversation's state (0 when absent). */
  long counter(String conversationId);

  /** Messages (events) the framework keeps for the conversation. */
  int messages(String conversationId);

  /** Messages a turn adds to {@link #messages} after the conversation's first turn. */
  int messagesPerTurn();

  /** Messages the conversation's first turn adds beyond {@link #messagesPerTurn} (0 by default). */
  default int firstTurnExtra() {
    return 0;
  }

  void end(String conversationId);

  /** Requests the scripted model has answered. */
  long modelCalls();

  @Override
  void close();
}
