package dev.adk4j.tools.mcp;

import com.google.genai.types.FunctionDeclaration;
import dev.adk4j.internal.Json;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.modelcontextprotocol.spec.McpSchema;
import io.reactivex.rxjava3.core.Single;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/** One tool of an MCP server, as an agent's tool: its schema for the model, its calls forwarded. */
final class McpTool extends BaseTool {
  private final McpSchema.Tool tool;
  private final McpConnection connection;
  private final int maxResultBytes;
  private final FunctionDeclaration declaration;

  McpTool(McpSchema.Tool tool, McpConnection connection, int maxResultBytes) {
    super(tool.name(), tool.description() == null ? "" : tool.description());
    this.tool = tool;
    this.connection = connection;
    this.maxResultBytes = maxResultBytes;
    FunctionDeclaration.Builder d =
        FunctionDeclaration.builder()
            .name(tool.name())
            .description(description())
            .parametersJsonSchema(tool.inputSchema());
    this.declaration = d.build();
  }

  McpSchema.Tool mcpTool() {
    return tool;
  }

  @Override
  public Optional<FunctionDeclaration> declaration() {
    return Optional.of(declaration);
  }

  @Override
  public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
    return Single.fromCallable(() -> call(args));
  }

  private Map<String, Object> call(Map<String, Object> args) {
    McpSchema.CallToolResult result = connection.callTool(name(), args);
    if (Boolean.TRUE.equals(result.isError())) {
      throw new McpException(
          "MCP tool '"
              + name()
              + "' of server "
              + connection.endpoint()
              + " reported an error: "
              + McpResults.errorText(result));
    }
    Map<String, Object> response = McpResults.toResponse(result);
    int bytes = Json.toJson(response).getBytes(StandardCharsets.UTF_8).length;
    if (bytes > maxResultBytes) {
      throw new McpException(
          "MCP tool '"
              + name()
              + "' of server "
              + connection.endpoint()
              + " returned "
              + bytes
              + " bytes of JSON, more than maxResultBytes ("
              + maxResultBytes
              + "); the result was dropped");
    }
    return response;
  }
}
