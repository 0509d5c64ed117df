package dev.adk4j.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.events.Event;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.AgentTool;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Agent names: adk4j accepts identifiers and every name ADK for Java 1.8.0 accepts (words joined by
 * single spaces, dots, underscores or hyphens); where a model needs an identifier, one is derived.
 */
class AgentNamesTest {

  @ParameterizedTest
  @ValueSource(
      strings = {"test agent", "agent-1", "2nd.agent", "_private", "my_agent_", "a__b", "Agent 7"})
  void namesAdkOrAdk4jAccepts_build(String name) {
    LlmAgent agent = LlmAgent.builder().name(name).model(ScriptedLlm.answering(r -> null)).build();
    assertThat(agent.name()).isEqualTo(name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "two  spaces", "trailing ", "a..b", "a/b", "ünï", "user"})
  void namesNeitherRuleAccepts_areRefused_namingTheName(String name) {
    assertThatThrownBy(() -> SequentialAgent.builder().name(name).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + name + "'");
  }

  @Test
  void transferToAnAgentWhoseNameHasASpace_runsIt() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .whenInstructionContains(
                "Route",
                ScriptedLlm.script()
                    .thenFunctionCall(
                        LlmAgent.TRANSFER_TO_AGENT, Map.of("agent_name", "billing desk")))
            .whenInstructionContains("Bills", ScriptedLlm.script().thenText("Your bill is 5."))
            .build();
    LlmAgent billing =
        LlmAgent.builder().name("billing desk").model(llm).instruction("Bills.").build();
    LlmAgent root =
        LlmAgent.builder()
            .name("front desk")
            .model(llm)
            .instruction("Route.")
            .subAgents(billing)
            .build();

    List<Event> events = new AgentHarness().run(root, "my bill?");

    assertThat(events.get(events.size() - 1).author()).isEqualTo("billing desk");
    assertThat(events.get(events.size() - 1).stringifyContent()).contains("Your bill is 5.");
  }

  @Test
  void agentToolOfAnAgentWhoseNameIsNoIdentifier_isCalledByADerivedName() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .whenInstructionContains(
                "Ask",
                ScriptedLlm.script()
                    .thenFunctionCall("test_agent", Map.of(AgentTool.REQUEST, "hi"))
                    .thenText("done"))
            .whenInstructionContains("Greet", ScriptedLlm.script().thenText("hello"))
            .build();
    LlmAgent child = LlmAgent.builder().name("test agent").model(llm).instruction("Greet.").build();
    AgentTool tool = AgentTool.create(child);
    assertThat(tool.name()).isEqualTo("test_agent");
    assertThat(tool.declaration().orElseThrow().name()).contains("test_agent");
    assertThat(AgentTool.create(LlmAgent.builder().name("7 up").model(llm).build()).name())
        .isEqualTo("_7_up");
    LlmAgent root =
        LlmAgent.builder().name("root").model(llm).instruction("Ask.").tools(tool).build();

    List<Event> events = new AgentHarness().run(root, "go");

    assertThat(events)
        .anySatisfy(
            e ->
                assertThat(e.functionResponses())
                    .anySatisfy(
                        r ->
                            assertThat(r.response().orElseThrow())
                                .containsEntry("result", "hello")));
  }
}
