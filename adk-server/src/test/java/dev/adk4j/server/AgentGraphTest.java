package dev.adk4j.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.workflows.Node;
import dev.adk4j.workflows.Workflow;
import org.junit.jupiter.api.Test;

/** The dev UI's graph of an app whose root agent is a graph workflow. */
class AgentGraphTest {

  static Workflow triage() {
    Node classify = Node.classifier("classify", (ctx, in) -> "billing");
    Node billing = Node.function("billing", Object.class, String.class, (ctx, in) -> "b");
    Node tech = Node.function("tech", Object.class, String.class, (ctx, in) -> "t");
    Node join = Node.join("join");
    Node summary =
        Node.agent(LlmAgent.builder().name("summary").model(ScriptedLlm.builder().build()).build());
    return Workflow.builder()
        .name("triage")
        .start(classify)
        .nodes(billing, tech, join, summary)
        .edge("classify", "billing", "billing")
        .edge("classify", "tech", "tech")
        .edge(billing, join)
        .edge(tech, join)
        .edgeIf("join", "summary", state -> true)
        .build();
  }

  @Test
  void aWorkflow_isDrawnWithItsNodesByKind_itsRoutesAndConditions() {
    String dot = AgentGraph.dot(triage(), null);

    assertThat(dot)
        .contains("\"triage.START\" [shape=point")
        .contains("\"triage.classify\" [shape=diamond, label=\"classify\"]")
        .contains("\"triage.billing\" [shape=box, label=\"billing\"]")
        .contains("\"triage.join\" [shape=circle, label=\"join\"]")
        .contains("\"triage.summary\" [shape=ellipse, label=\"summary\"]")
        .contains("\"triage.START\" -> \"triage.classify\";")
        .contains("\"triage.classify\" -> \"triage.billing\" [label=\"billing\"")
        .contains("\"triage.classify\" -> \"triage.tech\" [label=\"tech\"")
        .contains("\"triage.billing\" -> \"triage.join\";")
        .contains("\"triage.join\" -> \"triage.summary\" [label=\"if\"")
        .doesNotContain("fillcolor");
  }

  @Test
  void anEventOfANode_lightsThatNode_only() {
    Event onBilling = Event.builder().author("triage").branch("triage.billing").build();

    String dot = AgentGraph.dot(triage(), onBilling);

    assertThat(dot)
        .contains("\"triage.billing\" [shape=box, label=\"billing\", style=filled")
        .doesNotContain("\"triage.tech\" [shape=box, label=\"tech\", style=filled");
  }

  @Test
  void aWorkflowEventWithNodeInfo_lightsTheNodeItNames() {
    Event techDone =
        Event.builder()
            .author("triage")
            .nodeInfo(new dev.adk4j.events.NodeInfo("triage/tech", "run-1"))
            .build();

    String dot = AgentGraph.dot(triage(), techDone);

    assertThat(dot)
        .contains("\"triage.tech\" [shape=box, label=\"tech\", style=filled")
        .doesNotContain("\"triage.billing\" [shape=box, label=\"billing\", style=filled");
  }
}
