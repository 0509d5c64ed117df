package dev.adk4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Schema;
import dev.adk4j.events.Event;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import io.reactivex.rxjava3.core.Maybe;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What an agent's final answer writes under its output key, with and without an output schema. */
class OutputKeyTest {

  private static final Schema REPORT =
      Schema.builder()
          .type("OBJECT")
          .properties(Map.of("ok", Schema.builder().type("BOOLEAN").build()))
          .build();

  private static LlmAgent agent(String answer, boolean withSchema) {
    LlmAgent.Builder b =
        LlmAgent.builder()
            .name("reporter")
            .model(ScriptedLlm.builder().thenText(answer).build())
            .instruction("Report.")
            .outputKey("report");
    if (withSchema) {
      b.outputSchema(REPORT);
    }
    return b.build();
  }

  @Test
  void schema_whitespaceOnlyAnswer_writesNothing() {
    AgentHarness harness = new AgentHarness();

    List<Event> events = harness.run(agent(" \n\t ", true), "go");

    assertThat(events).hasSize(1);
    assertThat(events.get(0).actions().stateDelta()).doesNotContainKey("report");
    assertThat(harness.stored().state()).doesNotContainKey("report");
  }

  @Test
  void schema_whitespaceOnlyAnswer_leavesTheEarlierValueAlone() {
    AgentHarness harness = new AgentHarness(Map.of("report", Map.of("ok", true)));

    harness.run(agent("\n\n", true), "go");

    assertThat(harness.stored().state()).containsEntry("report", Map.of("ok", true));
  }

  @Test
  void schema_whitespaceOnlyContentFromABeforeAgentCallback_writesNothing() {
    AgentHarness harness = new AgentHarness();
    LlmAgent agent =
        LlmAgent.builder()
            .name("reporter")
            .model(ScriptedLlm.builder().build())
            .outputKey("report")
            .outputSchema(REPORT)
            .beforeAgentCallback(ctx -> Maybe.just(Contents.model("   ")))
            .build();

    List<Event> events = harness.run(agent, "go");

    assertThat(events.get(0).actions().stateDelta()).doesNotContainKey("report");
    assertThat(harness.stored().state()).doesNotContainKey("report");
  }

  @Test
  void schema_emptyAnswer_writesNothing() {
    AgentHarness harness = new AgentHarness();

    harness.run(agent("", true), "go");

    assertThat(harness.stored().state()).doesNotContainKey("report");
  }

  @Test
  void schema_jsonSurroundedByWhitespace_storesTheParsedObject() {
    AgentHarness harness = new AgentHarness();

    harness.run(agent("\n  {\"ok\": false}  \n", true), "go");

    assertThat(harness.stored().state()).containsEntry("report", Map.of("ok", false));
  }

  /** Kept as it was (and as ADK Java does): the text is stored, and a warning is logged. */
  @Test
  void schema_answerThatIsNotJson_storesTheText() {
    AgentHarness harness = new AgentHarness();

    harness.run(agent("not json at all", true), "go");

    assertThat(harness.stored().state()).containsEntry("report", "not json at all");
  }

  /** Without a schema any text is the answer, whitespace included; only no text writes nothing. */
  @Test
  void noSchema_whitespaceAnswer_isStoredAsIs_andAnEmptyOneWritesNothing() {
    AgentHarness whitespace = new AgentHarness();
    whitespace.run(agent("  ", false), "go");
    assertThat(whitespace.stored().state()).containsEntry("report", "  ");

    AgentHarness empty = new AgentHarness();
    empty.run(agent("", false), "go");
    assertThat(empty.stored().state()).doesNotContainKey("report");
  }
}
