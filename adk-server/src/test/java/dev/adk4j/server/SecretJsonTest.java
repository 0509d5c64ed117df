package dev.adk4j.server;

import static dev.adk4j.server.ServerClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.testing.ScriptedLlm;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code secret:} values never leave through the REST API: their keys show, as {@code "***"}. */
class SecretJsonTest {
  @TempDir static Path dir;

  static AdkServer server;
  static ServerClient client;

  static final String SESSIONS = "/apps/app/users/alice/sessions";
  final String token = "tok-" + UUID.randomUUID();

  @BeforeAll
  static void start() {
    LlmAgent agent =
        LlmAgent.builder()
            .name("a")
            .model(ScriptedLlm.answering(req -> ScriptedLlm.textResponse("ok")))
            .build();
    server =
        AdkServer.builder()
            .app("app", agent)
            // clients may not write secrets by default; this app lets them, to show what the API
            // gives back
            .clientPolicy(AdkServer.ClientPolicy.defaults().secretState(true))
            .store("jdbc:sqlite:" + dir.resolve("server.db"))
            .port(0)
            .start();
    client = new ServerClient(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void sessionsAndEvents_showSecretsAsStars() {
    HttpResponse<String> created =
        client.post(SESSIONS + "/s1", "{\"state\":{\"secret:api_key\":\"" + token + "\",\"k\":1}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    assertThat(json(created).get("state").get("secret:api_key").asText()).isEqualTo("***");
    HttpResponse<String> patched =
        client.call(
            "PATCH",
            SESSIONS + "/s1",
            "{\"stateDelta\":{\"secret:other\":\"" + token + "-2\",\"k\":2}}");
    assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);

    HttpResponse<String> one = client.get(SESSIONS + "/s1");
    JsonNode state = json(one).get("state");
    assertThat(state.get("secret:api_key").asText()).isEqualTo("***");
    assertThat(state.get("secret:other").asText()).isEqualTo("***");
    assertThat(state.get("k").asInt()).isEqualTo(2);
    for (HttpResponse<String> r :
        java.util.List.of(
            created,
            patched,
            one,
            client.get(SESSIONS),
            client.get(SESSIONS + "?pageSize=10"),
            client.get(SESSIONS + "/s1/events"))) {
      assertThat(r.body()).doesNotContain(token);
    }
  }
}
