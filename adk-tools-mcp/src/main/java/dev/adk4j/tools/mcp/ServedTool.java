package dev.adk4j.tools.mcp;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One adk4j tool served as an MCP tool: a call runs the tool with a {@link ToolContext} on a
 * session of the runner's app and stores the call and its response as two events of that session,
 * the response carrying the tool's state writes, as an agent's tool call would.
 */
final class ServedTool {
  static final String SESSION_ID = "sessionId";
  static final String USER_ID = "userId";

  private final BaseTool tool;
  private final Runner runner;
  private final String defaultUserId;
  private final McpSchema.Tool mcpTool;

  ServedTool(BaseTool tool, Runner runner, String defaultUserId) {
    this.tool = tool;
    this.runner = runner;
    this.defaultUserId = defaultUserId;
    Map<String, Object> schema = inputSchema(tool);
    this.mcpTool =
        McpSchema.Tool.builder()
            .name(tool.name())
            .description(
                tool.description()
                    + " (adk4j: pass sessionId to use a conversation's state; userId names the"
                    + " user.)")
            .inputSchema(schema)
            .build();
  }

  McpSchema.Tool tool() {
    return mcpTool;
  }

  /** The tool's parameters as JSON Schema, plus the optional sessionId and userId. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> inputSchema(BaseTool tool) {
    Map<String, Object> schema = new LinkedHashMap<>();
    FunctionDeclaration d = tool.declaration().orElse(null);
    if (d != null && d.parametersJsonSchema().isPresent()) {
      schema.putAll((Map<String, Object>) Json.copy(d.parametersJsonSchema().get()));
    } else if (d != null && d.parameters().isPresent()) {
      Object genai = Json.fromJson(Json.toJson(d.parameters().get()), Map.class);
      schema.putAll((Map<String, Object>) lowerTypes(genai));
    }
    schema.put("type", "object");
    Map<String, Object> props =
        new LinkedHashMap<>(
            schema.get("properties") instanceof Map<?, ?> p
                ? (Map<String, Object>) p
                : Map.<String, Object>of());
    for (String reserved : List.of(SESSION_ID, USER_ID)) {
      if (props.containsKey(reserved)) {
        throw new IllegalArgumentException(
            "Tool '"
                + tool.name()
                + "' has a parameter named '"
                + reserved
                + "', which McpAgentServer reserves for the session");
      }
    }
    props.put(
        SESSION_ID,
        Map.of("type", "string", "description", "The conversation whose state the tool uses"));
    props.put(USER_ID, Map.of("type", "string", "description", "The user"));
    schema.put("properties", props);
    return schema;
  }

  /** genai's schema JSON (types in upper case) as JSON Schema. */
  private static @Nullable Object lowerTypes(@Nullable Object node) {
    if (node instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        String key = String.valueOf(e.getKey());
        Object v = e.getValue();
        if (key.equals("type") && v instanceof String s) {
          out.put(key, s.toLowerCase(Locale.ROOT));
        } else if (!key.equals("nullable")) {
          out.put(key, lowerTypes(v));
        }
      }
      return out;
    }
    if (node instanceof List<?> list) {
      List<Object> out = new ArrayList<>();
      list.forEach(o -> out.add(lowerTypes(o)));
      return out;
    }
    return node;
  }

  McpSchema.CallToolResult call(McpSchema.CallToolRequest request) {
    Map<String, Object> args =
        new LinkedHashMap<>(request.arguments() == null ? Map.of() : request.arguments());
    try {
      String userId = take(args, USER_ID);
      String sessionId = take(args, SESSION_ID);
      String user = userId == null ? defaultUserId : userId;
      Session session = null;
      if (sessionId != null) {
        session =
            runner
                .sessionService()
                .getSession(runner.appName(), user, sessionId, Optional.empty())
                .blockingGet();
      }
      if (session == null) {
        session =
            runner
                .sessionService()
                .createSession(runner.appName(), user, null, sessionId)
                .blockingGet();
      }
      InvocationContext ctx =
          InvocationContext.builder()
              .sessionService(runner.sessionService())
              .artifactService(runner.artifactService())
              .memoryService(runner.memoryService())
              .agent(runner.agent())
              .session(session)
              .build();
      String callId = "mcp-" + UUID.randomUUID();
      String author = runner.agent().name();
      ctx.persist(
          Event.builder()
              .invocationId(ctx.invocationId())
              .author(author)
              .content(
                  Content.builder()
                      .role("model")
                      .parts(
                          List.of(
                              Part.builder()
                                  .functionCall(
                                      FunctionCall.builder()
                                          .id(callId)
                                          .name(tool.name())
                                          .args(args)
                                          .build())
                                  .build()))
                      .build())
              .build());
      ToolContext tc = new ToolContext(ctx, callId);
      Map<String, Object> response;
      boolean failed = false;
      try {
        response = tool.runAsync(args, tc).blockingGet();
        // A FunctionTool answers its own failures (writes discarded) with {"error": "..."}.
        failed = response.size() == 1 && response.get("error") instanceof String;
      } catch (RuntimeException e) {
        tc.state().discard();
        response =
            Map.of("error", "Tool '" + tool.name() + "' failed: " + McpConnection.describe(e));
        failed = true;
      }
      ctx.persist(
          Event.builder()
              .invocationId(ctx.invocationId())
              .author(author)
              .content(
                  Content.builder()
                      .role("user")
                      .parts(
                          List.of(
                              Part.builder()
                                  .functionResponse(
                                      FunctionResponse.builder()
                                          .id(callId)
                                          .name(tool.name())
                                          .response(response)
                                          .build())
                                  .build()))
                      .build())
              .actions(tc.actions())
              .build());
      Map<String, Object> out = new LinkedHashMap<>(response);
      if (sessionId == null) {
        out.put(SESSION_ID, session.id()); // the new session's id, for the next call
      }
      McpSchema.CallToolResult.Builder result =
          McpSchema.CallToolResult.builder().addTextContent(Json.toJson(response)).isError(failed);
      if (!failed) {
        result.structuredContent(out);
      }
      return result.build();
    } catch (RuntimeException e) {
      return McpSchema.CallToolResult.builder()
          .addTextContent("Tool '" + tool.name() + "' failed: " + McpConnection.describe(e))
          .isError(true)
          .build();
    }
  }

  private static @Nullable String take(Map<String, Object> args, String name) {
    Object v = args.remove(name);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s) || s.isBlank()) {
      throw new IllegalArgumentException("Argument '" + name + "' must be a non-empty string");
    }
    return s;
  }
}
