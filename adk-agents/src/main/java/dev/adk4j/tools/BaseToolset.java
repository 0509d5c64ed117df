package dev.adk4j.tools;

import dev.adk4j.agents.ReadonlyContext;
import io.reactivex.rxjava3.core.Flowable;

/**
 * A set of tools whose members are known only at run time, such as the tools an MCP server offers
 * ({@code dev.adk4j.tools.mcp.McpToolset} in {@code adk-tools-mcp}). Give it to an agent with
 * {@link dev.adk4j.agents.LlmAgent.Builder#toolsets} or ADK's {@code tools(Object...)}.
 *
 * <p>An {@link dev.adk4j.agents.LlmAgent} asks its toolsets for their tools at every model call it
 * prepares, so a set that changes between turns (or between two steps of one turn) is seen as it is
 * then; the calls of that model response run against the tools listed for it. A tool's name must
 * not be used by another tool of the agent: the step fails with an {@link IllegalStateException}
 * naming both.
 *
 * <p>{@link #close()} releases what the set holds (connections, child processes); a {@code Runner}
 * closes the toolsets of its agent tree when it is closed. Implementations are thread-safe: one set
 * serves every invocation of its agent.
 */
public interface BaseToolset extends AutoCloseable {

  /**
   * The tools offered now. {@code context} is for reading (state, the user's message): a toolset
   * may choose tools per user or session.
   */
  Flowable<BaseTool> getTools(ReadonlyContext context);

  /** Releases the set's resources; closing twice does nothing more. The default does nothing. */
  @Override
  default void close() {}
}
