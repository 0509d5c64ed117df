package dev.adk4j.tools.mcp;

import com.sun.net.httpserver.HttpServer;
import dev.adk4j.internal.Json;
import dev.adk4j.runner.Runner;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;

/**
 * adk4j agents (and chosen tools) served to MCP clients (IDEs, other agent frameworks): each agent
 * is one MCP tool, named after the agent, that runs one invocation through its {@link Runner}; each
 * tool given to {@link Builder#tools} is one MCP tool too.
 *
 * <p>A call takes {@code message} (required), {@code sessionId} (go on with that conversation; a
 * new session when absent, created when unknown), {@code userId} (a default when absent) and {@code
 * state} (session and {@code user:} keys set before the agent runs, through the user message's
 * delta; {@code app:} and {@code secret:} keys are refused). It answers with the agent's last text
 * as text content, and as structured content {@code {sessionId, userId, answer, state}}: the
 * session's state after the invocation ({@code secret:} values shown as {@code ***}). What the
 * agent, its tools and callbacks write is stored in the session as in any invocation. A failed
 * invocation or a bad argument is an {@code isError} result naming what went wrong.
 *
 * <p>Transports: {@link #serveStdio} (the process's stdin and stdout, for clients that start it as
 * a command) and {@link #serveHttp} (streamable HTTP, stateless: one JSON answer per POST, on the
 * JDK's HTTP server, optionally behind a bearer token).
 */
public final class McpAgentServer implements AutoCloseable {
  private final String name;
  private final String version;
  private final List<Served> tools;
  private final @Nullable String bearerToken;
  private final McpJsonMapper json = new JacksonMcpJsonMapper(Json.newMapper());
  private final List<AutoCloseable> running = new ArrayList<>();
  private @Nullable HttpServer http;

  /** One MCP tool and what answers its calls. */
  private record Served(
      McpSchema.Tool tool,
      java.util.function.Function<McpSchema.CallToolRequest, McpSchema.CallToolResult> handler) {}

  private McpAgentServer(Builder b) {
    this.name = b.name;
    this.version = b.version;
    this.bearerToken = b.bearerToken;
    List<Served> list = new ArrayList<>();
    for (Runner r : b.runners) {
      AgentRunTool t = new AgentRunTool(r, b.defaultUserId);
      list.add(new Served(t.tool(), t::call));
    }
    for (Map.Entry<dev.adk4j.tools.BaseTool, Runner> e : b.tools.entrySet()) {
      ServedTool t = new ServedTool(e.getKey(), e.getValue(), b.defaultUserId);
      list.add(new Served(t.tool(), t::call));
    }
    java.util.Set<String> names = new java.util.HashSet<>();
    for (Served s : list) {
      if (!names.add(s.tool().name())) {
        throw new IllegalArgumentException(
            "Two agents or tools named '" + s.tool().name() + "': MCP tool names must be distinct");
      }
    }
    if (list.isEmpty()) {
      throw new IllegalStateException(
          "An McpAgentServer needs at least one agent or tool: agent(runner), tools(runner, ...)");
    }
    this.tools = List.copyOf(list);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The names of the MCP tools served, one per agent. */
  public List<String> toolNames() {
    return tools.stream().map(t -> t.tool().name()).toList();
  }

  /**
   * Serves over streamable HTTP at {@code http://host:port/mcp}; returns once listening.
   *
   * @param port 0 for any free port (see {@link #port()})
   */
  public synchronized McpAgentServer serveHttp(String host, int port) {
    if (http != null) {
      throw new IllegalStateException("Already serving HTTP on port " + port());
    }
    HttpStatelessTransport transport = new HttpStatelessTransport(json, bearerToken);
    McpServer.StatelessSyncSpecification spec =
        McpServer.sync(transport)
            .serverInfo(name, version)
            .jsonMapper(json)
            .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build());
    for (Served t : tools) {
      spec.toolCall(t.tool(), (ctx, request) -> t.handler().apply(request));
    }
    McpStatelessSyncServer server = spec.build();
    try {
      HttpServer s = dev.adk4j.internal.HttpServers.create(new InetSocketAddress(host, port), 0);
      transport.register(s, "/mcp");
      s.setExecutor(Executors.newCachedThreadPool());
      s.start();
      http = s;
    } catch (IOException e) {
      server.close();
      throw new UncheckedIOException("Could not serve MCP on " + host + ":" + port, e);
    }
    running.add(server::close);
    return this;
  }

  /** The HTTP port being served. */
  public synchronized int port() {
    HttpServer s = http;
    if (s == null) {
      throw new IllegalStateException("Not serving HTTP");
    }
    return s.getAddress().getPort();
  }

  /**
   * Serves over {@code in} and {@code out} (a process's {@code System.in} and {@code System.out}),
   * until {@code in} ends; blocks until then. Nothing else may write to {@code out}: send logs to
   * stderr.
   */
  public void serveStdio(InputStream in, OutputStream out) throws InterruptedException {
    CountDownLatch ended = new CountDownLatch(1);
    InputStream watched =
        new FilterInputStream(in) {
          @Override
          public int read() throws IOException {
            int b = super.read();
            if (b < 0) {
              ended.countDown();
            }
            return b;
          }

          @Override
          public int read(byte[] buf, int off, int len) throws IOException {
            try {
              int n = super.read(buf, off, len);
              if (n < 0) {
                ended.countDown();
              }
              return n;
            } catch (IOException e) {
              ended.countDown();
              throw e;
            }
          }
        };
    StdioServerTransportProvider transport = new StdioServerTransportProvider(json, watched, out);
    McpServer.SyncSpecification<?> spec =
        McpServer.sync(transport)
            .serverInfo(name, version)
            .jsonMapper(json)
            .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build());
    for (Served t : tools) {
      spec.toolCall(t.tool(), (exchange, request) -> t.handler().apply(request));
    }
    McpSyncServer server = spec.build();
    try {
      ended.await();
    } finally {
      server.close();
    }
  }

  /** Stops serving HTTP; the runners stay open (they belong to the caller). */
  @Override
  public synchronized void close() {
    HttpServer s = http;
    if (s != null) {
      s.stop(0);
      http = null;
    }
    for (AutoCloseable c : running) {
      try {
        c.close();
      } catch (Exception e) {
        McpConnection.log.debug("Closing the MCP server failed", e);
      }
    }
    running.clear();
  }

  /** Builds an {@link McpAgentServer}. */
  public static final class Builder {
    private final List<Runner> runners = new ArrayList<>();
    private final Map<dev.adk4j.tools.BaseTool, Runner> tools = new java.util.LinkedHashMap<>();
    private String name = "adk4j";
    private String version = "0.1.0";
    private String defaultUserId = "mcp-user";
    private @Nullable String bearerToken;

    private Builder() {}

    /** Serves {@code runner}'s agent as a tool named after it, on the runner's app and services. */
    public Builder agent(Runner runner) {
      runners.add(Objects.requireNonNull(runner, "runner"));
      return this;
    }

    /**
     * Serves each of {@code tools} (a {@code FunctionTool}, or any tool with a declaration) as an
     * MCP tool of its name and parameters, plus optional {@code sessionId} and {@code userId}
     * arguments: a call runs the tool with a {@code ToolContext} on that session of {@code
     * runner}'s app (a new session when absent, created when unknown) and stores the call and its
     * response, with the tool's state writes, as two events of the session, authored by the
     * runner's agent. The result is the tool's response (text: its JSON; structured: it, plus the
     * new {@code sessionId} when the call named none); a tool that throws gives an {@code isError}
     * result, its writes discarded.
     *
     * @throws IllegalArgumentException (at {@link #build()}) if a tool has a parameter named {@code
     *     sessionId} or {@code userId}
     */
    public Builder tools(Runner runner, dev.adk4j.tools.BaseTool... tools) {
      Objects.requireNonNull(runner, "runner");
      for (dev.adk4j.tools.BaseTool t : tools) {
        this.tools.put(Objects.requireNonNull(t, "tool"), runner);
      }
      return this;
    }

    /** The server's name and version in MCP's {@code initialize} answer. */
    public Builder serverInfo(String name, String version) {
      this.name = Objects.requireNonNull(name, "name");
      this.version = Objects.requireNonNull(version, "version");
      return this;
    }

    /** The user of calls that name none; {@code mcp-user} by default. */
    public Builder defaultUserId(String userId) {
      this.defaultUserId = Objects.requireNonNull(userId, "userId");
      return this;
    }

    /** Over HTTP, refuses (401) requests without {@code Authorization: Bearer <token>}. */
    public Builder bearerToken(String token) {
      this.bearerToken = Objects.requireNonNull(token, "token");
      return this;
    }

    /**
     * @throws IllegalStateException without any agent
     * @throws IllegalArgumentException if two agents have one name
     */
    public McpAgentServer build() {
      return new McpAgentServer(this);
    }
  }
}
