package dev.adk4j.examples;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Several function calls in one model response: the TripPlanner's model asks for the weather and a
 * hotel at once. The two tools run concurrently; the hotel finishes first, the weather last, and
 * both write {@code advice}. Their writes are merged into the one function-response event in the
 * order of the calls, so the later call ({@code check_hotel}) wins, whatever order they finished
 * in.
 */
public final class ParallelToolsExample {
  private ParallelToolsExample() {}

  /** The two tools; the weather waits for the hotel, so that it finishes last. */
  public static final class TripTools {
    private final CountDownLatch hotelDone = new CountDownLatch(1);

    // tag::parallel-tools[]
    /** Called first by the model; finishes last (it waits for the hotel). */
    @Schema(name = "check_weather", description = "Checks the weather at the destination.")
    public Map<String, Object> checkWeather(ToolContext context) throws InterruptedException {
      hotelDone.await(10, TimeUnit.SECONDS); // runs alongside check_hotel
      context.state().put("weather", "sunny");
      context.state().put("advice", "pack sunglasses"); // the earlier call: overridden
      return Map.of("forecast", "sunny");
    }

    /** Called second by the model; finishes first. */
    @Schema(name = "check_hotel", description = "Books a hotel at the destination.")
    public Map<String, Object> checkHotel(ToolContext context) {
      context.state().put("hotel", "booked");
      context.state().put("advice", "bring the booking"); // the later call: wins
      hotelDone.countDown();
      return Map.of("hotel", "booked");
    }

    // end::parallel-tools[]
  }

  /** The example's agent: its model calls both tools in one response. */
  static LlmAgent agent(TripTools tools) {
    return LlmAgent.builder()
        .name("TripPlanner")
        .model(ExampleModels.modelCallingAllTools(request -> "Have a good trip.", Map.of()))
        .instruction("Check the weather and book a hotel, both at once.")
        .tools(FunctionTool.create(tools, "checkWeather"), FunctionTool.create(tools, "checkHotel"))
        .build();
  }

  /** Runs the example; returns the session after the run. */
  public static Session run(BaseSessionService sessions, Transcript t) {
    Runner runner = new Runner(agent(new TripTools()), "parallel_app", null, sessions);
    ExampleSupport.freshSession(sessions, "parallel_app", "user8", "trip", null);

    t.step("Plan a trip: two tool calls in one model response run at once");
    List<Event> events = ExampleSupport.run(runner, "user8", "trip", "Plan my weekend.", t);
    Event responses = events.get(1);
    t.say(
        "One function-response event answers both calls, in call order: "
            + responses.functionResponses().stream().map(r -> r.name().orElse("")).toList());
    t.say(
        "advice = "
            + responses.actions().stateDelta().get("advice")
            + " (check_hotel is the later call; check_weather finished last)");
    Session after = ExampleSupport.load(sessions, "parallel_app", "user8", "trip");
    t.state("State after the run", after);
    t.say("Calls at most " + RunConfig.DEFAULT_MAX_PARALLEL_TOOL_CALLS + " at once by default.");
    return after;
  }
}
