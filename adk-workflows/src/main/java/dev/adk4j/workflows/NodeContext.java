package dev.adk4j.workflows;

import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.InvocationContext;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a function or classifier node reads and writes: a {@link CallbackContext} (its {@link
 * #state()} records every write in the node's completion event) plus the node's name, path and
 * attempt, and {@link #route(String)}, which chooses the outgoing edges labelled with that route
 * (ADK's {@code ctx.route}). One context per attempt; thread-safe like {@link CallbackContext}.
 */
public final class NodeContext extends CallbackContext {
  private final String nodeName;
  private final String nodePath;
  private final int attempt;
  private volatile @Nullable String route;

  NodeContext(InvocationContext invocation, String nodeName, String nodePath, int attempt) {
    super(invocation);
    this.nodeName = nodeName;
    this.nodePath = nodePath;
    this.attempt = attempt;
  }

  /** The node's name in its workflow. */
  public String nodeName() {
    return nodeName;
  }

  /**
   * The node's path from the root of the agent tree, dot-separated ({@code triage.classify}; a
   * loop's iteration adds {@code #n}: {@code main.refine#2.draft}). It is the branch of the node's
   * events.
   */
  public String nodePath() {
    return nodePath;
  }

  /** 1 for the first attempt, 2 for the first retry, and so on. */
  public int attempt() {
    return attempt;
  }

  /** Takes the outgoing edges labelled {@code route} (and the unlabelled ones) after this node. */
  public void route(String route) {
    this.route = Objects.requireNonNull(route, "route");
  }

  @Nullable String chosenRoute() {
    return route;
  }
}
