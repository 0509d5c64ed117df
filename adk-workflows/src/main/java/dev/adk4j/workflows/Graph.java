package dev.adk4j.workflows;

import dev.adk4j.agents.BaseAgent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checked structure of a workflow: nodes by name, edges in order, each node's incoming and
 * outgoing edges, and which nodes come after which (to tell fan-out branches apart).
 */
final class Graph {
  private final String workflow;
  private final Map<String, Node> nodes;
  private final List<Edge> edges;
  private final Map<String, List<Edge>> out = new HashMap<>();
  private final Map<String, List<Edge>> in = new HashMap<>();

  /** For each node, the nodes reachable from it (not itself). */
  private final Map<String, Set<String>> after = new HashMap<>();

  private Graph(String workflow, Map<String, Node> nodes, List<Edge> edges) {
    this.workflow = workflow;
    this.nodes = nodes;
    this.edges = edges;
    for (Edge e : edges) {
      out.computeIfAbsent(e.from(), k -> new ArrayList<>()).add(e);
      in.computeIfAbsent(e.to(), k -> new ArrayList<>()).add(e);
    }
  }

  static Graph of(
      String workflow,
      Map<String, Node> nodeMap,
      List<Edge> edgeList,
      List<BaseAgent> givenSubAgents) {
    if (!givenSubAgents.isEmpty()) {
      throw new IllegalArgumentException(
          "Workflow '"
              + workflow
              + "' takes its agents as nodes (Node.agent(...)), not as sub-agents");
    }
    Workflow.checkNames(workflow, nodeMap);
    Graph g = new Graph(workflow, new LinkedHashMap<>(nodeMap), List.copyOf(edgeList));
    g.check();
    return g;
  }

  private void check() {
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("Workflow '" + workflow + "' has no nodes");
    }
    for (Edge e : edges) {
      if (!e.from().equals(Workflow.START) && !nodes.containsKey(e.from())) {
        throw new IllegalArgumentException(
            "Workflow '"
                + workflow
                + "' has an edge from unknown node '"
                + e.from()
                + "' to '"
                + e.to()
                + "'; its nodes are "
                + nodes.keySet());
      }
      if (!nodes.containsKey(e.to())) {
        throw new IllegalArgumentException(
            "Workflow '"
                + workflow
                + "' has an edge from '"
                + e.from()
                + "' to unknown node '"
                + e.to()
                + "'; its nodes are "
                + nodes.keySet());
      }
    }
    Set<String> seenEdges = new HashSet<>();
    for (Edge e : edges) {
      if (!seenEdges.add(e.from() + "\u0000" + e.to())) {
        throw new IllegalArgumentException(
            "Workflow '"
                + workflow
                + "' has two edges from '"
                + e.from()
                + "' to '"
                + e.to()
                + "'; give one edge (a condition may combine both)");
      }
    }
    checkAcyclic();
    Set<String> reachable = reachableFrom(Workflow.START);
    for (Node n : nodes.values()) {
      if (n.kind() == Node.Kind.JOIN) {
        List<Edge> into = incoming(n.name());
        if (into.size() < 2) {
          throw new IllegalArgumentException(
              "Join node '"
                  + n.name()
                  + "' of workflow '"
                  + workflow
                  + "' has "
                  + into.size()
                  + " edge(s) into it; a join gathers two or more nodes");
        }
        List<String> from = into.stream().map(Edge::from).toList();
        if (from.stream().noneMatch(f -> f.equals(Workflow.START) || reachable.contains(f))) {
          throw new IllegalArgumentException(
              "Join node '"
                  + n.name()
                  + "' of workflow '"
                  + workflow
                  + "' can never run: none of the nodes before it "
                  + from
                  + " can be reached from "
                  + Workflow.START);
        }
      }
    }
    for (String name : nodes.keySet()) {
      if (!reachable.contains(name)) {
        throw new IllegalArgumentException(
            "Node '"
                + name
                + "' of workflow '"
                + workflow
                + "' cannot be reached from "
                + Workflow.START
                + (incoming(name).isEmpty()
                    ? ": no edge leads to it"
                    : ": the nodes before it "
                        + incoming(name).stream().map(Edge::from).toList()
                        + " cannot be reached either"));
      }
    }
    for (Edge e : edges) {
      Node to = node(e.to());
      if (to.kind() != Node.Kind.FUNCTION) {
        continue;
      }
      Class<?> produced = e.from().equals(Workflow.START) ? String.class : outputOf(e.from());
      if (!to.inputType().isAssignableFrom(produced)
          && !(Number.class.isAssignableFrom(to.inputType())
              && Number.class.isAssignableFrom(produced))) {
        throw new IllegalArgumentException(
            "Node '"
                + e.to()
                + "' of workflow '"
                + workflow
                + "' takes "
                + to.inputType().getName()
                + " but node '"
                + e.from()
                + "' before it outputs "
                + produced.getName());
      }
    }
    for (String name : nodes.keySet()) {
      after.put(name, reachableFrom(name));
    }
  }

  private Class<?> outputOf(String node) {
    return node(node).outputType();
  }

  private void checkAcyclic() {
    Map<String, Integer> color = new HashMap<>();
    for (String start : nodes.keySet()) {
      Deque<String> path = new ArrayDeque<>();
      visit(start, color, path);
    }
  }

  private void visit(String node, Map<String, Integer> color, Deque<String> path) {
    Integer c = color.get(node);
    if (c != null && c == 2) {
      return;
    }
    path.addLast(node);
    if (c != null && c == 1) {
      List<String> cycle = new ArrayList<>(path);
      cycle = cycle.subList(cycle.indexOf(node), cycle.size());
      throw new IllegalArgumentException(
          "Workflow '"
              + workflow
              + "' has a cycle "
              + String.join(" -> ", cycle)
              + "; repeat a sub-graph with a loop node (Node.loop) instead");
    }
    color.put(node, 1);
    for (Edge e : outgoing(node)) {
      visit(e.to(), color, path);
    }
    color.put(node, 2);
    path.removeLast();
  }

  private Set<String> reachableFrom(String start) {
    Set<String> seen = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>();
    todo.add(start);
    while (!todo.isEmpty()) {
      for (Edge e : outgoing(todo.poll())) {
        if (seen.add(e.to())) {
          todo.add(e.to());
        }
      }
    }
    return seen;
  }

  String workflow() {
    return workflow;
  }

  Map<String, Node> nodes() {
    return nodes;
  }

  /** The node named {@code name}, which exists. */
  Node node(String name) {
    return java.util.Objects.requireNonNull(nodes.get(name), name);
  }

  List<Edge> edges() {
    return edges;
  }

  List<Edge> outgoing(String node) {
    return out.getOrDefault(node, List.of());
  }

  List<Edge> incoming(String node) {
    return in.getOrDefault(node, List.of());
  }

  /** Whether one of the two nodes comes after the other (else they may run concurrently). */
  boolean ordered(String a, String b) {
    return after.getOrDefault(a, Set.of()).contains(b)
        || after.getOrDefault(b, Set.of()).contains(a);
  }

  /** The agents of the nodes (agent nodes, model classifiers, loop bodies): the sub-agents. */
  List<BaseAgent> agents() {
    List<BaseAgent> agents = new ArrayList<>();
    for (Node n : nodes.values()) {
      if (n.agentOrNull() != null) {
        agents.add(n.agentOrNull());
      }
    }
    return agents;
  }
}
