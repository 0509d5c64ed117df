package dev.adk4j.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.tools.BaseTool;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An app's agent tree for the dev UI: as Graphviz DOT source (agents as ellipses, tools as boxes,
 * the agent and tools of one event highlighted) and as the nested description the UI's app view
 * reads.
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

  private static void node(StringBuilder dot, String name, String shape, boolean lit) {
    dot.append("  ").append(quote(name)).append(" [shape=").append(shape);
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
