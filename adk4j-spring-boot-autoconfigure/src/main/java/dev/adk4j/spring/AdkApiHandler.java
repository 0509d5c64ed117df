package dev.adk4j.spring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.sun.net.httpserver.HttpHandler;
import dev.adk4j.server.AdkServer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.web.HttpRequestHandler;

/**
 * Serves adk-server's handler ({@link AdkServer#handler}) in Spring MVC under a base path: strips
 * the context and base path, keeps the dev UI out unless enabled, and, when the application has
 * Spring Security, lets a request reach a user's sessions (a path {@code .../users/{user}/...}, or
 * a run whose body names {@code userId}) only as that user: the authenticated principal's name must
 * equal the user id, else 403.
 */
final class AdkApiHandler implements HttpRequestHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpHandler api;
  private final String basePath;
  private final boolean devUi;
  private final boolean checkUser;

  /**
   * @param basePath normalized: empty or starting with {@code /}, no trailing {@code /}
   * @param checkUser whether the user ids of requests must be the principal's name
   */
  AdkApiHandler(HttpHandler api, String basePath, boolean devUi, boolean checkUser) {
    this.api = api;
    this.basePath = basePath;
    this.devUi = devUi;
    this.checkUser = checkUser;
  }

  /** {@code path} with a leading and no trailing slash, or empty for the root. */
  static String normalize(String path) {
    String p = path.trim();
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    if (!p.isEmpty() && !p.startsWith("/")) {
      p = "/" + p;
    }
    return p;
  }

  @Override
  public void handleRequest(HttpServletRequest req, HttpServletResponse res) throws IOException {
    String prefix = req.getContextPath() + basePath;
    String raw = req.getRequestURI();
    String path = raw.startsWith(prefix) ? raw.substring(prefix.length()) : raw;
    if (path.isEmpty()) {
      path = "/";
    }
    List<String> seg = segments(path);
    boolean uiPath = seg.isEmpty() || seg.get(0).equals("dev-ui");
    if (uiPath && !devUi) {
      send(res, 404, "the dev UI is off; set adk4j.server.dev-ui=true to serve it");
      return;
    }
    if (devUi && seg.equals(List.of("dev-ui", "assets", "config", "runtime-config.json"))) {
      // The UI calls the API at backendUrl: here, under the base path.
      res.setStatus(200);
      res.setContentType("application/json");
      res.getOutputStream().write(runtimeConfig(prefix));
      return;
    }
    InputStream body = req.getInputStream();
    if (checkUser) {
      Principal principal = req.getUserPrincipal();
      String who = principal == null ? null : principal.getName();
      List<String> users = new ArrayList<>();
      String pathUser = pathUser(seg);
      if (pathUser != null) {
        users.add(pathUser);
      }
      if (isRun(seg)) {
        byte[] head = body.readNBytes(AdkServer.DEFAULT_MAX_BODY_BYTES + 1);
        users.addAll(bodyUsers(head));
        body = new SequenceInputStream(new ByteArrayInputStream(head), body);
      }
      String refused = refusal(who, users);
      if (refused != null) {
        send(res, 403, refused);
        return;
      }
    }
    String query = req.getQueryString();
    URI uri;
    try {
      uri = URI.create(path + (query == null ? "" : "?" + query));
    } catch (IllegalArgumentException e) {
      send(res, 400, "bad request URI");
      return;
    }
    api.handle(new ServletExchange(req, res, uri, prefix, body));
  }

  /** The user id of {@code /apps/{app}/users/{user}/...} or {@code /dev/apps/...}, if any. */
  static @Nullable String pathUser(List<String> seg) {
    int i = !seg.isEmpty() && seg.get(0).equals("dev") ? 1 : 0;
    if (seg.size() >= i + 4 && seg.get(i).equals("apps") && seg.get(i + 2).equals("users")) {
      return seg.get(i + 3);
    }
    return null;
  }

  /** The user ids a run's body names ({@code userId}, {@code user_id}); none if not JSON. */
  static List<String> bodyUsers(byte[] body) {
    List<String> out = new ArrayList<>();
    try {
      JsonNode node = JSON.readTree(body);
      if (node != null && node.isObject()) {
        for (String field : new String[] {"userId", "user_id"}) {
          JsonNode u = node.get(field);
          if (u != null && !u.isNull()) {
            out.add(u.isTextual() ? u.asText() : u.toString());
          }
        }
      }
    } catch (IOException e) {
      // not JSON: the API refuses it with 400 before anything runs
    }
    return out;
  }

  static List<String> segments(String rawPath) {
    List<String> out = new ArrayList<>();
    for (String s : rawPath.split("/")) {
      if (!s.isEmpty()) {
        try {
          out.add(URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
          out.add(s);
        }
      }
    }
    return out;
  }

  private static void send(HttpServletResponse res, int status, String message) throws IOException {
    res.setStatus(status);
    res.setContentType("application/json");
    res.getOutputStream().write(errorBody(message));
  }

  /** The API's error body: {@code {"error": message}}. */
  static byte[] errorBody(String message) {
    try {
      return JSON.writeValueAsBytes(JsonNodeFactory.instance.objectNode().put("error", message));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The dev UI's runtime configuration: the API at {@code prefix}. */
  static byte[] runtimeConfig(String prefix) {
    try {
      return JSON.writeValueAsBytes(
          JsonNodeFactory.instance.objectNode().put("backendUrl", prefix));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Why a request may not be served to {@code who} (the principal's name, null when anonymous): the
   * first user it names that is not {@code who}, as the 403's message; null when allowed.
   */
  static @Nullable String refusal(@Nullable String who, List<String> users) {
    for (String user : users) {
      if (who == null || !who.equals(user)) {
        return who == null
            ? "user '" + user + "': no authenticated user"
            : "user '" + user + "' is not the authenticated user";
      }
    }
    return null;
  }

  /** Whether the request {@code seg} is a run, whose body names its user. */
  static boolean isRun(List<String> seg) {
    return seg.size() == 1 && (seg.get(0).equals("run") || seg.get(0).equals("run_sse"));
  }
}
