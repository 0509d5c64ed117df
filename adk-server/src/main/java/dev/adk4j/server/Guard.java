package dev.adk4j.server;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The security checks in front of the routes: the Host header (DNS rebinding), the Origin header
 * (CORS and its preflight), and authentication (bearer token, its cookie, the authenticator).
 */
final class Guard {
  /** The cookie the dev UI carries the bearer token in, once opened with {@code ?token=}. */
  static final String TOKEN_COOKIE = "adk4j_token";

  private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");

  private final ServerConfig config;

  Guard(ServerConfig config) {
    this.config = config;
  }

  /**
   * Checks the Host and Origin headers and sets the CORS headers; answers a CORS preflight itself.
   *
   * @return false when the response was sent (a preflight), true when the request goes on
   * @throws HttpError 403 for a host or origin that is not allowed
   */
  boolean admit(HttpExchange ex, String method) throws IOException {
    Headers in = ex.getRequestHeaders();
    String host = in.getFirst("Host");
    if (config.checkHost() && !hostAllowed(host)) {
      throw new HttpError(
          403,
          "Host '"
              + host
              + "' is not allowed on a loopback bind (DNS rebinding protection); allowed: "
              + allowedHostNames());
    }
    String origin = in.getFirst("Origin");
    if (origin != null) {
      boolean cors = corsAllows(origin);
      if (!cors && !sameOrigin(origin, host)) {
        throw new HttpError(
            403,
            "cross-origin request from '"
                + origin
                + "' refused; allow the origin with the server's CORS option (--cors)");
      }
      if (cors) {
        Headers out = ex.getResponseHeaders();
        out.set("Access-Control-Allow-Origin", origin);
        out.set("Vary", "Origin");
        if ("OPTIONS".equals(method)) {
          out.set("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE, OPTIONS");
          out.set("Access-Control-Allow-Headers", "Content-Type, Authorization, Accept");
          out.set("Access-Control-Max-Age", "600");
          ex.sendResponseHeaders(204, -1);
          return false;
        }
      }
    }
    return true;
  }

  private boolean hostAllowed(@Nullable String host) {
    if (host == null) {
      return false;
    }
    String name = host.toLowerCase(Locale.ROOT);
    if (name.startsWith("[")) {
      int end = name.indexOf(']');
      name = end < 0 ? name : name.substring(0, end + 1);
    } else {
      int colon = name.lastIndexOf(':');
      name = colon < 0 ? name : name.substring(0, colon);
    }
    return LOOPBACK_NAMES.contains(name) || config.allowedHosts().contains(name);
  }

  private String allowedHostNames() {
    List<String> names = new ArrayList<>(List.of("localhost", "127.0.0.1", "[::1]"));
    names.addAll(config.allowedHosts());
    return String.join(", ", names);
  }

  private boolean corsAllows(String origin) {
    return config.corsOrigins().contains("*") || config.corsOrigins().contains(origin);
  }

  private static boolean sameOrigin(String origin, @Nullable String host) {
    if (host == null) {
      return false;
    }
    String h = host.toLowerCase(Locale.ROOT);
    String o = origin.toLowerCase(Locale.ROOT);
    return o.equals("http://" + h) || o.equals("https://" + h);
  }

  /**
   * Lets an API request through, or refuses it.
   *
   * @throws HttpError 401 without the bearer token, or when the authenticator refuses
   */
  void authenticate(String method, String path, Headers in) {
    Map<String, List<String>> headers = new HashMap<>();
    in.forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
    String expectedToken = config.bearerToken();
    if (expectedToken != null && !bearerOk(in, expectedToken)) {
      throw new HttpError(
          401,
          "authentication required: send 'Authorization: Bearer <token>' (the dev UI: open"
              + " /dev-ui/?token=<token> once)");
    }
    AdkServer.Authenticator auth = config.authenticator();
    if (auth != null && !auth.permits(method, path, Map.copyOf(headers))) {
      throw new HttpError(401, "authentication required: the server's authenticator refused");
    }
  }

  private static boolean bearerOk(Headers in, String token) {
    String authz = in.getFirst("Authorization");
    if (authz != null && authz.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return AdkServer.sameToken(authz.substring(7).trim(), token);
    }
    return AdkServer.sameToken(cookie(in, TOKEN_COOKIE), token);
  }

  private static @Nullable String cookie(Headers in, String name) {
    List<String> cookies = in.get("Cookie");
    if (cookies == null) {
      return null;
    }
    for (String header : cookies) {
      for (String c : header.split(";")) {
        String t = c.trim();
        if (t.startsWith(name + "=")) {
          return t.substring(name.length() + 1);
        }
      }
    }
    return null;
  }
}
