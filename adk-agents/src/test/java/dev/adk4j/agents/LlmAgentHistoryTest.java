package dev.adk4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which part of a session's history an {@link LlmAgent} sends its model, turn after turn on one
 * session ({@link AgentHarness}): {@code includeContents(NONE)} and {@code historyWindow(n)}.
 */
class LlmAgentHistoryTest {

  final AgentHarness harness = new AgentHarness();

  /** The texts of the request's contents, each followed by {@code |}. */
  static String texts(LlmRequest request) {
    StringBuilder sb = new StringBuilder();
    for (Content c : request.contents()) {
      sb.append(Contents.text(c)).append('|');
    }
    return sb.toString();
  }

  @Test
  void includeContentsNone_sendsOnlyTheCurrentInvocation() {
    ScriptedLlm model = ScriptedLlm.answering(req -> ScriptedLlm.textResponse("ok"));
    LlmAgent agent =
        LlmAgent.builder()
            .name("A")
            .model(model)
            .includeContents(LlmAgent.IncludeContents.NONE)
            .build();
    harness.run(agent, "one");
    harness.run(agent, "two");
    assertThat(texts(model.lastRequest())).isEqualTo("two|");
  }

  @Test
  void historyWindow_sendsTheLastNInvocationsAndTheCurrentOne() {
    ScriptedLlm model = ScriptedLlm.answering(req -> ScriptedLlm.textResponse("r"));
    LlmAgent agent = LlmAgent.builder().name("A").model(model).historyWindow(2).build();
    for (String t : List.of("a", "b", "c", "d")) {
      harness.run(agent, t);
    }
    assertThat(texts(model.lastRequest())).isEqualTo("b|r|c|r|d|");
    List<String> sizes = new ArrayList<>();
    model.requests().forEach(r -> sizes.add(String.valueOf(r.contents().size())));
    assertThat(sizes).containsExactly("1", "3", "5", "5");
  }
}
