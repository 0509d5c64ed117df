package dev.adk4j.server;

import static dev.adk4j.server.Exchanges.query;
import static dev.adk4j.server.Exchanges.redirect;
import static dev.adk4j.server.Exchanges.sendJson;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The dev UI's static files under {@code /dev-ui/}, served from the classpath, plus its runtime
 * config and the {@code ?token=} login that sets the token cookie.
 */
final class DevUiFiles {
  private static final String UI_RESOURCES = "dev/adk4j/server/browser/";
  private static final Map<String, String> CONTENT_TYPES =
      Map.ofEntries(
          Map.entry("html", "text/html; charset=utf-8"),
          Map.entry("js", "text/javascript; charset=utf-8"),
          Map.entry("mjs", "text/javascript; charset=utf-8"),
          Map.entry("css", "text/css; charset=utf-8"),
          Map.entry("json", "application/json"),
          Map.entry("svg", "image/svg+xml"),
          Map.entry("png", "image/png"),
          Map.entry("ico", "image/x-icon"),
          Map.entry("woff2", "font/woff2"),
          Map.entry("txt", "text/plain; charset=utf-8"));

  private final ServerConfig config;

  DevUiFiles(ServerConfig config) {
    this.config = config;
  }

  /** Answers {@code GET|HEAD /dev-ui/{seg...}}. */
  void serve(HttpExchange ex, List<String> seg, @Nullable String rawQuery) throws IOException {
    Map<String, String> query = query(rawQuery);
    String token = query.get("token");
    if (seg.isEmpty() && token != null && config.bearerToken() != null) {
      if (!AdkServer.sameToken(token, config.bearerToken())) {
        throw new HttpError(401, "wrong token");
      }
      ex.getResponseHeaders()
          .add(
              "Set-Cookie",
              Guard.TOKEN_COOKIE + "=" + token + "; Path=/; HttpOnly; SameSite=Strict");
      redirect(ex, "/dev-ui/");
      return;
    }
    if (seg.equals(List.of("assets", "config", "runtime-config.json"))) {
      // The UI calls the API at backendUrl; empty: the origin it was loaded from.
      sendJson(ex, 200, Wire.MAPPER.createObjectNode().put("backendUrl", ""));
      return;
    }
    for (String s : seg) {
      if (s.equals("..") || s.equals(".") || s.contains("/") || s.contains("\\")) {
        throw HttpError.notFound("no such file");
      }
    }
    String file = seg.isEmpty() ? "index.html" : String.join("/", seg);
    InputStream in = DevUiFiles.class.getClassLoader().getResourceAsStream(UI_RESOURCES + file);
    if (in == null && (seg.isEmpty() || !seg.get(seg.size() - 1).contains("."))) {
      file = "index.html"; // a client-side route of the single-page app
      in = DevUiFiles.class.getClassLoader().getResourceAsStream(UI_RESOURCES + file);
    }
    if (in == null) {
      throw HttpError.notFound(
          file.equals("index.html")
              ? "the dev UI is not bundled in this build (adk-server's build unpacks it)"
              : "no such file: /dev-ui/" + file);
    }
    byte[] bytes;
    try (InputStream resource = in) {
      bytes = resource.readAllBytes();
    }
    String ext = file.substring(file.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    Headers h = ex.getResponseHeaders();
    h.set("Content-Type", CONTENT_TYPES.getOrDefault(ext, "application/octet-stream"));
    h.set("X-Content-Type-Options", "nosniff");
    h.set("Cache-Control", file.equals("index.html") ? "no-cache" : "max-age=3600");
    if (ex.getRequestMethod().equalsIgnoreCase("HEAD")) {
      ex.sendResponseHeaders(200, -1);
      return;
    }
    ex.sendResponseHeaders(200, bytes.length);
    ex.getResponseBody().write(bytes);
  }
}
