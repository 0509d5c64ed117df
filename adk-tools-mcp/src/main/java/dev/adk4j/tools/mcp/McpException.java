package dev.adk4j.tools.mcp;

import dev.adk4j.AdkException;
import org.jspecify.annotations.Nullable;

/**
 * An MCP server could not be reached, did not answer in time, answered with an error, or answered
 * something a tool cannot give the model. The message names the server (its command or URL) and,
 * where there is one, the tool.
 *
 * <p>Thrown by {@link McpToolset.Builder#build()} when the server cannot be started or connected
 * to; during an invocation a tool call that fails this way becomes an error function response the
 * model sees ({@code {"error": "Tool 'x' failed: McpException: ..."}}), and the invocation goes on.
 */
public class McpException extends AdkException {
  private static final long serialVersionUID = 1L;

  public McpException(String message) {
    super(message);
  }

  public McpException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
