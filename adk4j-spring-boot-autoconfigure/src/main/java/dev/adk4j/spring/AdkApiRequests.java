package dev.adk4j.spring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.sun.net.httpserver.HttpHandler;
import dev.adk4j.artifacts.BaseArtifactService;
import dev.adk4j.server.AdkServer;
import dev.adk4j.sessions.BaseSessionService;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

/**
 * What the Spring MVC ({@link AdkApiHandler}) and WebFlux ({@link ReactiveApiHandler}) ways of
 * serving the ADK API share, free of either stack's types (a WebFlux application has no servlet
 * API): adk-server's handler built from the properties, the base path, the users a request names,
 * and the small bodies the bridges answer themselves.
 */
final class AdkApiRequests {
  private static final ObjectMapper JSON = new ObjectMapper();

  private AdkApiRequests() {}

  /** adk-server's handler for the runners and services, with the server properties' policy. */
  static HttpHandler serverHandler(
      AdkRunners runners,
      BaseSessionService sessions,
      BaseArtifactService artifacts,
      Adk4jProperties.Server s,
      ObjectProvider<SessionWaits> waits) {
    AdkServer.ClientPolicy policy =
        AdkServer.ClientPolicy.defaults()
            .appState(s.isAllowAppStateWrites())
            .secretState(s.isAllowSecretStateWrites())
            .modelContent(s.isAllowModelContent());
    return AdkServer.handler(
        runners.asMap(),
        sessions,
        artifacts,
        policy,
        s.isDebug(),
        wait -> waits.ifAvailable(w -> w.accept(wait)));
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
