package dev.adk4j.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The checks {@link Workflow.Builder#build()} makes, each naming the nodes. */
class WorkflowBuildTest {

  static Node fn(String name) {
    return Node.function(name, Object.class, String.class, (ctx, in) -> name);
  }

  @Test
  void anEdgeToAnUnknownNode_isRefusedNamingIt() {
    assertThatThrownBy(
            () -> Workflow.builder().name("wf").start(fn("a")).edge("a", "ghost").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("edge from 'a' to unknown node 'ghost'")
        .hasMessageContaining("[a]");
    assertThatThrownBy(
            () -> Workflow.builder().name("wf").start(fn("a")).edge("ghost", "a").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("edge from unknown node 'ghost' to 'a'");
  }

  @Test
  void aNodeNoEdgeLeadsTo_isUnreachable() {
    assertThatThrownBy(() -> Workflow.builder().name("wf").start(fn("a")).node(fn("b")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Node 'b' of workflow 'wf' cannot be reached from START")
        .hasMessageContaining("no edge leads to it");
  }

  @Test
  void aJoinWhosePredecessorsCannotBeReached_canNeverRun() {
    assertThatThrownBy(
            () ->
                Workflow.builder()
                    .name("wf")
                    .start(fn("a"))
                    .nodes(fn("x"), fn("y"), Node.join("j"))
                    .edge("x", "j")
                    .edge("y", "j")
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Join node 'j' of workflow 'wf' can never run")
        .hasMessageContaining("[x, y]");
  }

  @Test
  void aJoinWithOneEdgeIntoIt_isRefused() {
    Node a = fn("a");
    assertThatThrownBy(() -> Workflow.builder().name("wf").edge(a, Node.join("j")).start(a).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Join node 'j'")
        .hasMessageContaining("1 edge(s)");
  }

  @Test
  void aFunctionWhoseInputCannotTakeThePreviousOutput_isATypeMismatchNamingBoth() {
    Node count = Node.function("count", String.class, Integer.class, (ctx, s) -> s.length());
    Node shout = Node.function("shout", String.class, String.class, (ctx, s) -> s + "!");
    assertThatThrownBy(() -> Workflow.builder().name("wf").start(count).edge(count, shout).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Node 'shout' of workflow 'wf' takes java.lang.String")
        .hasMessageContaining("node 'count' before it outputs java.lang.Integer");
    Node afterJoin = Node.function("after", String.class, String.class, (ctx, s) -> s);
    Node a = fn("a");
    Node j = Node.join("j");
    assertThatThrownBy(
            () ->
                Workflow.builder()
                    .name("wf")
                    .start(a)
                    .start(fn("b"))
                    .edge(a, j)
                    .edge("b", "j")
                    .edge(j, afterJoin)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Node 'after'")
        .hasMessageContaining("node 'j' before it outputs java.util.Map");
  }

  @Test
  void aCycle_isRefused_loopsAreLoopNodes() {
    assertThatThrownBy(
            () ->
                Workflow.builder()
                    .name("wf")
                    .nodes(fn("a"), fn("b"))
                    .edge(Workflow.START, "a")
                    .edge("a", "b")
                    .edge("b", "a")
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cycle a -> b -> a")
        .hasMessageContaining("Node.loop");
  }

  @Test
  void nodeNames_areUniqueAndNotReserved() {
    assertThatThrownBy(() -> Workflow.builder().name("wf").node(fn("a")).node(fn("a")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("two nodes named 'a'");
    assertThatThrownBy(() -> fn("START")).hasMessageContaining("reserved");
    assertThatThrownBy(() -> Workflow.builder().name("wf").start(fn("wf")).build())
        .hasMessageContaining("a node with its own name");
  }

  @Test
  void theGraph_isReadableForTools_nodesAndEdgesInOrder() {
    Workflow wf =
        Workflow.builder()
            .name("wf")
            .nodes(fn("a"), fn("b"), fn("c"))
            .edge(Workflow.START, "a")
            .edge("a", "b")
            .edge("a", "c", "other")
            .build();
    assertThat(wf.nodes()).extracting(Node::name).containsExactly("a", "b", "c");
    assertThat(wf.nodes()).extracting(Node::type).containsOnly("function");
    assertThat(wf.edges())
        .extracting(e -> e.from() + ">" + e.to() + ":" + e.route())
        .containsExactly("START>a:null", "a>b:null", "a>c:other");
  }
}
