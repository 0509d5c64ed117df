package dev.adk4j.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.agents.TestInvocation;
import dev.adk4j.events.EventActions;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Setting a control flag leaves the writes a tool already made as they are. */
class ToolContextFlagsTest {

  @Test
  void flagsAfterAnIncrement_doNotApplyTheIncrementAgain() {
    TestInvocation invocation = TestInvocation.of("agent", Map.of("n", 10));
    ToolContext tc = new ToolContext(invocation.context(), "call-1");
    tc.state().increment("n", 1);
    tc.state().put("k", "v");

    tc.skipSummarization();
    tc.escalate();
    tc.transferToAgent("other");

    EventActions actions = tc.actions();
    assertThat(tc.state().get("n")).isEqualTo(11);
    assertThat(actions.stateIncrements()).containsExactly(Map.entry("n", 1L));
    assertThat(actions.stateDelta()).containsEntry("n", 11).containsEntry("k", "v");
    assertThat(actions.skipSummarization()).contains(true);
    assertThat(actions.escalate()).contains(true);
    assertThat(actions.transferToAgent()).contains("other");
  }
}
