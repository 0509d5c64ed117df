package dev.adk4j.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A real HTTP client for a started server, with JSON helpers. */
final class ServerClient {
  static final ObjectMapper JSON = new ObjectMapper();

  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();
  final URI base;

  ServerClient(AdkServer server) {
    this.base = server.url();
  }

  HttpRequest.Builder request(String method, String path, String body, String... headers) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    if (headers.length > 0) {
      b.headers(headers);
    }
    return b;
  }

  HttpResponse<String> call(String method, String path, String body, String... headers) {
    try {
      return http.send(
          request(method, path, body, headers).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  HttpResponse<String> get(String path, String... headers) {
    return call("GET", path, null, headers);
  }

  HttpResponse<String> post(String path, String body, String... headers) {
    return call("POST", path, body, headers);
  }

  static JsonNode json(HttpResponse<String> r) {
    try {
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new AssertionError("not JSON (" + r.statusCode() + "): " + r.body(), e);
    }
  }

  /**
   * The message of an error response: ADK's {@code {"detail": "..."}}, or the {@code msg} of each
   * entry of a validation error's {@code {"detail": [...]}}.
   */
  static String detail(HttpResponse<String> r) {
    JsonNode d = json(r).get("detail");
    if (d == null) {
      throw new AssertionError("no detail (" + r.statusCode() + "): " + r.body());
    }
    if (d.isArray()) {
      StringBuilder out = new StringBuilder();
      d.forEach(e -> out.append(out.length() == 0 ? "" : "; ").append(e.get("msg").asText()));
      return out.toString();
    }
    return d.asText();
  }

  /**
   * Sends {@code POST /run_sse} with {@code body} over a raw socket (so that a test can read the
   * stream line by line, or hang up in the middle) and returns the response's reader.
   */
  static java.io.BufferedReader postRunSse(java.net.Socket socket, int port, String body)
      throws java.io.IOException {
    byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.io.OutputStream out = socket.getOutputStream();
    out.write(
        ("POST /run_sse HTTP/1.1\r\nHost: 127.0.0.1:"
                + port
                + "\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n"
                + "Content-Length: "
                + bytes.length
                + "\r\n\r\n")
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    out.write(bytes);
    out.flush();
    return new java.io.BufferedReader(
        new java.io.InputStreamReader(
            socket.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
  }

  static String runBody(String app, String user, String session, String text, boolean streaming) {
    return "{\"appName\":\""
        + app
        + "\",\"userId\":\""
        + user
        + "\",\"sessionId\":\""
        + session
        + "\",\"newMessage\":{\"role\":\"user\",\"parts\":[{\"text\":\""
        + text
        + "\"}]},\"streaming\":"
        + streaming
        + "}";
  }
}
