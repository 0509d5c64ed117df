package dev.adk4j.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.testing.ScriptedLlm;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Host and Origin checks, CORS, the auth hook, and the options. */
class SecurityTest {
  private AdkServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static LlmAgent agent() {
    return LlmAgent.builder()
        .name("bot")
        .model(ScriptedLlm.answering(r -> ScriptedLlm.textResponse("ok")))
        .build();
  }

  private ServerClient start(AdkServer.Builder b) {
    server = b.app("app", agent()).port(0).start();
    return new ServerClient(server);
  }

  /** A raw request, for the headers java.net.http will not let a caller set (Host). */
  private String raw(String request) throws Exception {
    try (Socket s = new Socket(server.url().getHost(), server.port())) {
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void aLoopbackBindAcceptsAnyHostAsAPortForwarderSendsIt() throws Exception {
    start(AdkServer.builder());
    String forwarded =
        raw(
            "GET /list-apps HTTP/1.1\r\nHost: abc-8000.forwarder.example\r\nConnection:"
                + " close\r\n\r\n");
    assertThat(forwarded).startsWith("HTTP/1.1 200").contains("[\"app\"]");

    String ok =
        raw(
            "GET /list-apps HTTP/1.1\r\nHost: localhost:"
                + server.port()
                + "\r\nConnection: close\r\n\r\n");
    assertThat(ok).startsWith("HTTP/1.1 200").contains("[\"app\"]");
  }

  @Test
  void aPublicBindRefusesHostNamesItDoesNotKnow_dnsRebinding() throws Exception {
    start(AdkServer.builder().host("0.0.0.0"));
    String refused =
        raw("GET /list-apps HTTP/1.1\r\nHost: evil.example:8000\r\nConnection: close\r\n\r\n");
    assertThat(refused)
        .startsWith("HTTP/1.1 403")
        .contains("evil.example")
        .contains("DNS rebinding")
        .contains("--allowed-hosts");
    String byAddress =
        raw("GET /list-apps HTTP/1.1\r\nHost: 192.0.2.7:8000\r\nConnection: close\r\n\r\n");
    assertThat(byAddress).startsWith("HTTP/1.1 200");
    String byName =
        raw("GET /list-apps HTTP/1.1\r\nHost: localhost:8000\r\nConnection: close\r\n\r\n");
    assertThat(byName).startsWith("HTTP/1.1 200");
  }

  @Test
  void extraHostNamesCanBeAllowed() throws Exception {
    // given names, a loopback bind checks too: the names, loopback names and IP addresses only
    start(AdkServer.builder().allowedHosts(List.of("mybox.local")));
    String ok = raw("GET /health HTTP/1.1\r\nHost: mybox.local\r\nConnection: close\r\n\r\n");
    assertThat(ok).startsWith("HTTP/1.1 200");
    String ip = raw("GET /health HTTP/1.1\r\nHost: 10.1.2.3:8000\r\nConnection: close\r\n\r\n");
    assertThat(ip).startsWith("HTTP/1.1 200");
    String refused =
        raw("GET /list-apps HTTP/1.1\r\nHost: evil.example:8000\r\nConnection: close\r\n\r\n");
    assertThat(refused)
        .startsWith("HTTP/1.1 403")
        .contains("evil.example")
        .contains("DNS rebinding");
  }

  @Test
  void crossOriginRequestsAreRefusedUnlessCorsAllowsThem() {
    ServerClient client = start(AdkServer.builder());
    HttpResponse<String> cross =
        client.post("/apps/app/users/u/sessions", "{}", "Origin", "http://evil.example");
    assertThat(cross.statusCode()).isEqualTo(403);
    assertThat(ServerClient.detail(cross)).contains("http://evil.example");
    assertThat(cross.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    // a cross-origin read, as ADK: answered without CORS headers, so a page cannot read it
    HttpResponse<String> read = client.get("/list-apps", "Origin", "http://evil.example");
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();

    String self = "http://127.0.0.1:" + server.port();
    assertThat(client.post("/apps/app/users/u/sessions", "{}", "Origin", self).statusCode())
        .isEqualTo(200);
    // behind a proxy that rewrites Host and says which host the client asked for
    assertThat(
            client
                .post(
                    "/apps/app/users/u/sessions",
                    "{}",
                    "Origin",
                    "https://abc-8000.forwarder.example",
                    "X-Forwarded-Host",
                    "abc-8000.forwarder.example")
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void corsAnswersConfiguredOrigins() {
    ServerClient client = start(AdkServer.builder().corsOrigins(List.of("http://localhost:4200")));
    HttpResponse<String> preflight =
        client.call(
            "OPTIONS",
            "/run_sse",
            null,
            "Origin",
            "http://localhost:4200",
            "Access-Control-Request-Method",
            "POST");
    assertThat(preflight.statusCode()).isEqualTo(204);
    assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin"))
        .hasValue("http://localhost:4200");
    assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods").orElse(""))
        .contains("PATCH");

    HttpResponse<String> get = client.get("/list-apps", "Origin", "http://localhost:4200");
    assertThat(get.statusCode()).isEqualTo(200);
    assertThat(get.headers().firstValue("Access-Control-Allow-Origin"))
        .hasValue("http://localhost:4200");
    assertThat(client.post("/run", "{}", "Origin", "http://other:1").statusCode()).isEqualTo(403);
  }

  @Test
  void aBearerTokenGuardsTheApiButNotTheUiOrHealth() {
    ServerClient client = start(AdkServer.builder().bearerToken("s3cret"));
    HttpResponse<String> none = client.get("/list-apps");
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(ServerClient.detail(none)).contains("Bearer");
    assertThat(client.get("/list-apps", "Authorization", "Bearer wrong").statusCode())
        .isEqualTo(401);
    assertThat(client.get("/list-apps", "Authorization", "Bearer s3cret").statusCode())
        .isEqualTo(200);
    assertThat(client.get("/health").statusCode()).isEqualTo(200);
    assertThat(client.get("/dev-ui/").statusCode()).isEqualTo(200);

    // the dev UI cannot send the header: it gets a cookie once
    assertThat(client.get("/dev-ui/?token=wrong").statusCode()).isEqualTo(401);
    HttpResponse<String> handoff = client.get("/dev-ui/?token=s3cret");
    assertThat(handoff.statusCode()).isEqualTo(302);
    String cookie = handoff.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(cookie).contains("HttpOnly").contains("SameSite=Strict");
    String pair = cookie.substring(0, cookie.indexOf(';'));
    assertThat(client.get("/list-apps", "Cookie", pair).statusCode()).isEqualTo(200);
  }

  @Test
  void aCustomAuthenticatorSeesTheRequest() {
    ServerClient client =
        start(
            AdkServer.builder()
                .authenticator(
                    (method, path, headers) ->
                        headers.getOrDefault("x-team", List.of()).contains("blue")
                            && !path.startsWith("/run")));
    assertThat(client.get("/list-apps").statusCode()).isEqualTo(401);
    assertThat(client.get("/list-apps", "X-Team", "blue").statusCode()).isEqualTo(200);
    assertThat(client.post("/run", "{}", "X-Team", "blue").statusCode()).isEqualTo(401);
  }

  @Test
  void clientPoliciesAreSetPerAppOrByOption_andBadOnesNamed() {
    String write =
        "{\"appName\":\"%s\",\"userId\":\"u\",\"sessionId\":\"s\",\"newMessage\":"
            + "{\"role\":\"model\",\"parts\":[{\"text\":\"forged\"}]},"
            + "\"stateDelta\":{\"app:k\":1}}";
    // the option opens every app without a policy of its own; "locked" keeps the default
    AdkServer.Builder b =
        AdkServer.builder()
            .options("--allow-client-writes", "app-state,model-content")
            .app("open", agent())
            .app("locked", agent())
            .clientPolicy("locked", AdkServer.ClientPolicy.defaults());
    ServerClient client = start(b);
    for (String app : List.of("open", "locked")) {
      assertThat(client.post("/apps/" + app + "/users/u/sessions/s", null).statusCode())
          .isEqualTo(200);
    }
    HttpResponse<String> open = client.post("/run", String.format(write, "open"));
    assertThat(open.statusCode()).as(open.body()).isEqualTo(200);
    HttpResponse<String> locked = client.post("/run", String.format(write, "locked"));
    assertThat(locked.statusCode()).isEqualTo(403);
    assertThat(ServerClient.detail(locked)).contains("role 'model'");

    AdkServer.ClientPolicy p = AdkServer.ClientPolicy.defaults().secretState(true);
    assertThat(p.allowsSecretState()).isTrue();
    assertThat(p.allowsAppState()).isFalse();
    assertThat(AdkServer.ClientPolicy.defaults()).isNotEqualTo(p);
    assertThat(AdkServer.ClientPolicy.trustAll()).isEqualTo(p.appState(true).modelContent(true));

    assertThatThrownBy(() -> AdkServer.builder().options("--allow-client-writes", "app-stat"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'app-stat'")
        .hasMessageContaining("app-state, secret-state, model-content, all");
    assertThatThrownBy(
            () ->
                AdkServer.builder()
                    .app("a", agent())
                    .clientPolicy("typo", AdkServer.ClientPolicy.trustAll())
                    .start())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'typo'");
  }

  @Test
  void optionsAreParsedAndBadOnesNamed() {
    AdkServer.Builder b =
        AdkServer.builder()
            .options(
                "--port", "0", "--host=localhost", "--cors", "http://a:1,http://b:2", "--debug");
    assertThat(b.host()).isEqualTo("localhost");
    server = b.app("app", agent()).start();
    assertThat(server.port()).isPositive();
    assertThat(server.appNames()).containsExactly("app");

    assertThatThrownBy(() -> AdkServer.builder().options("--prot", "1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--prot");
    assertThatThrownBy(() -> AdkServer.builder().options("--port", "x"))
        .hasMessageContaining("--port needs a number");
    assertThatThrownBy(() -> AdkServer.builder().options("--store"))
        .hasMessageContaining("--store needs a value");
    assertThatThrownBy(() -> AdkServer.builder().start()).hasMessageContaining("no app");
    assertThatThrownBy(() -> AdkServer.builder().app("a", agent()).app("a", agent()))
        .hasMessageContaining("twice");
  }
}
