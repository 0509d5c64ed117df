package dev.adk4j.examples;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.ParallelAgent;
import dev.adk4j.agents.SequentialAgent;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import io.reactivex.rxjava3.core.Maybe;
import java.util.function.Consumer;

/**
 * A pipeline of sub-agents sharing intermediate results: a {@link SequentialAgent} whose writer
 * stores {@code temp:draft} through its output key and whose reviewer reads {@code {temp:draft}};
 * then a {@link ParallelAgent} whose children each write their own key. {@code temp:} keys are gone
 * after the run.
 */
public final class PipelineExample {
  private PipelineExample() {}

  /** Runs the pipeline; returns the session after the run. */
  public static Session run(BaseSessionService sessions, Transcript t) {
    SequentialAgent pipeline = pipeline(t::say);
    Runner runner = new Runner(pipeline, "pipeline_app", null, sessions);
    ExampleSupport.freshSession(sessions, "pipeline_app", "user6", "pipeline", null);

    t.step("writer -> reviewer (through temp:draft) -> english and french in parallel");
    ExampleSupport.run(runner, "user6", "pipeline", "Write about cats.", t);
    Session after = ExampleSupport.load(sessions, "pipeline_app", "user6", "pipeline");
    t.state("State after the run (temp:draft is gone)", after);
    return after;
  }

  /**
   * The pipeline agent (also served by {@link ExampleServer}); {@code note} hears what the reviewer
   * found in {@code temp:draft}.
   */
  static SequentialAgent pipeline(Consumer<String> note) {
    // tag::pipeline[]
    LlmAgent writer =
        LlmAgent.builder()
            .name("writer")
            .model(ExampleModels.model(r -> "Cats are curious, independent and playful."))
            .instruction("Write a one-sentence draft about cats.")
            .outputKey("temp:draft") // shared with the next agent, never stored
            .build();
    LlmAgent reviewer =
        LlmAgent.builder()
            .name("reviewer")
            .model(ExampleModels.model(PipelineExample::demoReview))
            .instruction("Review this draft in one sentence: {temp:draft}")
            .outputKey("review")
            .beforeAgentCallback(
                ctx -> {
                  note.accept("(reviewer sees temp:draft = " + ctx.state().get("temp:draft") + ")");
                  return Maybe.empty();
                })
            .build();
    LlmAgent english =
        LlmAgent.builder()
            .name("english")
            .model(ExampleModels.model(r -> "Cats: curious and playful."))
            .instruction("Summarize the review in English: {review}")
            .outputKey("summary_en")
            .build();
    LlmAgent french =
        LlmAgent.builder()
            .name("french")
            .model(ExampleModels.model(r -> "Les chats : curieux et joueurs."))
            .instruction("Summarize the review in French: {review}")
            .outputKey("summary_fr")
            .build();
    SequentialAgent pipeline =
        SequentialAgent.builder()
            .name("pipeline")
            .description("writer, reviewer, then English and French summaries in parallel.")
            .subAgents(
                writer,
                reviewer,
                ParallelAgent.builder().name("summaries").subAgents(english, french).build())
            .build();
    // end::pipeline[]
    return pipeline;
  }

  /** The demo reviewer quotes the draft it found in its instruction. */
  private static String demoReview(LlmRequest request) {
    String instruction = request.systemInstruction().orElse("");
    String marker = "one sentence: ";
    int at = instruction.indexOf(marker);
    String draft = at < 0 ? "(no draft)" : instruction.substring(at + marker.length());
    return "Reviewed \"" + draft + "\": clear and friendly.";
  }
}
