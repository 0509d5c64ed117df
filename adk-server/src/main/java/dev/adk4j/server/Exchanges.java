package dev.adk4j.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plumbing every route shares: reading a body within the size limit, JSON responses, redirects,
 * method checks, path segments and query parameters.
 */
final class Exchanges {
  private static final Logger log = LoggerFactory.getLogger(Exchanges.class);

  private Exchanges() {}

  /** The request body, refused with 413 when it is (or announces to be) larger than {@code max}. */
  static byte[] readBody(HttpExchange ex, int max) throws IOException {
    String length = ex.getRequestHeaders().getFirst("Content-Length");
    if (length != null) {
      try {
        if (Long.parseLong(length.trim()) > max) {
          throw tooLarge(max);
        }
      } catch (NumberFormatException e) {
        throw HttpError.badRequest("bad Content-Length '" + length + "'");
      }
    }
    InputStream in = ex.getRequestBody();
    byte[] bytes = in.readNBytes(max + 1);
    if (bytes.length > max) {
      throw tooLarge(max);
    }
    return bytes;
  }

  /**
   * Reads and drops what is left of a refused body (up to a bound), so that the client, still
   * sending, reads the error response instead of a reset connection.
   */
  static void discardBody(HttpExchange ex, long bound) {
    try {
      InputStream in = ex.getRequestBody();
      long skipped = 0;
      byte[] buffer = new byte[65536];
      int n;
      while (skipped < bound && (n = in.read(buffer)) > 0) {
        skipped += n;
      }
    } catch (IOException e) {
      log.debug("discarding a refused body: {}", e.toString());
    }
  }

  private static HttpError tooLarge(int max) {
    return new HttpError(413, "request body larger than the limit of " + max + " bytes");
  }

  static void requireMethod(String method, String... allowed) {
    if (!Arrays.asList(allowed).contains(method)) {
      throw methodNotAllowed(method, String.join(", ", allowed));
    }
  }

  static HttpError methodNotAllowed(String method, String allowed) {
    return new HttpError(405, "method " + method + " not allowed here; allowed: " + allowed);
  }

  static void redirect(HttpExchange ex, String to) throws IOException {
    ex.getResponseHeaders().set("Location", to);
    ex.sendResponseHeaders(302, -1);
  }

  static void sendJson(HttpExchange ex, int status, JsonNode body) throws IOException {
    byte[] bytes = Wire.bytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** The decoded, non-empty segments of a raw path. */
  static List<String> segments(String rawPath) {
    List<String> out = new ArrayList<>();
    for (String s : rawPath.split("/")) {
      if (!s.isEmpty()) {
        out.add(decode(s));
      }
    }
    return out;
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("bad percent-encoding in '" + s + "'");
    }
  }

  /** The decoded query parameters; of a repeated name, the first value. */
  static Map<String, String> query(@Nullable String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        out.putIfAbsent(
            URLDecoder.decode(k, StandardCharsets.UTF_8),
            URLDecoder.decode(v, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        throw HttpError.badRequest("bad percent-encoding in the query '" + raw + "'");
      }
    }
    return out;
  }
}
