/**
 * Tools from Model Context Protocol servers: {@link dev.adk4j.tools.mcp.McpToolset} connects to a
 * server over stdio (a command it starts) or streamable HTTP (a URL) and offers the server's tools
 * to an {@link dev.adk4j.agents.LlmAgent}. See {@code docs/protocols.md}.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.adk4j.tools.mcp;

import org.jspecify.annotations.NullMarked;
