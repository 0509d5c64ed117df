package dev.adk4j.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.testing.ScriptedLlm;
import io.reactivex.rxjava3.core.Flowable;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.ReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;

/**
 * A WebFlux application (Reactor Netty) on a random port with Spring Security (HTTP basic, users
 * alice and bob) and a SQLite DataSource: the ADK API under {@code /agents} through the reactive
 * bridge, a turn, SSE frames arriving while the model still produces, users limited to their own
 * sessions, and the dev UI under the base path.
 */
@SpringBootTest(
    classes = ReactiveApiTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.main.banner-mode=off",
      "spring.main.web-application-type=reactive",
      "adk4j.server.base-path=/agents",
      "adk4j.server.dev-ui=true",
      "management.tracing.sampling.probability=1.0"
    })
class ReactiveApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final CountDownLatch RELEASE = new CountDownLatch(1);

  @org.springframework.test.context.DynamicPropertySource
  static void database(org.springframework.test.context.DynamicPropertyRegistry registry)
      throws Exception {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("adk4j-spring-webflux");
    dir.toFile().deleteOnExit();
    registry.add("spring.datasource.url", () -> "jdbc:sqlite:" + dir.resolve("app.db"));
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import(PlainPasswords.class)
  static class App {
    @Bean
    LlmAgent assistant() {
      return TestAgents.agent("assistant");
    }

    /** Streams "Hel", then waits for the test's latch, then "lo" and "Hello". */
    @Bean
    AdkApp streamer() {
      ScriptedLlm streaming =
          ScriptedLlm.builder()
              .thenFlowable(
                  req ->
                      Flowable.concat(
                          Flowable.just(ScriptedLlm.partialResponse("Hel")),
                          Flowable.<LlmResponse>empty()
                              .doOnSubscribe(s -> RELEASE.await(10, TimeUnit.SECONDS)),
                          Flowable.just(
                              ScriptedLlm.partialResponse("lo"),
                              ScriptedLlm.textResponse("Hello"))))
              .build();
      return AdkApp.of(
          "streamer",
          LlmAgent.builder().name("streamer").model(streaming).instruction("Answer.").build());
    }

    @Bean
    SecurityWebFilterChain security(ServerHttpSecurity http) {
      return http.authorizeExchange(a -> a.anyExchange().authenticated())
          .httpBasic(b -> {})
          .csrf(c -> c.disable())
          .build();
    }

    @Bean
    RecordedSpans recordedSpans() {
      return new RecordedSpans();
    }

    @Bean
    io.opentelemetry.sdk.trace.SpanProcessor recordingProcessor(RecordedSpans spans) {
      return io.opentelemetry.sdk.trace.export.SimpleSpanProcessor.create(spans);
    }

    /** The users, their passwords in plain text ({@link PlainPasswords}). */
    @Bean
    ReactiveUserDetailsService users() {
      return new MapReactiveUserDetailsService(
          User.withUsername("alice").password("alice-pw").roles("USER").build(),
          User.withUsername("bob").password("bob-pw").roles("USER").build());
    }
  }

  @Value("${local.server.port}")
  int port;

  @org.springframework.beans.factory.annotation.Autowired RecordedSpans spans;

  private final HttpClient http = HttpClient.newHttpClient();

  private static String basic(String user) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + user + "-pw").getBytes(StandardCharsets.UTF_8));
  }

  private HttpRequest.Builder request(String user, String method, String path, String body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json");
    if (user != null) {
      b.header("Authorization", basic(user));
    }
    return b;
  }

  private HttpResponse<String> call(String user, String method, String path, String body)
      throws Exception {
    return http.send(
        request(user, method, path, body).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String runBody(String app, String user, String session, String text) {
    return "{\"appName\":\""
        + app
        + "\",\"userId\":\""
        + user
        + "\",\"sessionId\":\""
        + session
        + "\",\"newMessage\":{\"role\":\"user\",\"parts\":[{\"text\":\""
        + text
        + "\"}]},\"streaming\":true}";
  }

  @Test
  void aTurnOverHttp_throughTheReactiveBridge() throws Exception {
    assertThat(call("alice", "GET", "/agents/list-apps", null).body())
        .contains("assistant")
        .contains("streamer");
    assertThat(
            call("alice", "POST", "/agents/apps/assistant/users/alice/sessions/s1", "{}")
                .statusCode())
        .isEqualTo(200);
    HttpResponse<String> run =
        call("alice", "POST", "/agents/run", runBody("assistant", "alice", "s1", "hello"));
    assertThat(run.statusCode()).isEqualTo(200);
    assertThat(run.body()).contains("echo: hello");
    JsonNode session =
        JSON.readTree(
            call("alice", "GET", "/agents/apps/assistant/users/alice/sessions/s1", null).body());
    assertThat(session.get("events")).hasSize(4); // user, function call, response, answer
    // adk-server's own errors come through unchanged
    HttpResponse<String> missing =
        call("alice", "GET", "/agents/apps/assistant/users/alice/sessions/nope", null);
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(missing.body()).contains("nope");
  }

  @Test
  void sseFrames_reachTheClientWhileTheModelIsStillProducing() throws Exception {
    assertThat(
            call("bob", "POST", "/agents/apps/streamer/users/bob/sessions/s2", "{}").statusCode())
        .isEqualTo(200);
    HttpResponse<InputStream> r =
        http.send(
            request("bob", "POST", "/agents/run_sse", runBody("streamer", "bob", "s2", "hi"))
                .header("Accept", "text/event-stream")
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
    BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8));
    JsonNode first = nextFrame(in);
    // the model has not finished: it waits for the latch, which is released only now
    assertThat(RELEASE.getCount()).isEqualTo(1);
    assertThat(first.get("partial").asBoolean()).isTrue();
    assertThat(first.at("/content/parts/0/text").asText()).isEqualTo("Hel");
    RELEASE.countDown();
    List<JsonNode> rest = new ArrayList<>();
    for (JsonNode f = nextFrame(in); f != null; f = nextFrame(in)) {
      rest.add(f);
    }
    assertThat(rest).hasSize(2);
    assertThat(rest.get(1).at("/content/parts/0/text").asText()).isEqualTo("Hello");
  }

  private static JsonNode nextFrame(BufferedReader in) throws Exception {
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isEmpty() || line.startsWith(":")) {
        continue;
      }
      assertThat(line).startsWith("data: ");
      return JSON.readTree(line.substring("data: ".length()));
    }
    return null;
  }

  @Test
  void springSecurity_limitsEachUserToTheirOwnSessions() throws Exception {
    assertThat(
            call("bob", "POST", "/agents/apps/assistant/users/bob/sessions/b1", "{}").statusCode())
        .isEqualTo(200);
    HttpResponse<String> read =
        call("alice", "GET", "/agents/apps/assistant/users/bob/sessions/b1", null);
    assertThat(read.statusCode()).isEqualTo(403);
    assertThat(read.body()).contains("user 'bob' is not the authenticated user");
    assertThat(
            call("alice", "POST", "/agents/run", runBody("assistant", "bob", "b1", "hi"))
                .statusCode())
        .isEqualTo(403);
    assertThat(
            JSON.readTree(
                    call("bob", "GET", "/agents/apps/assistant/users/bob/sessions/b1", null).body())
                .get("events"))
        .isEmpty();
    assertThat(call(null, "GET", "/agents/list-apps", null).statusCode()).isEqualTo(401);
  }

  @Test
  void theDevUi_isServedUnderTheBasePath() throws Exception {
    DevUiChecks.assertServedUnder("http://localhost:" + port, "/agents", basic("alice"));
  }

  /** The turn runs on a worker thread, yet its spans are in the trace of its HTTP request. */
  @Test
  void aTurnsSpans_shareTheTraceOfItsHttpRequest() throws Exception {
    assertThat(
            call("alice", "POST", "/agents/apps/assistant/users/alice/sessions/t1", "{}")
                .statusCode())
        .isEqualTo(200);
    String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    HttpResponse<String> run =
        http.send(
            request("alice", "POST", "/agents/run", runBody("assistant", "alice", "t1", "traced"))
                .header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01")
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(run.statusCode()).isEqualTo(200);
    spans.await(
        "of the server in the trace",
        s ->
            s.getTraceId().equals(traceId)
                && s.getKind() == io.opentelemetry.api.trace.SpanKind.SERVER);
    spans.await(
        "invocation in the trace",
        s -> s.getName().equals("invocation") && s.getTraceId().equals(traceId));
    assertThat(spans.inTrace(traceId))
        .extracting(io.opentelemetry.sdk.trace.data.SpanData::getName)
        .contains("invoke_agent assistant", "call_llm", "execute_tool lookup");
  }
}
