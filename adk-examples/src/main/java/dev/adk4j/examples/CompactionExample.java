package dev.adk4j.examples;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.runner.EventsCompactionConfig;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import java.util.List;

/**
 * Event compaction: every two invocations the Runner summarizes the conversation into a compaction
 * event, and the model then receives the summary plus what came after it, while the whole history
 * stays stored.
 */
public final class CompactionExample {
  private CompactionExample() {}

  /** Runs the example; returns the session after the run. */
  public static Session run(BaseSessionService sessions, Transcript t) {
    BaseLlm model = ExampleModels.model(CompactionExample::demoReply);
    // tag::compaction[]
    LlmAgent assistant =
        LlmAgent.builder()
            .name("Assistant")
            .model(model)
            .instruction("You are a travel assistant. Answer in one sentence.")
            .build();
    // Summarize every 2 invocations, re-reading the last summarized one for continuity.
    EventsCompactionConfig compaction = EventsCompactionConfig.of(2, 1);
    Runner runner = new Runner(assistant, "travel_app", null, sessions, compaction);
    // end::compaction[]
    ExampleSupport.freshSession(sessions, "travel_app", "user1", "trip", null);

    t.step("Five turns; a compaction event is stored after turns 2 and 4");
    for (String text :
        List.of(
            "I want to visit Lisbon in May.",
            "I travel with two kids.",
            "We like museums.",
            "Our budget is 3,000 euros.",
            "What should we book first?")) {
      ExampleSupport.run(runner, "user1", "trip", text, t);
    }
    List<Event> events = sessions.listEvents("travel_app", "user1", "trip").blockingGet().events();
    long compactions = events.stream().filter(e -> e.actions().compaction().isPresent()).count();
    t.say("stored events: " + events.size() + ", of which compaction events: " + compactions);
    events.stream()
        .filter(e -> e.actions().compaction().isPresent())
        .reduce((a, b) -> b)
        .ifPresent(
            e ->
                t.say(
                    "latest summary: "
                        + e.actions()
                            .compaction()
                            .get()
                            .compactedContent()
                            .parts()
                            .get()
                            .get(0)
                            .text()
                            .orElse("")));
    return ExampleSupport.load(sessions, "travel_app", "user1", "trip");
  }

  /** The demo model: summaries when asked to summarize, short answers otherwise. */
  private static String demoReply(LlmRequest request) {
    if (request.systemInstruction().orElse("").contains("memory of a long conversation")) {
      return "The user plans a May trip to Lisbon with two kids, likes museums and has a budget"
          + " of 3,000 euros.";
    }
    int turns = request.contents().size();
    return "Noted (I received " + turns + " message" + (turns == 1 ? "" : "s") + ").";
  }
}
