package dev.adk4j.tools.mcp;

import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where an MCP server is: a command to start (stdio) or a URL (streamable HTTP) with its headers.
 * Makes a fresh transport for each session.
 */
final class McpEndpoint {
  private final @Nullable List<String> command;
  private final Map<String, String> env;
  private final @Nullable String url;
  private final Map<String, String> headers;

  private McpEndpoint(
      @Nullable List<String> command,
      Map<String, String> env,
      @Nullable String url,
      Map<String, String> headers) {
    this.command = command;
    this.env = env;
    this.url = url;
    this.headers = headers;
  }

  static McpEndpoint stdio(List<String> command, Map<String, String> env) {
    if (command.isEmpty() || command.get(0).isBlank()) {
      throw new IllegalArgumentException("An MCP stdio server needs a command, got " + command);
    }
    return new McpEndpoint(List.copyOf(command), Map.copyOf(env), null, Map.of());
  }

  static McpEndpoint http(String url, Map<String, String> headers) {
    java.net.URI uri;
    try {
      uri = java.net.URI.create(url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Not a URL for an MCP server: '" + url + "'", e);
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
      throw new IllegalArgumentException(
          "An MCP streamable HTTP server needs an http or https URL, got '" + url + "'");
    }
    return new McpEndpoint(null, Map.of(), url, Map.copyOf(headers));
  }

  /**
   * Why the stdio command cannot be started (no such program on the PATH, or not an executable
   * file), or null if it can or this is an HTTP endpoint. Checked before starting it: the SDK only
   * notices a command that does not start when {@code initialize} times out.
   */
  @Nullable String unstartable() {
    List<String> cmd = command;
    if (cmd == null) {
      return null;
    }
    String program = cmd.get(0);
    if (program.contains(java.io.File.separator)) {
      java.nio.file.Path p = java.nio.file.Path.of(program);
      return java.nio.file.Files.isRegularFile(p) && java.nio.file.Files.isExecutable(p)
          ? null
          : "'" + program + "' is not an executable file";
    }
    String path = System.getenv("PATH");
    if (path == null) {
      return null; // let the process start decide
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      java.nio.file.Path p = java.nio.file.Path.of(dir, program);
      if (java.nio.file.Files.isRegularFile(p) && java.nio.file.Files.isExecutable(p)) {
        return null;
      }
    }
    return "no program '" + program + "' on the PATH";
  }

  boolean isStdio() {
    return command != null;
  }

  McpClientTransport newTransport(McpJsonMapper json, Duration connectTimeout) {
    List<String> cmd = command;
    if (cmd != null) {
      ServerParameters params =
          ServerParameters.builder(cmd.get(0)).args(cmd.subList(1, cmd.size())).env(env).build();
      StdioClientTransport transport = new StdioClientTransport(params, json);
      // The server's stderr is its log, not ours to print: keep it at DEBUG.
      transport.setStdErrorHandler(
          line -> McpConnection.log.debug("MCP server {} stderr: {}", this, line));
      return transport;
    }
    String u = java.util.Objects.requireNonNull(url, "an endpoint is stdio or HTTP");
    java.net.URI uri = java.net.URI.create(u);
    String base = uri.getScheme() + "://" + uri.getRawAuthority();
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    if (uri.getRawQuery() != null) {
      path = path + "?" + uri.getRawQuery();
    }
    java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder();
    headers.forEach(request::header);
    return HttpClientStreamableHttpTransport.builder(base)
        .endpoint(path)
        .jsonMapper(json)
        .connectTimeout(connectTimeout)
        // HTTP/1.1 keep-alive: the JDK client's default, HTTP/2, sends every request on cleartext
        // with an h2c upgrade offer that MCP servers decline.
        .customizeClient(client -> client.version(java.net.http.HttpClient.Version.HTTP_1_1))
        .requestBuilder(request)
        .build();
  }

  /** The command line or the URL (headers are never shown: they may hold credentials). */
  @Override
  public String toString() {
    List<String> cmd = command;
    return cmd != null ? "'" + String.join(" ", cmd) + "' (stdio)" : "'" + url + "' (HTTP)";
  }
}
