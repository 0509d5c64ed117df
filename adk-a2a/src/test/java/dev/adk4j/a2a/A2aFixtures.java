package dev.adk4j.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.FunctionTool;
import io.reactivex.rxjava3.core.Maybe;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Agents, servers and raw JSON-RPC calls shared by the A2A tests. */
final class A2aFixtures {
  private A2aFixtures() {}

  enum Backend {
    MEMORY,
    SQLITE,
    POSTGRES
  }

  static BaseSessionService sessions(Backend backend, Path dir, SharedEmbeddedPostgres pg)
      throws SQLException {
    return switch (backend) {
      case MEMORY -> new InMemorySessionService();
      case SQLITE ->
          new DatabaseSessionService(
              "jdbc:sqlite:" + dir.resolve("s-" + System.nanoTime() + ".db"));
      case POSTGRES -> new DatabaseSessionService(pg.newMigratedDatabase());
    };
  }

  /** A tool of the helper, so that its card lists a tool skill. */
  public static final class Weather {
    @dev.adk4j.tools.Annotations.Schema(
        name = "forecast",
        description = "Tells the weather of a city.")
    public Map<String, Object> forecast(
        @dev.adk4j.tools.Annotations.Schema(name = "city") String city) {
      return Map.of("city", city, "sky", "clear");
    }
  }

  /**
   * The remote agent of most tests: counts its turns in session state ({@code turns}, through a
   * before-agent callback) and answers {@code "turn <n>: <what the user said>"}.
   */
  static LlmAgent helper() {
    return LlmAgent.builder()
        .name("helper")
        .description("Answers with the turn number of the conversation.")
        .instruction("{turns}")
        .model(
            ScriptedLlm.answering(
                req ->
                    ScriptedLlm.textResponse(
                        "turn "
                            + ScriptedLlm.instruction(req).trim()
                            + ": "
                            + ScriptedLlm.userText(req))))
        .tools(FunctionTool.create(new Weather(), "forecast"))
        .beforeAgentCallback(
            cc -> {
              cc.state().increment("turns", 1);
              return Maybe.empty();
            })
        .build();
  }

  static A2aServer serve(BaseAgent agent, BaseSessionService sessions) throws IOException {
    Runner runner = new Runner(agent, "remote-app", null, sessions);
    A2aServer server = A2aServer.builder().runner(runner).build();
    server.start("127.0.0.1", 0);
    return server;
  }

  static Session remoteSession(BaseSessionService sessions, String contextId) {
    return sessions.getSession("remote-app", "a2a-user", contextId, Optional.empty()).blockingGet();
  }

  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  /** POSTs one JSON-RPC request and returns the whole response. */
  static JsonNode rpc(URI url, String method, JsonNode params) throws Exception {
    ObjectNode req = A2aWire.NODES.objectNode();
    req.put("jsonrpc", "2.0").put("id", 7).put("method", method).set("params", params);
    return post(url, req.toString(), Map.of());
  }

  static JsonNode post(URI url, String body, Map<String, String> headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(url)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(b::header);
    HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      return A2aWire.NODES.objectNode().put("httpStatus", r.statusCode());
    }
    return A2aWire.JSON.readTree(r.body());
  }

  static ObjectNode userMessage(String text, String contextId, String taskId) {
    ObjectNode params = A2aWire.NODES.objectNode();
    params.set("message", A2aWire.message("user", A2aWire.textParts(text), contextId, taskId));
    return params;
  }

  static String lastText(List<Event> events) {
    String text = "";
    for (Event e : events) {
      if (!e.stringifyContent().isEmpty()) {
        text = e.stringifyContent();
      }
    }
    return text;
  }
}
