package dev.adk4j.tools.mcp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * MCP's streamable HTTP transport, stateless, on the JDK's HTTP server: each POST carries one
 * JSON-RPC message; a request is answered with its JSON-RPC response as {@code application/json}, a
 * notification or response with 202. No session ids and no server-initiated streams (GET and DELETE
 * are 405), which the protocol allows and clients handle.
 */
final class HttpStatelessTransport implements McpStatelessServerTransport {
  static final int MAX_BODY = 4 * 1024 * 1024;

  private final McpJsonMapper json;
  private final @Nullable String bearerToken;
  private volatile @Nullable McpStatelessServerHandler handler;

  HttpStatelessTransport(McpJsonMapper json, @Nullable String bearerToken) {
    this.json = json;
    this.bearerToken = bearerToken;
  }

  @Override
  public void setMcpHandler(McpStatelessServerHandler handler) {
    this.handler = handler;
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.empty();
  }

  void register(HttpServer server, String path) {
    server.createContext(path, this::handle);
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      if (!authorized(ex)) {
        ex.getResponseHeaders().set("WWW-Authenticate", "Bearer");
        send(ex, 401, "text/plain", "missing or wrong bearer token");
        return;
      }
      if (!"POST".equals(ex.getRequestMethod())) {
        ex.getResponseHeaders().set("Allow", "POST");
        send(ex, 405, "text/plain", "this MCP endpoint is stateless: POST only");
        return;
      }
      byte[] body;
      try (InputStream in = ex.getRequestBody()) {
        body = in.readNBytes(MAX_BODY + 1);
      }
      if (body.length > MAX_BODY) {
        send(ex, 413, "text/plain", "a message may have at most " + MAX_BODY + " bytes");
        return;
      }
      McpSchema.JSONRPCMessage message;
      try {
        message =
            McpSchema.deserializeJsonRpcMessage(json, new String(body, StandardCharsets.UTF_8));
      } catch (IOException | IllegalArgumentException e) {
        sendJson(
            ex,
            400,
            Map.of(
                "jsonrpc",
                "2.0",
                "error",
                Map.of("code", -32700, "message", "Not a JSON-RPC message: " + e.getMessage())));
        return;
      }
      McpStatelessServerHandler h = handler;
      if (h == null) {
        send(ex, 503, "text/plain", "the MCP server is not ready");
        return;
      }
      McpTransportContext context = McpTransportContext.EMPTY;
      if (message instanceof McpSchema.JSONRPCRequest request) {
        McpSchema.JSONRPCResponse response = h.handleRequest(context, request).block();
        sendJson(ex, 200, response);
      } else if (message instanceof McpSchema.JSONRPCNotification notification) {
        h.handleNotification(context, notification).block();
        send(ex, 202, null, "");
      } else {
        send(ex, 202, null, "");
      }
    } catch (RuntimeException e) {
      McpConnection.log.warn("MCP HTTP request failed", e);
    }
  }

  private boolean authorized(HttpExchange ex) {
    String token = bearerToken;
    if (token == null) {
      return true;
    }
    String header = ex.getRequestHeaders().getFirst("Authorization");
    byte[] expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    byte[] given = header == null ? new byte[0] : header.getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(expected, given);
  }

  private void sendJson(HttpExchange ex, int status, @Nullable Object value) throws IOException {
    send(ex, status, "application/json", json.writeValueAsString(value));
  }

  private static void send(HttpExchange ex, int status, @Nullable String type, String text)
      throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (type != null) {
      ex.getResponseHeaders().set("Content-Type", type);
    }
    if (bytes.length == 0) {
      ex.sendResponseHeaders(status, -1);
      return;
    }
    ex.sendResponseHeaders(status, bytes.length);
    ex.getResponseBody().write(bytes);
  }
}
