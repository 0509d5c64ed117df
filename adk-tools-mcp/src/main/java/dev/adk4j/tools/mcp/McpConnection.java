package dev.adk4j.tools.mcp;

import dev.adk4j.internal.Json;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * One MCP session with a server at a time, reused by every call: opened (and initialized) at first
 * use, and again after the server went away (its process exited, the connection failed, or the
 * server no longer knew the session). Every request has a deadline. Thread-safe: calls share the
 * session concurrently; only opening one is serialized.
 */
final class McpConnection implements AutoCloseable {
  static final Logger log = LoggerFactory.getLogger(McpToolset.class);

  private static final McpSchema.Implementation CLIENT =
      new McpSchema.Implementation("adk4j", "0.1.0");

  /** The protocol revisions the SDK's client accepts, oldest first. */
  static final List<String> SUPPORTED_REVISIONS =
      List.of(
          io.modelcontextprotocol.spec.ProtocolVersions.MCP_2024_11_05,
          io.modelcontextprotocol.spec.ProtocolVersions.MCP_2025_03_26,
          io.modelcontextprotocol.spec.ProtocolVersions.MCP_2025_06_18,
          io.modelcontextprotocol.spec.ProtocolVersions.MCP_2025_11_25);

  private final McpEndpoint endpoint;
  private final Duration connectTimeout;
  private final Duration callTimeout;
  private final McpJsonMapper json = new JacksonMcpJsonMapper(Json.newMapper());

  private @Nullable Session current;
  private boolean closed;
  private int opened;

  /** A live session: the client, and whether its server process exited. */
  private record Session(McpAsyncClient client, Sinks.Empty<Void> exited, AtomicBoolean dead) {}

  /** A request failed because the session is gone (not because the server answered an error). */
  static final class SessionLost extends McpException {
    private static final long serialVersionUID = 1L;

    SessionLost(String message, @Nullable Throwable cause) {
      super(message, cause);
    }
  }

  McpConnection(McpEndpoint endpoint, Duration connectTimeout, Duration callTimeout) {
    this.endpoint = endpoint;
    this.connectTimeout = connectTimeout;
    this.callTimeout = callTimeout;
  }

  McpEndpoint endpoint() {
    return endpoint;
  }

  Duration callTimeout() {
    return callTimeout;
  }

  /** The protocol revision the current session agreed on with the server (opening one if none). */
  String protocolVersion() {
    McpSchema.InitializeResult init = session().client().getCurrentInitializationResult();
    return init == null ? "" : init.protocolVersion();
  }

  /** How many sessions were opened so far (the first one included). */
  synchronized int sessionsOpened() {
    return opened;
  }

  /** Every tool the server lists now, all pages; retried once on a fresh session. */
  List<McpSchema.Tool> listTools() {
    List<McpSchema.Tool> tools = new ArrayList<>();
    String cursor = null;
    boolean first = true;
    do {
      String page = cursor;
      McpSchema.ListToolsResult result =
          request("tools/list", c -> c.listTools(page), connectTimeout.plus(callTimeout), first);
      first = false;
      if (result.tools() != null) {
        tools.addAll(result.tools());
      }
      cursor = result.nextCursor();
    } while (cursor != null && !cursor.isEmpty());
    return tools;
  }

  /** Calls {@code tool}; never retried (a call may have taken effect before the failure). */
  McpSchema.CallToolResult callTool(String tool, Map<String, Object> args) {
    return request(
        "tools/call of tool '" + tool + "'",
        c -> c.callTool(new McpSchema.CallToolRequest(tool, args)),
        callTimeout,
        false);
  }

  private <T> T request(
      String what, Function<McpAsyncClient, Mono<T>> op, Duration timeout, boolean retry) {
    Session s = session();
    try {
      return run(s, what, op, timeout);
    } catch (SessionLost lost) {
      discard(s);
      if (!retry) {
        throw new McpException(String.valueOf(lost.getMessage()), lost.getCause());
      }
      log.info(
          "MCP session with server {} was lost ({}); opening a new one",
          endpoint,
          lost.getMessage());
    }
    Session fresh = session();
    try {
      return run(fresh, what, op, timeout);
    } catch (SessionLost lost) {
      discard(fresh);
      throw new McpException(String.valueOf(lost.getMessage()), lost.getCause());
    }
  }

  private <T> T run(
      Session s, String what, Function<McpAsyncClient, Mono<T>> op, Duration timeout) {
    Mono<T> call = op.apply(s.client()).timeout(timeout);
    Mono<T> exited =
        s.exited()
            .asMono()
            .then(
                Mono.error(
                    () ->
                        new SessionLost(
                            "MCP server " + endpoint + " exited during " + what + "", null)));
    try {
      T result = Mono.firstWithSignal(call, exited).block();
      if (result == null) {
        throw new SessionLost("MCP server " + endpoint + " gave no result for " + what, null);
      }
      return result;
    } catch (McpException e) {
      throw e;
    } catch (RuntimeException e) {
      throw classify(e, what, timeout);
    }
  }

  private McpException classify(RuntimeException e, String what, Duration timeout) {
    Throwable root = e;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof TimeoutException) {
        return new McpException(
            "MCP server "
                + endpoint
                + " gave no answer to "
                + what
                + " within "
                + timeout.toMillis()
                + " ms",
            e);
      }
      if (t instanceof McpError error && error.getJsonRpcError() != null) {
        McpSchema.JSONRPCResponse.JSONRPCError rpc = error.getJsonRpcError();
        return new McpException(
            "MCP server "
                + endpoint
                + " answered "
                + what
                + " with error "
                + rpc.code()
                + ": "
                + rpc.message(),
            e);
      }
      root = t;
    }
    return new SessionLost(
        "MCP server " + endpoint + " failed during " + what + ": " + describe(root), e);
  }

  static String describe(Throwable t) {
    String m = t.getMessage();
    return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }

  private synchronized Session session() {
    if (closed) {
      throw new McpException("The MCP toolset of server " + endpoint + " is closed");
    }
    Session s = current;
    if (s != null && s.dead().get()) {
      log.info("MCP server {} exited; starting it again", endpoint);
      closeQuietly(s);
      s = null;
    }
    if (s == null) {
      s = open();
      current = s;
      opened++;
    }
    return s;
  }

  private synchronized void discard(Session s) {
    if (current == s) {
      current = null;
    }
    closeQuietly(s);
  }

  private Session open() {
    String unstartable = endpoint.unstartable();
    if (unstartable != null) {
      throw new McpException("Could not connect to MCP server " + endpoint + ": " + unstartable);
    }
    McpAsyncClient client = null;
    try {
      McpClientTransport transport = endpoint.newTransport(json, connectTimeout);
      client =
          McpClient.async(transport)
              .clientInfo(CLIENT)
              // adk4j's own deadline (callTimeout) fires first, with a message naming the call.
              .requestTimeout(callTimeout.plus(connectTimeout))
              .initializationTimeout(connectTimeout)
              .build();
      client.initialize().timeout(connectTimeout).block();
      Sinks.Empty<Void> exited = Sinks.empty();
      AtomicBoolean dead = new AtomicBoolean();
      if (transport instanceof StdioClientTransport stdio) {
        Thread watch =
            new Thread(
                () -> {
                  stdio.awaitForExit();
                  dead.set(true);
                  exited.tryEmitEmpty();
                },
                "adk4j-mcp-exit-watch");
        watch.setDaemon(true);
        watch.start();
      }
      return new Session(client, exited, dead);
    } catch (RuntimeException e) {
      if (client != null) {
        try {
          client.close();
        } catch (RuntimeException ignored) {
          // already failing; the cause below says why
        }
      }
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      String why =
          root instanceof TimeoutException
              ? "no answer to initialize within " + connectTimeout.toMillis() + " ms"
              : describe(root);
      if (why.contains("protocol version")) {
        why += " (this client speaks MCP " + SUPPORTED_REVISIONS + ")";
      }
      throw new McpException("Could not connect to MCP server " + endpoint + ": " + why, e);
    }
  }

  private static void closeQuietly(Session s) {
    try {
      s.client().closeGracefully().timeout(Duration.ofSeconds(2)).onErrorComplete().block();
    } catch (RuntimeException e) {
      log.debug("Closing an MCP session gracefully failed", e);
    }
    try {
      s.client().close();
    } catch (RuntimeException e) {
      log.debug("Closing an MCP session failed", e);
    }
  }

  @Override
  public void close() {
    Session s;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      s = current;
      current = null;
    }
    if (s != null) {
      closeQuietly(s);
    }
  }
}
