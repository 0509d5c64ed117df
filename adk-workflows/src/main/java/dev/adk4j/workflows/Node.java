package dev.adk4j.workflows;

import dev.adk4j.agents.BaseAgent;
import dev.adk4j.state.ReadonlyState;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A node of a {@link Workflow} (ADK's nodes): immutable; {@link #withRetry} derives a copy.
 *
 * <ul>
 *   <li>{@link #agent}: runs an agent (an {@code LlmAgent}, a sequential agent, another {@link
 *       Workflow}...) on the node's branch; its output is the text of its last final response.
 *   <li>{@link #function}: a typed Java function; input and output types are checked along the
 *       edges when the workflow is built.
 *   <li>{@link #classifier(String, NodeFunction)} / {@link #classifier(BaseAgent)}: a function or a
 *       model decides the route; its output is the route, and edges labelled with it are taken.
 *   <li>{@link #join}: waits for every node before it to finish or be skipped; its output is a map
 *       of their outputs by node name.
 *   <li>{@link #loop}: runs a body workflow again and again, at most {@code maxIterations} times,
 *       until a condition on state holds after an iteration.
 * </ul>
 */
public final class Node {

  /** What a node is. */
  enum Kind {
    AGENT,
    FUNCTION,
    CLASSIFIER,
    JOIN,
    LOOP
  }

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");

  private final String name;
  private final Kind kind;
  private final @Nullable BaseAgent agent;
  private final @Nullable NodeFunction<Object, ?> function;
  private final Class<?> inputType;
  private final Class<?> outputType;
  private final int maxIterations;
  private final @Nullable Predicate<ReadonlyState> until;
  private final RetryConfig retry;
  private final java.time.@Nullable Duration timeout;

  private Node(
      String name,
      Kind kind,
      @Nullable BaseAgent agent,
      @Nullable NodeFunction<Object, ?> function,
      Class<?> inputType,
      Class<?> outputType,
      int maxIterations,
      @Nullable Predicate<ReadonlyState> until,
      RetryConfig retry) {
    this(name, kind, agent, function, inputType, outputType, maxIterations, until, retry, null);
  }

  private Node(
      String name,
      Kind kind,
      @Nullable BaseAgent agent,
      @Nullable NodeFunction<Object, ?> function,
      Class<?> inputType,
      Class<?> outputType,
      int maxIterations,
      @Nullable Predicate<ReadonlyState> until,
      RetryConfig retry,
      java.time.@Nullable Duration timeout) {
    Objects.requireNonNull(name, "name");
    if (agent == null && !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "Node name '" + name + "' is not an identifier ([A-Za-z_][A-Za-z0-9_-]*)");
    }
    if (name.equals(Workflow.START)) {
      throw new IllegalArgumentException("Node name '" + Workflow.START + "' is reserved");
    }
    this.name = name;
    this.kind = kind;
    this.agent = agent;
    this.function = function;
    this.inputType = box(inputType);
    this.outputType = box(outputType);
    this.maxIterations = maxIterations;
    this.until = until;
    this.retry = Objects.requireNonNull(retry, "retry");
    this.timeout = timeout;
  }

  /** A node that runs {@code agent}; named like the agent. Its output is its final text. */
  public static Node agent(BaseAgent agent) {
    Objects.requireNonNull(agent, "agent");
    return new Node(
        agent.name(),
        Kind.AGENT,
        agent,
        null,
        Object.class,
        String.class,
        0,
        null,
        RetryConfig.NONE);
  }

  /**
   * A node that applies {@code function} to its input.
   *
   * @param inputType what the function takes: the output of the node before it is converted to this
   *     type (through its JSON form, as stored), and the build checks that it can be
   * @param outputType what it returns; its value must be storable as state is (JSON data)
   */
  @SuppressWarnings("unchecked")
  public static <I, O> Node function(
      String name,
      Class<I> inputType,
      Class<O> outputType,
      NodeFunction<? super I, ? extends O> function) {
    Objects.requireNonNull(function, "function");
    return new Node(
        name,
        Kind.FUNCTION,
        null,
        (NodeFunction<Object, ?>) (NodeFunction<?, ?>) function,
        Objects.requireNonNull(inputType, "inputType"),
        Objects.requireNonNull(outputType, "outputType"),
        0,
        null,
        RetryConfig.NONE);
  }

  /**
   * A classifier: {@code decide} returns the route (null: none), which selects the outgoing edges
   * labelled with it; the route is also the node's output.
   */
  @SuppressWarnings("unchecked")
  public static Node classifier(String name, NodeFunction<Object, String> decide) {
    Objects.requireNonNull(decide, "decide");
    return new Node(
        name,
        Kind.CLASSIFIER,
        null,
        (NodeFunction<Object, ?>) (NodeFunction<?, ?>) decide,
        Object.class,
        String.class,
        0,
        null,
        RetryConfig.NONE);
  }

  /**
   * A classifier whose agent (typically an {@code LlmAgent} told to answer with one label) decides:
   * the trimmed text of its final response is the route.
   */
  public static Node classifier(BaseAgent model) {
    Objects.requireNonNull(model, "model");
    return new Node(
        model.name(),
        Kind.CLASSIFIER,
        model,
        null,
        Object.class,
        String.class,
        0,
        null,
        RetryConfig.NONE);
  }

  /**
   * A join: runs once every node before it has finished or been skipped, if at least one of the
   * edges into it was taken; its input and output are the outputs of those nodes by name.
   */
  public static Node join(String name) {
    return new Node(name, Kind.JOIN, null, null, Map.class, Map.class, 0, null, RetryConfig.NONE);
  }

  /**
   * A bounded loop over a sub-graph: runs {@code body}'s graph (inline, on this node's path with
   * the iteration, {@code loop#1}, {@code loop#2}...) until {@code until} holds on state after an
   * iteration or {@code maxIterations} iterations have run. Its output is the output of the last
   * iteration (the body's last finished node).
   */
  public static Node loop(
      String name, Workflow body, int maxIterations, Predicate<ReadonlyState> until) {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(until, "until");
    if (maxIterations < 1) {
      throw new IllegalArgumentException(
          "Loop node '" + name + "' needs maxIterations >= 1, got " + maxIterations);
    }
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "Node name '" + name + "' is not an identifier ([A-Za-z_][A-Za-z0-9_-]*)");
    }
    return new Node(
        name,
        Kind.LOOP,
        body,
        null,
        Object.class,
        Object.class,
        maxIterations,
        until,
        RetryConfig.NONE);
  }

  /** This node with {@code retry} as its retry policy (none by default). */
  public Node withRetry(RetryConfig retry) {
    return new Node(
        name, kind, agent, function, inputType, outputType, maxIterations, until, retry, timeout);
  }

  /**
   * This node with a deadline per attempt (ADK's node {@code timeout}; none by default): an attempt
   * still running {@code timeout} after it started is cancelled (its thread interrupted, an agent's
   * run stopped; what it would still write is not stored) and fails with a {@link
   * java.util.concurrent.TimeoutException} naming the node, which the node's {@link RetryConfig}
   * retries or not as any error. Time is measured by the workflow's {@linkplain
   * Workflow.Builder#scheduler scheduler}.
   *
   * @throws IllegalArgumentException if {@code timeout} is not positive, or this is a join, a loop
   *     or a nested workflow (give their nodes timeouts)
   */
  public Node withTimeout(java.time.Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(
          "Node '" + name + "' needs a positive timeout, got " + timeout);
    }
    if (kind == Kind.JOIN || kind == Kind.LOOP || agent instanceof Workflow) {
      throw new IllegalArgumentException(
          "Node '"
              + name
              + "' is a "
              + (agent instanceof Workflow ? "nested workflow" : type())
              + ": timeouts apply to function, classifier and agent nodes; give its nodes one");
    }
    return new Node(
        name, kind, agent, function, inputType, outputType, maxIterations, until, retry, timeout);
  }

  /** The deadline of each attempt, if any (see {@link #withTimeout}). */
  public java.util.Optional<java.time.Duration> timeout() {
    return java.util.Optional.ofNullable(timeout);
  }

  public String name() {
    return name;
  }

  /** The agent of an agent node or model classifier, the body of a loop; else empty. */
  public java.util.Optional<BaseAgent> agent() {
    return java.util.Optional.ofNullable(agent);
  }

  /** {@code agent}, {@code function}, {@code classifier}, {@code join} or {@code loop}. */
  public String type() {
    return kind.name().toLowerCase(java.util.Locale.ROOT);
  }

  public RetryConfig retry() {
    return retry;
  }

  /** The same node: this one, or a node of the same kind over the same agent. */
  boolean sameAs(Node other) {
    return other == this || (agent != null && other.agent == agent && other.kind == kind);
  }

  Kind kind() {
    return kind;
  }

  @Nullable BaseAgent agentOrNull() {
    return agent;
  }

  @Nullable NodeFunction<Object, ?> function() {
    return function;
  }

  Class<?> inputType() {
    return inputType;
  }

  Class<?> outputType() {
    return outputType;
  }

  int maxIterations() {
    return maxIterations;
  }

  @Nullable Predicate<ReadonlyState> until() {
    return until;
  }

  @Override
  public String toString() {
    return type() + " node '" + name + "'";
  }

  private static Class<?> box(Class<?> type) {
    if (!type.isPrimitive()) {
      return type;
    }
    if (type == int.class) {
      return Integer.class;
    }
    if (type == long.class) {
      return Long.class;
    }
    if (type == double.class) {
      return Double.class;
    }
    if (type == boolean.class) {
      return Boolean.class;
    }
    if (type == float.class) {
      return Float.class;
    }
    if (type == short.class) {
      return Short.class;
    }
    if (type == byte.class) {
      return Byte.class;
    }
    if (type == char.class) {
      return Character.class;
    }
    return Void.class;
  }
}
