package dev.adk4j.workflows;

import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.Callbacks;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.events.Event;
import dev.adk4j.internal.tools.ResumesThroughChildren;
import dev.adk4j.state.ReadonlyState;
import io.reactivex.rxjava3.core.BackpressureStrategy;
import io.reactivex.rxjava3.core.Flowable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A graph workflow (ADK 2.0's {@code Workflow}): an agent whose {@link Node}s run along {@link
 * Edge}s from {@link #START}. A node runs once every node before it has finished or been skipped
 * and at least one edge into it was taken; nodes that are ready together run concurrently (a
 * fan-out), and a {@link Node#join join} gathers them. Runs like any agent under a {@code Runner},
 * alone or inside other agents.
 *
 * <p><b>Build-time checks</b> ({@link Builder#build()}): edges from or to unknown nodes, nodes that
 * cannot be reached from {@link #START}, joins none of whose predecessors can be reached (or with
 * fewer than two edges into them), cycles (loops are {@link Node#loop} nodes), and a function node
 * whose input type cannot take the output type of a node before it: each an {@link
 * IllegalArgumentException} naming the nodes.
 *
 * <p><b>Events and state.</b> Every node's events are on its branch, the node's path ({@code
 * workflow.node}). Each node's completion is one stored event authored by the workflow, on the
 * node's branch, whose {@code stateDelta} holds the node's writes (function nodes and classifiers)
 * and its record under {@code adk_workflow:<path>} (status, route, output, the edges taken), in one
 * append: a node's state writes and its completion are stored together or not at all. The records
 * of a run are removed from state by the event that ends the run, which leaves {@code
 * adk_workflow:<workflow>} (the run's id and status).
 *
 * <p><b>Durable progress.</b> What is done, waiting or still to run is derived from the session's
 * stored events, never kept in memory. A run of this workflow on a session whose last run of it did
 * not end (the process died, the lease was lost, a node paused for a person) continues that run:
 * finished nodes are not run again, the others run (a node that was running when the process died
 * runs again: at least once for its external effects, exactly once for its state writes; an agent
 * node's writes of an unfinished attempt, stored as it went, are undone first). See {@code
 * docs/workflows.md}.
 *
 * <p>Immutable; thread-safe; one instance may serve many invocations at once.
 */
public final class Workflow extends BaseAgent implements ResumesThroughChildren {

  /** The entry point of every workflow: edges from it start the run (ADK's {@code START}). */
  public static final String START = "START";

  /** The state key prefix of a workflow's records: {@code adk_workflow:<path>}. */
  public static final String RECORD_PREFIX = "adk_workflow:";

  private final Graph graph;
  private final ScheduledExecutorService scheduler;

  private Workflow(
      String name,
      @Nullable String description,
      List<Callbacks.BeforeAgentCallback> before,
      List<Callbacks.AfterAgentCallback> after,
      Graph graph,
      ScheduledExecutorService scheduler) {
    super(name, description, graph.agents(), before, after);
    this.graph = graph;
    this.scheduler = scheduler;
  }

  /** Daemon timer thread shared by workflows built without a scheduler. */
  private static final class SharedScheduler {
    static final ScheduledExecutorService INSTANCE = newScheduler();

    private static ScheduledExecutorService newScheduler() {
      java.util.concurrent.ScheduledThreadPoolExecutor s =
          new java.util.concurrent.ScheduledThreadPoolExecutor(
              1,
              r -> {
                Thread t = new Thread(r, "adk4j-workflow-timer");
                t.setDaemon(true);
                return t;
              });
      s.setRemoveOnCancelPolicy(true);
      return s;
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The nodes, in the order they were added. */
  public List<Node> nodes() {
    return List.copyOf(graph.nodes().values());
  }

  /** The edges, in the order they were added. */
  public List<Edge> edges() {
    return graph.edges();
  }

  Graph graph() {
    return graph;
  }

  /** What measures retry backoffs and node timeouts. */
  ScheduledExecutorService scheduler() {
    return scheduler;
  }

  @Override
  protected Flowable<Event> runAsyncImpl(InvocationContext context) {
    return Flowable.create(
        emitter -> {
          new Engine(this, context, emitter.serialize()).run();
          emitter.onComplete();
        },
        BackpressureStrategy.BUFFER);
  }

  /** Builds a {@link Workflow}. Not thread-safe. */
  public static final class Builder extends BaseAgent.Builder<Builder> {
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final List<Edge> edges = new ArrayList<>();
    private @Nullable ScheduledExecutorService scheduler;

    private Builder() {}

    /**
     * The scheduler that measures the waits between a node's retries and its timeouts (default: a
     * daemon timer thread shared by all workflows). Tests give one whose clock they advance, so
     * that backoffs and timeouts pass without waiting; the workflow never shuts it down.
     */
    public Builder scheduler(ScheduledExecutorService scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /** Adds nodes; adding a node again (or another agent node of the same agent) is a no-op. */
    public Builder nodes(Node... nodes) {
      for (Node n : nodes) {
        node(n);
      }
      return this;
    }

    /**
     * Adds a node.
     *
     * @throws IllegalArgumentException if another node has the same name
     */
    public Builder node(Node node) {
      Objects.requireNonNull(node, "node");
      Node old = nodes.putIfAbsent(node.name(), node);
      if (old != null && !old.sameAs(node)) {
        throw new IllegalArgumentException(
            "Workflow '" + name + "' has two nodes named '" + node.name() + "'");
      }
      return this;
    }

    /** An edge from {@code from} (a node name or {@link #START}) to {@code to}, always taken. */
    public Builder edge(String from, String to) {
      edges.add(new Edge(from, to, null, null));
      return this;
    }

    /** An edge taken when {@code from} chose {@code route}. */
    public Builder edge(String from, String to, String route) {
      edges.add(new Edge(from, to, Objects.requireNonNull(route, "route"), null));
      return this;
    }

    /** An edge taken when {@code condition} holds on state as {@code from} finishes. */
    public Builder edgeIf(String from, String to, Predicate<ReadonlyState> condition) {
      edges.add(new Edge(from, to, null, Objects.requireNonNull(condition, "condition")));
      return this;
    }

    /** Adds both nodes (if not yet added) and an edge between them, always taken. */
    public Builder edge(Node from, Node to) {
      node(from).node(to);
      return edge(from.name(), to.name());
    }

    /** An edge from {@link #START} to {@code to} (added if not yet). */
    public Builder start(Node to) {
      node(to);
      return edge(START, to.name());
    }

    /**
     * Checks the graph and builds the workflow.
     *
     * @throws IllegalArgumentException naming the nodes of the first problem found (see the class
     *     documentation)
     */
    @Override
    public Workflow build() {
      String wf = requireName();
      Graph graph = Graph.of(wf, nodes, edges, subAgents);
      return new Workflow(
          wf,
          description,
          beforeAgentCallbacks,
          afterAgentCallbacks,
          graph,
          scheduler == null ? SharedScheduler.INSTANCE : scheduler);
    }
  }

  /** Nodes named like the workflow would make paths ambiguous. */
  static void checkNames(String workflow, Map<String, Node> nodes) {
    if (nodes.containsKey(workflow)) {
      throw new IllegalArgumentException(
          "Workflow '" + workflow + "' has a node with its own name; rename one of them");
    }
  }
}
