package dev.adk4j.examples;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.AgentTool;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.util.List;
import java.util.Map;

/**
 * An agent used as a tool: the Assistant calls the Researcher through an {@link AgentTool}. The
 * Researcher runs in a child invocation; its state writes ({@code lookups}, its {@code research}
 * output key) arrive in the Assistant's function-response event, once, and its {@code temp:} note
 * stays behind. The session's history holds the Assistant's call and response, not the Researcher's
 * own events.
 */
public final class AgentToolExample {
  private AgentToolExample() {}

  /** The Researcher's tool: counts lookups in the session and leaves a temp: note. */
  @Schema(name = "record_lookup", description = "Records that a lookup was made.")
  public static Map<String, Object> recordLookup(ToolContext context) {
    long lookups = context.state().increment("lookups", 1);
    context.state().put("temp:researcher_note", "looked up once more");
    return Map.of("lookups", lookups);
  }

  // tag::agent-tool[]
  /** The Researcher, an ordinary agent, and the Assistant that uses it as a tool. */
  static LlmAgent assistant() {
    LlmAgent researcher =
        LlmAgent.builder()
            .name("Researcher")
            .description("Answers factual questions.")
            .model(ExampleModels.model(request -> "Paris has about 2.1 million inhabitants."))
            .instruction("Record the lookup, then answer the question briefly.")
            .tools(FunctionTool.create(AgentToolExample.class, "recordLookup"))
            .outputKey("research") // written in the Researcher's child invocation
            .build();
    return LlmAgent.builder()
        .name("Assistant")
        .model(
            ExampleModels.model(
                request -> "Here is what I found.",
                Map.of("Researcher", Map.of("request", "How many people live in Paris?"))))
        .instruction("Ask the Researcher, then answer the user.")
        .tools(AgentTool.create(researcher)) // the Researcher's answer is the function response
        .build();
  }

  // end::agent-tool[]

  /** Runs the example twice on one session; returns the session after the runs. */
  public static Session run(BaseSessionService sessions, Transcript t) {
    Runner runner = new Runner(assistant(), "agent_tool_app", null, sessions);
    ExampleSupport.freshSession(sessions, "agent_tool_app", "user7", "agent-tool", null);

    t.step("Ask the Assistant twice; each time it calls the Researcher through an AgentTool");
    List<Event> first = ExampleSupport.run(runner, "user7", "agent-tool", "How big is Paris?", t);
    t.say(
        "State delta of the Assistant's function-response event: "
            + first.get(1).actions().stateDelta().keySet().stream().sorted().toList());
    ExampleSupport.run(runner, "user7", "agent-tool", "And again, please.", t);
    Session after = ExampleSupport.load(sessions, "agent_tool_app", "user7", "agent-tool");
    t.say(
        "Stored events by author: "
            + after.events().stream().map(Event::author).toList()
            + " (none by the Researcher)");
    t.state("State after the runs (no temp: key)", after);
    return after;
  }
}
