package dev.adk4j.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.workflows.Edge;
import dev.adk4j.workflows.Node;
import dev.adk4j.workflows.Workflow;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An app's agent tree for the dev UI: as Graphviz DOT source (agents as ellipses, tools as boxes, a
 * {@link Workflow}'s nodes and edges, the agent, tools and workflow node of one event highlighted)
 * and as the nested description the UI's app view reads.
 */
final class AgentGraph {
  private AgentGraph() {}

  private static final String HIGHLIGHT = "#0F5223";

  static String dot(BaseAgent root, @Nullable Event event) {
    Set<String> lit = new HashSet<>();
    if (event != null) {
      if (event.author() != null) {
        lit.add(event.author());
      }
      // A workflow's own events name their node (nodeInfo, ADK 2.0's node_info: workflow/node);
      // an agent node's events are on its branch, the node's path (workflow.node...): each node
      // along the path is lit.
      event
          .nodeInfo()
          .map(n -> n.path().replace('/', '.'))
          .or(event::branch)
          .ifPresent(
              b -> {
                String path = "";
                for (String part : b.split("\\.")) {
                  part = part.replaceFirst("@\\d+$", ""); // a re-run's branch: node@2

                  path = path.isEmpty() ? part : path + "." + part;
                  lit.add("branch:" + path);
                }
              });
      for (FunctionCall c : event.functionCalls()) {
        c.name().ifPresent(lit::add);
      }
      for (FunctionResponse r : event.functionResponses()) {
        r.name().ifPresent(lit::add);
      }
    }
    StringBuilder dot = new StringBuilder("digraph G {\n");
    dot.append("  rankdir=LR;\n  bgcolor=\"transparent\";\n");
    dot.append("  node [fontname=\"Helvetica\", color=\"#cccccc\", fontcolor=\"#cccccc\"];\n");
    dot.append("  edge [color=\"#cccccc\"];\n");
    agent(dot, root, lit, new HashSet<>());
    dot.append("}\n");
    return dot.toString();
  }

  private static void agent(StringBuilder dot, BaseAgent a, Set<String> lit, Set<String> seen) {
    if (!seen.add("agent:" + a.name())) {
      return;
    }
    node(dot, a.name(), "ellipse", lit.contains(a.name()));
    if (a instanceof Workflow wf) {
      workflow(dot, wf, lit, seen);
      return;
    }
    if (a instanceof LlmAgent llm) {
      for (BaseTool t : llm.tools()) {
        node(dot, t.name(), "box", lit.contains(t.name()));
        edge(dot, a.name(), t.name(), lit.contains(a.name()) && lit.contains(t.name()));
      }
    }
    for (BaseAgent sub : a.subAgents()) {
      agent(dot, sub, lit, seen);
      edge(dot, a.name(), sub.name(), false);
    }
  }

  /**
   * A workflow's graph: its nodes (shaped by kind: agents as ellipses, functions as boxes,
   * classifiers as diamonds, joins as circles, loops as hexagons) under ids {@code workflow.node},
   * its edges from {@code START} and between nodes labelled with their route (or {@code if} for a
   * condition), and each agent node's agent tree. A node is highlighted when the event is on its
   * branch (the node's path), or was authored by its agent.
   */
  private static void workflow(StringBuilder dot, Workflow wf, Set<String> lit, Set<String> seen) {
    String start = wf.name() + "." + Workflow.START;
    node(dot, start, "point", false);
    edge(dot, wf.name(), start, false);
    for (Node n : wf.nodes()) {
      String id = wf.name() + "." + n.name();
      boolean on =
          lit.contains("branch:" + id)
              || n.agent().map(ag -> lit.contains(ag.name())).orElse(false);
      node(dot, id, shape(n.type()), on, n.name());
      n.agent()
          .ifPresent(
              ag -> {
                if (!ag.name().equals(n.name())) {
                  agent(dot, ag, lit, seen);
                  edge(dot, id, ag.name(), false);
                } else if (ag instanceof LlmAgent llm) {
                  for (BaseTool t : llm.tools()) {
                    node(dot, t.name(), "box", lit.contains(t.name()));
                    edge(dot, id, t.name(), on && lit.contains(t.name()));
                  }
                }
              });
    }
    for (Edge e : wf.edges()) {
      String from = e.from().equals(Workflow.START) ? start : wf.name() + "." + e.from();
      String label = e.route() != null ? e.route() : e.condition() != null ? "if" : null;
      dot.append("  ").append(quote(from)).append(" -> ").append(quote(wf.name() + "." + e.to()));
      if (label != null) {
        dot.append(" [label=").append(quote(label)).append(", fontcolor=\"#cccccc\"]");
      }
      dot.append(";\n");
    }
  }

  private static String shape(String type) {
    return switch (type) {
      case "function" -> "box";
      case "classifier" -> "diamond";
      case "join" -> "circle";
      case "loop" -> "hexagon";
      default -> "ellipse";
    };
  }

  private static void node(StringBuilder dot, String name, String shape, boolean lit) {
    node(dot, name, shape, lit, null);
  }

  private static void node(
      StringBuilder dot, String name, String shape, boolean lit, @Nullable String label) {
    dot.append("  ").append(quote(name)).append(" [shape=").append(shape);
    if (label != null) {
      dot.append(", label=").append(quote(label));
    }
    if (lit) {
      dot.append(", style=filled, fillcolor=\"").append(HIGHLIGHT).append("\"");
    }
    dot.append("];\n");
  }

  private static void edge(StringBuilder dot, String from, String to, boolean lit) {
    dot.append("  ").append(quote(from)).append(" -> ").append(quote(to));
    if (lit) {
      dot.append(" [color=\"").append(HIGHLIGHT).append("\", penwidth=2]");
    }
    dot.append(";\n");
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** The nested description of {@code /dev/build_graph/{app}}: name, class, tools, sub-agents. */
  static ObjectNode describe(BaseAgent a) {
    ObjectNode node = Wire.MAPPER.createObjectNode();
    node.put("name", a.name());
    node.put("agent_class", a.getClass().getSimpleName());
    node.put("description", a.description());
    if (a instanceof LlmAgent llm) {
      ArrayNode tools = node.putArray("tools");
      for (BaseTool t : llm.tools()) {
        tools.addObject().put("name", t.name());
      }
    }
    ArrayNode subs = node.putArray("sub_agents");
    for (BaseAgent sub : a.subAgents()) {
      subs.add(describe(sub));
    }
    return node;
  }

  /**
   * ADK's {@code AppInfo} of {@code /apps/{app}/app-info}: name, root agent, description, language,
   * and each agent by name with its tools (their function declarations) and sub-agent names (the
   * instruction empty: adk4j's agents do not expose it).
   */
  static ObjectNode appInfo(String app, BaseAgent root) {
    ObjectNode info = Wire.MAPPER.createObjectNode();
    info.put("name", app);
    info.put("rootAgentName", root.name());
    info.put("description", root.description());
    info.put("language", "java");
    info.put("isComputerUse", false);
    ObjectNode agents = info.putObject("agents");
    agentInfo(agents, root);
    return info;
  }

  private static void agentInfo(ObjectNode agents, BaseAgent a) {
    if (agents.has(a.name())) {
      return;
    }
    ObjectNode node = agents.putObject(a.name());
    node.put("name", a.name());
    node.put("description", a.description());
    // adk4j's agents do not expose their instructions: an empty text
    node.put("instruction", "");
    ArrayNode tools = node.putArray("tools");
    if (a instanceof LlmAgent llm) {
      for (BaseTool t : llm.tools()) {
        t.declaration()
            .ifPresent(
                d ->
                    tools
                        .addObject()
                        .putArray("functionDeclarations")
                        .add(Wire.MAPPER.<com.fasterxml.jackson.databind.JsonNode>valueToTree(d)));
      }
    }
    ArrayNode subs = node.putArray("sub_agents");
    for (BaseAgent sub : a.subAgents()) {
      subs.add(sub.name());
      agentInfo(agents, sub);
    }
  }
}
