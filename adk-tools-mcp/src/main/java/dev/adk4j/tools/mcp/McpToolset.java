package dev.adk4j.tools.mcp;

import dev.adk4j.agents.ReadonlyContext;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.BaseToolset;
import io.modelcontextprotocol.spec.McpSchema;
import io.reactivex.rxjava3.core.Flowable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The tools of one Model Context Protocol server, offered to an {@link dev.adk4j.agents.LlmAgent}:
 * {@code LlmAgent.builder().toolsets(McpToolset.builder().stdio("npx", "my-server").build())}.
 *
 * <p><b>Connecting.</b> Over stdio ({@link Builder#stdio}: a command this toolset starts, speaking
 * MCP on its standard input and output) or streamable HTTP ({@link Builder#streamableHttp}: a URL,
 * with {@link Builder#header headers} such as {@code Authorization} sent on every request). {@link
 * Builder#build()} connects and lists the tools at once, so a server that is not there fails the
 * application's start with an {@link McpException} naming the command or URL, not its first model
 * call.
 *
 * <p><b>One session, kept.</b> The MCP session opened by {@code build()} serves every call of every
 * invocation. When the server goes away (its process exits, the HTTP connection fails, the server
 * no longer knows the session), the next listing opens a new session (starting the command again);
 * a call that was under way fails. {@link #close()} (or closing the {@code Runner}) ends the
 * session and stops the server process.
 *
 * <p><b>Listing.</b> The agent asks for the tools at every model call it prepares ({@link
 * #getTools}), so tools the server adds or removes between turns are seen at the next call; while
 * the server cannot be listed (down, restarting) the tools listed last are offered, and their calls
 * fail with error responses until it is back. {@link Builder#toolFilter} keeps only some. A tool
 * whose input schema is not a usable JSON Schema (see {@code docs/protocols.md}) is left out, with
 * a warning naming the tool and the problem.
 *
 * <p><b>Calls.</b> The model's arguments are sent as they are. The function response is the
 * result's {@code structuredContent} when the server gives one (an object as it is, anything else
 * as {@code {"result": value}}); else {@code {"result": "text"}} when every content block is text
 * (several joined by newlines); else {@code {"content": [blocks]}}, each block a map with its
 * {@code type} ({@code text}, {@code image}, {@code audio}, {@code resource}, {@code
 * resource_link}) and fields. A result flagged {@code isError}, a call that takes longer than
 * {@link Builder#callTimeout}, a server that fails or exits during the call, and a response larger
 * than {@link Builder#maxResultBytes} are failures: the model gets an error response naming the
 * tool and the server, and the invocation goes on (as with a {@code FunctionTool} that throws).
 *
 * <p>Thread-safe; one toolset may serve several agents and runners.
 */
public final class McpToolset implements BaseToolset {
  private final McpConnection connection;
  private final Predicate<String> filter;
  private final int maxResultBytes;
  private final Map<String, McpTool> tools = new ConcurrentHashMap<>();
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  private McpToolset(Builder b, McpEndpoint endpoint) {
    this.connection = new McpConnection(endpoint, b.connectTimeout, b.callTimeout);
    this.filter = b.filter;
    this.maxResultBytes = b.maxResultBytes;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The server's tools now (after the filter), listed on the toolset's session: one {@code
   * tools/list} request (per page), on a new session if the server went away since the last one.
   *
   * @throws McpException if the server cannot be reached or does not answer in time
   */
  public List<BaseTool> tools() {
    List<BaseTool> result = new ArrayList<>();
    Map<String, McpTool> seen = new LinkedHashMap<>();
    for (McpSchema.Tool t : connection.listTools()) {
      if (t.name() == null || t.name().isEmpty() || !filter.test(t.name())) {
        continue;
      }
      McpTool known = tools.get(t.name());
      if (known == null || !known.mcpTool().equals(t)) {
        String problem = McpSchemas.problem(t.inputSchema());
        if (problem != null) {
          if (warned.add(t.name() + "\u0000" + t.inputSchema())) {
            McpConnection.log.warn(
                "MCP tool '{}' of server {} is left out: its input schema is not usable JSON"
                    + " Schema: {}",
                t.name(),
                connection.endpoint(),
                problem);
          }
          continue;
        }
        known = new McpTool(t, connection, maxResultBytes);
      }
      seen.put(t.name(), known);
      result.add(known);
    }
    tools.keySet().retainAll(seen.keySet());
    tools.putAll(seen);
    return result;
  }

  /**
   * The tools for a model call: {@link #tools()}, or, when the server cannot be listed now (it is
   * down or restarting), the tools listed last time, with a warning: the model still sees them, and
   * a call of one gets an error response naming the server until it is back.
   */
  @Override
  public Flowable<BaseTool> getTools(ReadonlyContext context) {
    return Flowable.defer(
        () -> {
          List<BaseTool> now;
          try {
            now = tools();
          } catch (McpException e) {
            now = new ArrayList<>(tools.values());
            McpConnection.log.warn(
                "Listing the tools of MCP server {} failed; offering the {} tools listed before: {}",
                connection.endpoint(),
                now.size(),
                e.getMessage());
          }
          return Flowable.fromIterable(now);
        });
  }

  /**
   * How many MCP sessions this toolset opened so far: 1 after {@code build()}, one more each time
   * the server went away and a new session was opened.
   */
  public int sessionsOpened() {
    return connection.sessionsOpened();
  }

  /**
   * The MCP protocol revision ({@code 2025-11-25}, ...) the toolset's session agreed on with the
   * server: the newest both support (see {@code docs/protocols.md}).
   */
  public String protocolVersion() {
    return connection.protocolVersion();
  }

  /** Ends the MCP session and stops the server's process; later listings and calls fail. */
  @Override
  public void close() {
    connection.close();
  }

  @Override
  public String toString() {
    return "McpToolset{" + connection.endpoint() + "}";
  }

  /** Builds an {@link McpToolset}: one server (stdio or HTTP), then the options. */
  public static final class Builder {
    private @Nullable McpEndpoint endpoint;
    private @Nullable List<String> command;
    private Map<String, String> env = Map.of();
    private @Nullable String url;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private Predicate<String> filter = name -> true;
    private Duration connectTimeout = Duration.ofSeconds(30);
    private Duration callTimeout = Duration.ofSeconds(60);
    private int maxResultBytes = 1024 * 1024;

    private Builder() {}

    /** A server started as {@code command args...}, speaking MCP over its stdin and stdout. */
    public Builder stdio(String command, String... args) {
      List<String> cmd = new ArrayList<>();
      cmd.add(Objects.requireNonNull(command, "command"));
      cmd.addAll(List.of(args));
      return stdio(cmd);
    }

    /** A server started as this command line (program first). */
    public Builder stdio(List<String> commandLine) {
      this.command = List.copyOf(commandLine);
      this.url = null;
      return this;
    }

    /**
     * Environment variables added to the server's process, whose environment otherwise is this
     * process's.
     */
    public Builder env(Map<String, String> env) {
      this.env = Map.copyOf(env);
      return this;
    }

    /** A server at this streamable HTTP endpoint ({@code http://host:port/mcp}). */
    public Builder streamableHttp(String url) {
      this.url = Objects.requireNonNull(url, "url");
      this.command = null;
      return this;
    }

    /** A header sent with every HTTP request, such as {@code Authorization: Bearer ...}. */
    public Builder header(String name, String value) {
      headers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
      return this;
    }

    public Builder headers(Map<String, String> headers) {
      headers.forEach(this::header);
      return this;
    }

    /** Keeps the tools whose name passes {@code byName}. */
    public Builder toolFilter(Predicate<String> byName) {
      this.filter = Objects.requireNonNull(byName, "byName");
      return this;
    }

    /** Keeps only the tools with these names (ADK's {@code toolFilter} list). */
    public Builder toolFilter(Collection<String> names) {
      Set<String> keep = Set.copyOf(names);
      return toolFilter(keep::contains);
    }

    /**
     * How long connecting (starting the process, the HTTP connection, MCP's {@code initialize}) may
     * take; 30 s by default.
     */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive(timeout, "connectTimeout");
      return this;
    }

    /** How long one tool call may take; 60 s by default. */
    public Builder callTimeout(Duration timeout) {
      this.callTimeout = positive(timeout, "callTimeout");
      return this;
    }

    /**
     * The largest function response (as UTF-8 JSON) a call may give; a larger result is a failed
     * call. 1 MiB by default, the default {@code SessionLimits} value limit, so that a callback can
     * store a whole result in state.
     */
    public Builder maxResultBytes(int bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("maxResultBytes must be > 0, got " + bytes);
      }
      this.maxResultBytes = bytes;
      return this;
    }

    /**
     * Connects to the server and lists its tools.
     *
     * @throws IllegalStateException if neither {@link #stdio} nor {@link #streamableHttp} was given
     * @throws McpException naming the command or URL if the server cannot be started, reached or
     *     initialized, or does not list its tools in time; nothing is left running then
     */
    public McpToolset build() {
      List<String> cmd = command;
      String u = url;
      if (cmd != null) {
        endpoint = McpEndpoint.stdio(cmd, env);
      } else if (u != null) {
        endpoint = McpEndpoint.http(u, headers);
      } else {
        throw new IllegalStateException(
            "An McpToolset needs a server: stdio(...) or streamableHttp(...)");
      }
      McpToolset set = new McpToolset(this, endpoint);
      try {
        set.tools();
      } catch (RuntimeException e) {
        set.close();
        throw e;
      }
      return set;
    }

    private static Duration positive(Duration d, String name) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive, got " + d);
      }
      return d;
    }
  }
}
