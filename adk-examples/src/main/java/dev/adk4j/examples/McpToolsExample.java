package dev.adk4j.examples;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.mcp.McpAgentServer;
import dev.adk4j.tools.mcp.McpToolset;
import io.reactivex.rxjava3.core.Maybe;
import java.util.Map;

/**
 * An agent using the tools of an MCP server, offline: the example starts a small MCP server in this
 * process (adk4j's {@link McpAgentServer}, serving a {@code forecast} tool over streamable HTTP on
 * 127.0.0.1), connects an {@link McpToolset} to it, and runs an agent whose before-tool callback
 * fills the tool's {@code city} from {@code user:home_city} and whose after-tool callback stores
 * the answer under {@code user:last_forecast}, in the function-response event.
 */
public final class McpToolsExample {
  private McpToolsExample() {}

  /** The weather service's tool, served over MCP. */
  @Schema(name = "forecast", description = "Tomorrow's forecast for a city.")
  public static Map<String, Object> forecast(@Schema(name = "city") String city) {
    return Map.of("city", city, "sky", city.length() % 2 == 0 ? "sunny" : "cloudy", "high_c", 21);
  }

  /** Runs the example; returns the session after the run. */
  public static Session run(BaseSessionService sessions, Transcript t) {
    // tag::mcp[]
    // A small MCP server (a weather service) the example starts itself.
    Runner weatherService =
        new InMemoryRunner(LlmAgent.builder().name("weather_service").build(), "weather");
    try (McpAgentServer server =
        McpAgentServer.builder()
            .tools(weatherService, FunctionTool.create(McpToolsExample.class, "forecast"))
            .build()
            .serveHttp("127.0.0.1", 0)) {
      String url = "http://127.0.0.1:" + server.port() + "/mcp";
      t.step("Connect an McpToolset to the example's MCP server (streamable HTTP, 127.0.0.1)");
      McpToolset weather =
          McpToolset.builder()
              .streamableHttp(url)
              .toolFilter(java.util.List.of("forecast"))
              .build();
      LlmAgent agent =
          LlmAgent.builder()
              .name("McpAgent")
              .model(
                  ExampleModels.model(
                      request -> "Here is tomorrow's weather.", Map.of("forecast", Map.of())))
              .instruction("Use the forecast tool for the user's home city.")
              .toolsets(weather)
              .beforeToolCallback(
                  (tool, args, ctx) -> {
                    args.putIfAbsent("city", ctx.state().get("user:home_city")); // args from state
                    // The weather service keeps one session per user of ours (its own state).
                    args.put("sessionId", "weather-" + ctx.userId());
                    return Maybe.empty();
                  })
              .afterToolCallback(
                  (tool, args, ctx, response) -> {
                    ctx.state().put("user:last_forecast", response); // result into state
                    return Maybe.empty();
                  })
              .build();
      try (Runner runner = new Runner(agent, "mcp_app", null, sessions)) {
        ExampleSupport.freshSession(
            sessions, "mcp_app", "user9", "mcp", Map.of("user:home_city", "Lyon"));
        ExampleSupport.run(runner, "user9", "mcp", "What will the weather be tomorrow?", t);
      } // closing the runner closes the toolset's MCP session
    }
    // end::mcp[]
    Session after = ExampleSupport.load(sessions, "mcp_app", "user9", "mcp");
    t.state("State after the run", after);
    return after;
  }
}
