package dev.adk4j.benchmarks.peers;

/**
 * The setups the benchmarks take as their {@code setup} parameter: a framework, and after a slash
 * the store of its conversations when it is not memory ({@code adk4j/sqlite}).
 */
public final class PeerSetups {
  private PeerSetups() {}

  static final String[] IN_MEMORY = {
    PeerWorkload.ADK4J, PeerWorkload.ADK_JAVA, PeerWorkload.LANGCHAIN4J, PeerWorkload.SPRING_AI
  };

  static PeerTurns create(String setup) {
    int slash = setup.indexOf('/');
    String impl = slash < 0 ? setup : setup.substring(0, slash);
    String store = slash < 0 ? PeerWorkload.MEMORY : setup.substring(slash + 1);
    return PeerTurns.create(impl, store);
  }

  /** True when the setup keeps its conversations in a database. */
  static boolean persistent(String setup) {
    return setup.indexOf('/') >= 0;
  }
}
