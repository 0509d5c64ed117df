package dev.adk4j.workflows;

import dev.adk4j.sessions.SessionException;
import dev.adk4j.sessions.StateConflictException;

/**
 * Two nodes of a workflow that may run at the same time (neither comes after the other in the
 * graph: branches of a fan-out) wrote the same state key. A workflow never lets the later writer
 * win silently: the run fails with this exception, naming both nodes and the key, and the second
 * node's writes are not stored. Counters written with {@code State.increment} never conflict.
 */
public class NodeStateConflictException extends StateConflictException {
  private static final long serialVersionUID = 1L;

  private final String firstNode;
  private final String secondNode;

  NodeStateConflictException(
      String appName,
      String userId,
      String sessionId,
      String key,
      String firstNode,
      String secondNode) {
    super(appName, userId, sessionId, key, null, null, null);
    this.firstNode = firstNode;
    this.secondNode = secondNode;
  }

  /** The path of the node whose write was stored first. */
  public String firstNode() {
    return firstNode;
  }

  /** The path of the node whose write was refused. */
  public String secondNode() {
    return secondNode;
  }

  @Override
  public String getMessage() {
    return "Nodes '"
        + firstNode
        + "' and '"
        + secondNode
        + "' of "
        + SessionException.describe(appName(), userId(), sessionId())
        + " both wrote state key '"
        + key()
        + "' but may run concurrently (neither comes after the other in the graph); the writes"
        + " of '"
        + secondNode
        + "' were not stored. Write distinct keys in parallel branches, use State.increment"
        + " for counters, or order the nodes with an edge.";
  }
}
