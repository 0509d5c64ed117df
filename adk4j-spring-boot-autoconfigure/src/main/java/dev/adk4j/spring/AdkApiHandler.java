package dev.adk4j.spring;

import com.sun.net.httpserver.HttpHandler;
import dev.adk4j.server.AdkServer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import org.springframework.web.HttpRequestHandler;

/**
 * Serves adk-server's handler ({@link AdkServer#handler}) in Spring MVC under a base path: strips
 * the context and base path, keeps the dev UI out unless enabled, and, when the application has
 * Spring Security, lets a request reach a user's sessions (a path {@code .../users/{user}/...}, or
 * a run whose body names {@code userId}) only as that user: the authenticated principal's name must
 * equal the user id, else 403.
 */
final class AdkApiHandler implements HttpRequestHandler {
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

  @Override
  public void handleRequest(HttpServletRequest req, HttpServletResponse res) throws IOException {
    String prefix = req.getContextPath() + basePath;
    String raw = req.getRequestURI();
    String path = raw.startsWith(prefix) ? raw.substring(prefix.length()) : raw;
    if (path.isEmpty()) {
      path = "/";
    }
    List<String> seg = AdkApiRequests.segments(path);
    boolean uiPath = seg.isEmpty() || seg.get(0).equals("dev-ui");
    if (uiPath && !devUi) {
      send(res, 404, "the dev UI is off; set adk4j.server.dev-ui=true to serve it");
      return;
    }
    if (devUi && seg.equals(List.of("dev-ui", "assets", "config", "runtime-config.json"))) {
      // The UI calls the API at backendUrl: here, under the base path.
      res.setStatus(200);
      res.setContentType("application/json");
      res.getOutputStream().write(AdkApiRequests.runtimeConfig(prefix));
      return;
    }
    InputStream body = req.getInputStream();
    if (checkUser) {
      Principal principal = req.getUserPrincipal();
      String who = principal == null ? null : principal.getName();
      List<String> users = new ArrayList<>();
      String pathUser = AdkApiRequests.pathUser(seg);
      if (pathUser != null) {
        users.add(pathUser);
      }
      if (AdkApiRequests.isRun(seg)) {
        byte[] head = body.readNBytes(AdkServer.DEFAULT_MAX_BODY_BYTES + 1);
        users.addAll(AdkApiRequests.bodyUsers(head));
        body = new SequenceInputStream(new ByteArrayInputStream(head), body);
      }
      String refused = AdkApiRequests.refusal(who, users);
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

  private static void send(HttpServletResponse res, int status, String message) throws IOException {
    res.setStatus(status);
    res.setContentType("application/json");
    res.getOutputStream().write(AdkApiRequests.errorBody(message));
  }
}
