package dev.adk4j.server;

import static dev.adk4j.server.ServerClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.EmbeddedPostgresExtension;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Session creation with {@code events} (the dev UI's Import, and how clients seed sessions), on
 * every backend: the events stored in order with their ids, their deltas applied by scope ({@code
 * app:} to the app, {@code user:} to the user, the rest to the session), {@code temp:} keys
 * dropped, as ADK's server does.
 */
class SessionImportTest {
  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  @TempDir static Path dir;

  static Stream<String> backends() {
    return Stream.of("memory", "sqlite", "postgres");
  }

  private static BaseSessionService open(String backend) throws Exception {
    return switch (backend) {
      case "memory" -> new InMemorySessionService();
      case "sqlite" -> new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("import.db"));
      default -> new DatabaseSessionService(POSTGRES.newMigratedDatabase());
    };
  }

  private static String event(String id, String author, String role, String text, String delta) {
    return "{\"id\":\""
        + id
        + "\",\"invocationId\":\"i-"
        + id
        + "\",\"author\":\""
        + author
        + "\",\"timestamp\":1750000000.25,\"content\":{\"role\":\""
        + role
        + "\",\"parts\":[{\"text\":\""
        + text
        + "\"}]},\"actions\":{\"stateDelta\":"
        + delta
        + ",\"artifactDelta\":{},\"requestedAuthConfigs\":{},\"requestedToolConfirmations\":{}}}";
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void importedEvents_areStoredInOrder_deltasByScope_tempDropped(String backend) throws Exception {
    BaseSessionService sessions = open(backend);
    LlmAgent bot =
        LlmAgent.builder()
            .name("bot")
            .model(ScriptedLlm.answering(r -> ScriptedLlm.textResponse("ok")))
            .build();
    try (AdkServer server =
        AdkServer.builder()
            .app("replay", bot)
            .clientPolicy("replay", AdkServer.ClientPolicy.trustAll())
            .sessionService(sessions)
            .port(0)
            .start()) {
      ServerClient client = new ServerClient(server);
      String body =
          "{\"sessionId\":\"imported\",\"state\":{\"seed\":1},\"events\":["
              + event("e1", "user", "user", "hello", "{\"topic\":\"x\",\"temp:scratch\":1}")
              + ","
              + event(
                  "e2",
                  "bot",
                  "model",
                  "hi",
                  "{\"user:lang\":\"fr\",\"app:motd\":\"hey\",\"topic\":\"y\"}")
              + ","
              + event("e3", "user", "user", "bye", "{}")
              + "]}";
      HttpResponse<String> r = client.post("/apps/replay/users/ann/sessions", body);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      JsonNode s = json(r);
      assertThat(s.get("id").asText()).isEqualTo("imported");
      List<String> ids = s.get("events").findValuesAsText("id");
      assertThat(ids).containsExactly("e1", "e2", "e3");
      assertThat(s.get("events").get(0).get("timestamp").asDouble()).isEqualTo(1750000000.25);
      assertThat(s.get("state").get("topic").asText()).isEqualTo("y");
      assertThat(s.get("state").get("seed").asInt()).isEqualTo(1);
      assertThat(s.get("state").has("temp:scratch")).isFalse();

      // through the service: stored, the deltas by scope, temp: in no stored delta
      Session stored = sessions.getSession("replay", "ann", "imported").blockingGet();
      assertThat(stored.events()).extracting(Event::id).containsExactly("e1", "e2", "e3");
      assertThat(stored.events().get(0).actions().stateDelta()).doesNotContainKey("temp:scratch");
      assertThat(stored.state()).containsEntry("user:lang", "fr").containsEntry("app:motd", "hey");
      Session other = sessions.createSession("replay", "ann", null, "other").blockingGet();
      assertThat(other.state()).containsEntry("user:lang", "fr").containsEntry("app:motd", "hey");
      Session stranger = sessions.createSession("replay", "bob", null, null).blockingGet();
      assertThat(stranger.state()).containsEntry("app:motd", "hey").doesNotContainKey("user:lang");
    } finally {
      if (sessions instanceof AutoCloseable c) {
        c.close();
      }
    }
  }
}
