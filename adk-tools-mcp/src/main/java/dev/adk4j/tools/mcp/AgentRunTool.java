package dev.adk4j.tools.mcp;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.Session;
import dev.adk4j.state.Scope;
import dev.adk4j.state.State;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One agent served as an MCP tool: a call runs one invocation of the runner's agent on a session of
 * the runner's app and answers with the agent's last text and the session's state after it.
 */
final class AgentRunTool {
  private final Runner runner;
  private final String defaultUserId;
  private final McpSchema.Tool tool;

  AgentRunTool(Runner runner, String defaultUserId) {
    this.runner = runner;
    this.defaultUserId = defaultUserId;
    String name = runner.agent().name();
    String description = runner.agent().description();
    this.tool =
        McpSchema.Tool.builder()
            .name(name)
            .description(
                (description == null || description.isBlank()
                        ? "Runs the agent '" + name + "'."
                        : description)
                    + " Send the user's message; pass the sessionId the answer gave to go on with"
                    + " the same conversation and its state.")
            .inputSchema(inputSchema())
            .outputSchema(outputSchema())
            .build();
  }

  McpSchema.Tool tool() {
    return tool;
  }

  private static Map<String, Object> inputSchema() {
    Map<String, Object> props = new LinkedHashMap<>();
    props.put("message", Map.of("type", "string", "description", "The user's message"));
    props.put(
        "sessionId",
        Map.of(
            "type",
            "string",
            "description",
            "The conversation to go on with; a new one when absent (created if unknown)"));
    props.put("userId", Map.of("type", "string", "description", "The user; a default when absent"));
    props.put(
        "state",
        Map.of(
            "type",
            "object",
            "description",
            "State to set before the agent runs (session keys and user: keys)"));
    return Map.of("type", "object", "properties", props, "required", List.of("message"));
  }

  private static Map<String, Object> outputSchema() {
    Map<String, Object> props = new LinkedHashMap<>();
    props.put("sessionId", Map.of("type", "string"));
    props.put("userId", Map.of("type", "string"));
    props.put("answer", Map.of("type", "string"));
    props.put("state", Map.of("type", "object"));
    return Map.of(
        "type",
        "object",
        "properties",
        props,
        "required",
        List.of("sessionId", "userId", "answer", "state"));
  }

  McpSchema.CallToolResult call(McpSchema.CallToolRequest request) {
    Map<String, Object> args = request.arguments() == null ? Map.of() : request.arguments();
    try {
      Object message = args.get("message");
      if (!(message instanceof String text) || text.isBlank()) {
        return error("Argument 'message' must be a non-empty string, got " + describe(message));
      }
      String userId = optionalString(args, "userId");
      if (userId == null) {
        userId = defaultUserId;
      }
      String sessionId = optionalString(args, "sessionId");
      if (sessionId == null) {
        sessionId =
            runner
                .sessionService()
                .createSession(runner.appName(), userId, null, null)
                .blockingGet()
                .id();
      }
      Map<String, Object> delta = stateDelta(args.get("state"));
      RunConfig config = RunConfig.builder().autoCreateSession(true).build();
      Content content = Content.builder().role("user").parts(List.of(Part.fromText(text))).build();
      List<Event> events =
          runner.runAsync(userId, sessionId, content, config, delta).toList().blockingGet();
      String answer = "";
      for (Event e : events) {
        if (!e.partial().orElse(false) && !"user".equals(e.author())) {
          String t = e.stringifyContent();
          if (!t.isEmpty()) {
            answer = t;
          }
        }
      }
      Session session =
          runner
              .sessionService()
              .getSession(
                  runner.appName(),
                  userId,
                  sessionId,
                  Optional.of(GetSessionConfig.builder().numRecentEvents(0).build()))
              .blockingGet();
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("sessionId", sessionId);
      out.put("userId", userId);
      out.put("answer", answer);
      out.put(
          "state",
          session == null ? Map.of() : new LinkedHashMap<>(State.redacted(session.state())));
      return McpSchema.CallToolResult.builder()
          .addTextContent(answer)
          .structuredContent(out)
          .isError(false)
          .build();
    } catch (IllegalArgumentException bad) {
      return error(String.valueOf(bad.getMessage()));
    } catch (RuntimeException failed) {
      McpConnection.log.warn("Agent '{}' failed serving an MCP call", tool.name(), failed);
      return error("Agent '" + tool.name() + "' failed: " + McpConnection.describe(failed));
    }
  }

  private static @Nullable String optionalString(Map<String, Object> args, String name) {
    Object v = args.get(name);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s) || s.isBlank()) {
      throw new IllegalArgumentException(
          "Argument '" + name + "' must be a non-empty string, got " + describe(v));
    }
    return s;
  }

  private static @Nullable Map<String, Object> stateDelta(@Nullable Object state) {
    if (state == null) {
      return null;
    }
    if (!(state instanceof Map<?, ?> map)) {
      throw new IllegalArgumentException(
          "Argument 'state' must be an object, got " + describe(state));
    }
    Map<String, Object> delta = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String key = String.valueOf(e.getKey());
      Scope.checkKey(key);
      if (key.startsWith(State.APP_PREFIX) || key.startsWith(State.SECRET_PREFIX)) {
        throw new IllegalArgumentException(
            "Argument 'state' may not set '"
                + key
                + "': app: and secret: keys are not set by MCP clients");
      }
      delta.put(key, e.getValue());
    }
    return delta;
  }

  private static McpSchema.CallToolResult error(String message) {
    return McpSchema.CallToolResult.builder().addTextContent(message).isError(true).build();
  }

  private static String describe(@Nullable Object v) {
    return v == null ? "nothing" : v.getClass().getSimpleName() + " " + v;
  }
}
