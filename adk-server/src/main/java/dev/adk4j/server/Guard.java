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
 *
 * <p>The Host check ({@link ServerConfig#checkHost()}) applies to a server bound to a non-loopback
 * address, or to any server given {@code allowedHosts}: a request must name the server by an IP
 * address, a loopback name, the machine's own name, or an allowed name, so that a page on a domain
 * an attacker points at the server's address (DNS rebinding) is refused. A loopback bind accepts
 * any Host by default, so port forwarders and proxies that keep the client's Host work: the
 * browser's own rule that a public page may not reach a loopback address (Local Network Access) is
 * what stands against rebinding there. See {@code docs/server.md}, "Security".
 */
final class Guard {
  /** The cookie the dev UI carries the bearer token in, once opened with {@code ?token=}. */
  static final String TOKEN_COOKIE = "adk4j_token";

  private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");

  /** Methods a browser may send cross-origin without a preflight that change nothing. */
  private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

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
              + "' is not allowed (DNS rebinding protection): name the server by its IP address or"
              + " one of "
              + allowedHostNames()
              + ", or allow the name with --allowed-hosts (--allow-any-host: no check)");
    }
    String origin = in.getFirst("Origin");
    if (origin != null) {
      boolean cors = corsAllows(origin);
      // As ADK's servers: a cross-origin read gets no CORS headers, so the page cannot read it;
      // a cross-origin write is refused here.
      if (!cors && !SAFE_METHODS.contains(method) && !sameOrigin(origin, in)) {
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
    return LOOPBACK_NAMES.contains(name)
        || config.allowedHosts().contains(name)
        || isIpLiteral(name);
  }

  /** An IPv4 or bracketed IPv6 address: a browser's origin then is the address, not a name. */
  private static boolean isIpLiteral(String name) {
    return name.startsWith("[") || name.matches("\\d{1,3}(\\.\\d{1,3}){3}");
  }

  private String allowedHostNames() {
    List<String> names = new ArrayList<>(List.of("localhost", "127.0.0.1", "[::1]"));
    names.addAll(config.allowedHosts());
    return String.join(", ", names);
  }

  private boolean corsAllows(String origin) {
    return config.corsOrigins().contains("*") || config.corsOrigins().contains(origin);
  }

  /**
   * Whether the Origin is the server's own, as the client reached it: the Host, or the host a proxy
   * says the client asked for ({@code X-Forwarded-Host}, {@code Forwarded: host=}).
   */
  private static boolean sameOrigin(String origin, Headers in) {
    String o = origin.toLowerCase(Locale.ROOT);
    List<String> hosts = new ArrayList<>();
    String host = in.getFirst("Host");
    if (host != null) {
      hosts.add(host);
    }
    String forwardedHost = in.getFirst("X-Forwarded-Host");
    if (forwardedHost != null) {
      hosts.add(forwardedHost.split(",", 2)[0].trim());
    }
    String forwarded = in.getFirst("Forwarded");
    if (forwarded != null) {
      for (String element : forwarded.split(",", 2)[0].split(";")) {
        String[] kv = element.split("=", 2);
        if (kv.length == 2 && kv[0].trim().equalsIgnoreCase("host")) {
          hosts.add(kv[1].trim().replace("\"", ""));
        }
      }
    }
    for (String h : hosts) {
      String lower = h.toLowerCase(Locale.ROOT);
      if (o.equals("http://" + lower) || o.equals("https://" + lower)) {
        return true;
      }
    }
    return false;
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
