package dev.adk4j.compat;

// ADK for Java: com.google.adk.agents.*, com.google.adk.runner.InMemoryRunner,
// com.google.adk.tools.* (prefix swap only).
import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.LoopAgent;
import dev.adk4j.agents.ParallelAgent;
import dev.adk4j.agents.SequentialAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A refinement loop as ADK's documentation builds it: a writer and a critic in a {@code LoopAgent},
 * the critic ending the loop with an exit tool that escalates; and a parallel fan-out inside a
 * sequence.
 */
class WorkflowAgentsProgramTest {

  /** ADK's documented loop exit: the tool sets escalate (and skips summarization). */
  public static Map<String, Object> exitLoop(ToolContext toolContext) {
    toolContext.setActions(
        toolContext.actions().toBuilder().escalate(true).skipSummarization(true).build());
    return Map.of();
  }

  static List<Event> run(InMemoryRunner runner, String text) {
    Session session = runner.sessionService().createSession(runner.appName(), "user").blockingGet();
    return runner
        .runAsync("user", session.id(), Content.fromParts(Part.fromText(text)))
        .toList()
        .blockingGet();
  }

  @Test
  void loop_endsWhenTheCriticCallsExitLoop() {
    QueueModel writerModel = new QueueModel(QueueModel.text("draft 1"), QueueModel.text("draft 2"));
    QueueModel criticModel =
        new QueueModel(QueueModel.text("too short"), QueueModel.call("exitLoop", Map.of()));
    LlmAgent writer =
        LlmAgent.builder().name("writer").model(writerModel).outputKey("draft").build();
    LlmAgent critic =
        LlmAgent.builder()
            .name("critic")
            .model(criticModel)
            .instruction("Review: {draft}")
            .tools(FunctionTool.create(WorkflowAgentsProgramTest.class, "exitLoop"))
            .build();
    LoopAgent loop =
        LoopAgent.builder()
            .name("refinement loop")
            .subAgents(writer, critic)
            .maxIterations(5)
            .build();

    List<Event> events = run(new InMemoryRunner(loop), "write a poem");

    assertThat(writerModel.requests).hasSize(2);
    assertThat(criticModel.requests).hasSize(2);
    Event last = events.get(events.size() - 1);
    assertThat(last.author()).isEqualTo("critic");
    assertThat(last.actions().escalate()).contains(true);
  }

  @Test
  void sequence_ofAParallelFanOutAndAMerger() {
    LlmAgent a =
        LlmAgent.builder()
            .name("researcher a")
            .model(new QueueModel(QueueModel.text("fact A")))
            .outputKey("a")
            .build();
    LlmAgent b =
        LlmAgent.builder()
            .name("researcher b")
            .model(new QueueModel(QueueModel.text("fact B")))
            .outputKey("b")
            .build();
    QueueModel mergerModel = new QueueModel(QueueModel.text("A and B"));
    LlmAgent merger =
        LlmAgent.builder()
            .name("merger")
            .model(mergerModel)
            .instruction("Merge {a} and {b}.")
            .build();
    SequentialAgent pipeline =
        SequentialAgent.builder()
            .name("pipeline")
            .subAgents(ParallelAgent.builder().name("fan out").subAgents(a, b).build(), merger)
            .build();
    InMemoryRunner runner = new InMemoryRunner(pipeline);

    List<Event> events = run(runner, "go");

    assertThat(events.get(events.size() - 1).stringifyContent()).isEqualTo("A and B");
    assertThat(mergerModel.requests.get(0).getFirstSystemInstruction().orElse(""))
        .contains("Merge fact A and fact B.");
    assertThat(
            runner.sessionService().listSessions(runner.appName(), "user").blockingGet().sessions())
        .hasSize(1);
    assertThat(Optional.of(runner.appName())).contains("pipeline");
  }
}
