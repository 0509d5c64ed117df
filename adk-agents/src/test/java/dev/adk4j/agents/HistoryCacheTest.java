package dev.adk4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.events.EventCompaction;
import dev.adk4j.internal.AppendOnlyList;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An {@link LlmAgent} builds each request's history from the one it built last for the session,
 * converting only the events stored since ({@link HistoryCache}): every request must be the one the
 * history rules give when the whole session is converted, whatever the session holds (another
 * agent's turns, a compaction, a rewind, a long-running call and its later answer).
 */
class HistoryCacheTest {

  final AgentHarness harness = new AgentHarness();

  /** Each request as the agent sent it, and as the whole session converted gives it then. */
  final List<List<Content>> sent = new ArrayList<>();

  final List<List<Content>> whole = new ArrayList<>();

  /** The tool: notes a visit in the session's state. */
  public static final class Notes {
    public Map<String, Object> note(ToolContext toolContext) {
      toolContext.state().put("noted", true);
      return Map.of("ok", true);
    }
  }

  LlmAgent agent() {
    ScriptedLlm model = ScriptedLlm.answering(this::answer);
    return LlmAgent.builder()
        .name("A")
        .model(model)
        .instruction("Note every visit.")
        .tools(FunctionTool.create(new Notes(), "note"))
        .build();
  }

  /** Calls the tool for a user's message, answers once it has the tool's result. */
  LlmResponse answer(LlmRequest request) {
    sent.add(request.contents());
    whole.add(
        Histories.contentsFor(harness.lastContext(), "A", LlmAgent.IncludeContents.DEFAULT, null));
    List<Content> contents = request.contents();
    boolean toolAnswered =
        !contents.isEmpty()
            && contents.get(contents.size() - 1).parts().orElse(List.of()).stream()
                .anyMatch(p -> p.functionResponse().isPresent());
    return toolAnswered
        ? ScriptedLlm.textResponse("noted")
        : ScriptedLlm.functionCallResponse("note", Map.of());
  }

  void append(Event.Builder event) {
    Session session = harness.stored();
    harness
        .sessions()
        .appendEvent(session, event.invocationId("outside-" + sent.size()).build())
        .blockingGet();
  }

  @Test
  void everyRequestIsTheWholeHistoryConverted_andLaterOnesExtendTheEarlier() {
    LlmAgent agent = agent();
    for (int turn = 1; turn <= 3; turn++) {
      harness.run(agent, "visit " + turn);
    }
    // Two requests a turn; the second of each extends the first (same list, two more contents).
    assertThat(sent).hasSize(6);
    assertThat(sent).isEqualTo(whole);
    assertThat(sent.get(5)).isInstanceOf(AppendOnlyList.class);
    assertThat(sent.get(5).subList(0, sent.get(4).size())).isEqualTo(sent.get(4));
    assertThat(sent.get(5)).hasSize(sent.get(4).size() + 2);
    assertThat(sent.get(0)).hasSize(1);
    assertThat(sent.get(5)).hasSize(3 * 4 - 1); // user, call, response, answer; no answer yet

    // Another agent's turn is retold; a compaction, a rewind and a long-running call change how
    // earlier events are shown: each is converted the same as the whole session.
    append(Event.builder().author("B").content(Contents.model("B was here")));
    harness.run(agent, "visit 4");
    Event first = harness.storedEvents().get(0);
    append(
        Event.builder()
            .author("user")
            .actions(
                EventActions.builder()
                    .compaction(
                        new EventCompaction(
                            first.timestamp(), first.timestamp(), Contents.model("a summary")))
                    .build()));
    harness.run(agent, "visit 5");
    harness.run(agent, "visit 6");
    String rewound = harness.storedEvents().get(harness.storedEvents().size() - 1).invocationId();
    append(
        Event.builder()
            .author("user")
            .actions(EventActions.builder().rewindBeforeInvocationId(rewound).build()));
    harness.run(agent, "visit 7");
    harness.run(agent, "visit 8");
    assertThat(sent).isEqualTo(whole);
    assertThat(sent.get(sent.size() - 1).toString()).contains("a summary").contains("B was here");
  }

  @Test
  void aLongRunningCallAndItsLaterAnswer_areShownAsTheWholeSessionShowsThem() {
    LlmAgent agent = agent();
    harness.run(agent, "visit 1");
    FunctionCall call = FunctionCall.builder().id("job-1").name("job").args(Map.of()).build();
    append(
        Event.builder()
            .author("A")
            .content(
                Content.builder()
                    .role("model")
                    .parts(Part.builder().functionCall(call).build())
                    .build())
            .longRunningToolIds(Set.of("job-1")));
    append(
        Event.builder()
            .author("user")
            .content(Contents.functionResponse("job", Map.of("status", "pending"))));
    harness.run(agent, "visit 2");
    harness.run(agent, "visit 3");
    assertThat(sent).hasSize(6);
    assertThat(sent).isEqualTo(whole);
  }
}
