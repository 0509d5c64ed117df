package dev.adk4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.adk4j.server.AdkServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's server command: the example apps, on SQLite, through the REST API. */
class ExampleServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();

  private JsonNode call(URI base, String method, String path, String body) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(base.resolve(path))
                .method(
                    method,
                    body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json")
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  @Test
  void servesTheExampleAgentsOnSqlite(@TempDir Path dir) throws Exception {
    Path db = dir.resolve("server.db");
    try (AdkServer server = ExampleServer.start("--port", "0", "--store", "jdbc:sqlite:" + db)) {
      URI base = server.url();
      assertThat(call(base, "GET", "/list-apps", null).toString())
          .isEqualTo("[\"callback_state\",\"greeting\",\"pipeline\",\"tool_state\"]");

      String id = call(base, "POST", "/apps/greeting/users/u/sessions", null).get("id").asText();
      JsonNode events =
          call(
              base,
              "POST",
              "/run",
              "{\"appName\":\"greeting\",\"userId\":\"u\",\"sessionId\":\""
                  + id
                  + "\",\"newMessage\":{\"role\":\"user\",\"parts\":[{\"text\":\"Hi\"}]}}");
      assertThat(events.get(events.size() - 1).get("author").asText()).isEqualTo("Greeter");
      JsonNode session = call(base, "GET", "/apps/greeting/users/u/sessions/" + id, null);
      assertThat(session.get("state").get("last_greeting").asText())
          .isEqualTo("Hello there! How can I help you today?");
    }
    assertThat(Files.size(db)).isPositive();
  }
}
