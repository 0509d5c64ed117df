package dev.adk4j.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.testing.ScriptedLlm;
import io.micrometer.core.instrument.MeterRegistry;
import io.reactivex.rxjava3.core.Flowable;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A Spring Boot application on a random port: Spring MVC, Spring Security (HTTP basic, users alice
 * and bob), actuator and a SQLite DataSource from {@code spring.datasource.url}. Turns run over
 * HTTP through the ADK API under {@code /adk}, with scripted models. Tracing: Micrometer Tracing
 * over Spring Boot's OpenTelemetry SDK, its ended spans recorded.
 */
@SpringBootTest(
    classes = AdkHttpApiTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.main.banner-mode=off",
      "adk4j.server.base-path=/adk",
      "management.tracing.sampling.probability=1.0"
    })
class AdkHttpApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final CountDownLatch RELEASE = new CountDownLatch(1);

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) throws Exception {
    Path dir = Files.createTempDirectory("adk4j-spring-http");
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
    SecurityFilterChain security(HttpSecurity http) throws Exception {
      http.authorizeHttpRequests(a -> a.anyRequest().authenticated())
          .httpBasic(Customizer.withDefaults())
          .csrf(c -> c.disable());
      return http.build();
    }

    @Bean
    RecordedSpans recordedSpans() {
      return new RecordedSpans();
    }

    /** Hands each span to the recorder as it ends. */
    @Bean
    io.opentelemetry.sdk.trace.SpanProcessor recordingProcessor(RecordedSpans spans) {
      return io.opentelemetry.sdk.trace.export.SimpleSpanProcessor.create(spans);
    }

    /** The users, their passwords in plain text ({@link PlainPasswords}). */
    @Bean
    UserDetailsService users() {
      return new InMemoryUserDetailsManager(
          User.withUsername("alice").password("alice-pw").roles("USER").build(),
          User.withUsername("bob").password("bob-pw").roles("USER").build());
    }
  }

  @Autowired Environment env;
  @Autowired MeterRegistry meters;
  @Autowired BaseSessionService sessions;
  @Autowired RecordedSpans spans;

  @Autowired
  @org.springframework.beans.factory.annotation.Qualifier("adk4jHealthIndicator")
  HealthIndicator health;

  private final HttpClient http = HttpClient.newHttpClient();

  private HttpRequest.Builder request(String user, String method, String path, String body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(
                URI.create("http://localhost:" + env.getProperty("local.server.port") + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json");
    if (user != null) {
      b.header(
          "Authorization",
          "Basic "
              + Base64.getEncoder()
                  .encodeToString((user + ":" + user + "-pw").getBytes(StandardCharsets.UTF_8)));
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
  void aTurnOverHttp_isStoredInTheApplicationsDatabase_andCounted() throws Exception {
    assertThat(sessions).isInstanceOf(DatabaseSessionService.class);
    assertThat(call("alice", "GET", "/adk/list-apps", null).body())
        .contains("assistant")
        .contains("streamer");
    HttpResponse<String> created =
        call("alice", "POST", "/adk/apps/assistant/users/alice/sessions/s1", "{}");
    assertThat(created.statusCode()).isEqualTo(200);

    HttpResponse<String> run =
        call("alice", "POST", "/adk/run", runBody("assistant", "alice", "s1", "hello"));
    assertThat(run.statusCode()).isEqualTo(200);
    assertThat(run.body()).contains("echo: hello");

    JsonNode session =
        JSON.readTree(
            call("alice", "GET", "/adk/apps/assistant/users/alice/sessions/s1", null).body());
    assertThat(session.get("events")).hasSize(4); // user, function call, response, answer

    String app = "assistant";
    assertThat(
            meters.get("adk4j.turns").tag("app", app).tag("outcome", "success").counter().count())
        .isGreaterThanOrEqualTo(1);
    assertThat(meters.get("adk4j.turn.duration").tag("app", app).timer().count())
        .isGreaterThanOrEqualTo(1);
    assertThat(meters.get("adk4j.model.calls").tag("app", app).counter().count())
        .isGreaterThanOrEqualTo(2);
    assertThat(meters.get("adk4j.model.tokens").tag("type", "input").counter().count())
        .isGreaterThanOrEqualTo(7);
    assertThat(meters.get("adk4j.model.tokens").tag("type", "output").counter().count())
        .isGreaterThanOrEqualTo(3);
    assertThat(meters.get("adk4j.tool.calls").tag("tool", "lookup").counter().count())
        .isGreaterThanOrEqualTo(1);
    assertThat(
            meters
                .get("adk4j.session.appends")
                .tag("app", app)
                .tag("backend", "SQLite")
                .counter()
                .count())
        .isGreaterThanOrEqualTo(3);

    assertThat(health.health().getStatus()).isEqualTo(Status.UP);
    assertThat(health.health().getDetails()).containsEntry("backend", "SQLite");
  }

  @Test
  void aRunWaitingForItsSession_isCounted() throws Exception {
    assertThat(
            call("alice", "POST", "/adk/apps/assistant/users/alice/sessions/busy", "{}")
                .statusCode())
        .isEqualTo(200);
    double before = waits();
    // Another instance's turn, as far as the API can tell: the session's lease is held.
    dev.adk4j.sessions.SessionLease other =
        sessions
            .acquireLease("assistant", "alice", "busy", java.time.Duration.ofSeconds(5))
            .blockingGet();
    java.util.concurrent.CompletableFuture<HttpResponse<String>> run =
        http.sendAsync(
            request("alice", "POST", "/adk/run", runBody("assistant", "alice", "busy", "hi"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
    while (waits() == before && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(waits()).isEqualTo(before + 1);
    other.close();
    HttpResponse<String> done = run.get(30, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(done.statusCode()).isEqualTo(200);
    assertThat(done.body()).contains("echo: hi");
  }

  private double waits() {
    io.micrometer.core.instrument.Counter c =
        meters.find("adk4j.session.waits").tag("app", "assistant").counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void sseFrames_reachTheClientWhileTheModelIsStillProducing() throws Exception {
    assertThat(call("bob", "POST", "/adk/apps/streamer/users/bob/sessions/s2", "{}").statusCode())
        .isEqualTo(200);
    HttpResponse<InputStream> r =
        http.send(
            request("bob", "POST", "/adk/run_sse", runBody("streamer", "bob", "s2", "hi"))
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
    assertThat(call("bob", "POST", "/adk/apps/assistant/users/bob/sessions/b1", "{}").statusCode())
        .isEqualTo(200);
    // alice cannot list, read, create or run in bob's sessions
    assertThat(call("alice", "GET", "/adk/apps/assistant/users/bob/sessions", null).statusCode())
        .isEqualTo(403);
    HttpResponse<String> read =
        call("alice", "GET", "/adk/apps/assistant/users/bob/sessions/b1", null);
    assertThat(read.statusCode()).isEqualTo(403);
    assertThat(read.body()).contains("user 'bob' is not the authenticated user");
    assertThat(call("alice", "POST", "/adk/apps/assistant/users/bob/sessions/x", "{}").statusCode())
        .isEqualTo(403);
    assertThat(
            call("alice", "POST", "/adk/run", runBody("assistant", "bob", "b1", "hi")).statusCode())
        .isEqualTo(403);
    assertThat(
            call("alice", "POST", "/adk/run_sse", runBody("assistant", "bob", "b1", "hi"))
                .statusCode())
        .isEqualTo(403);
    assertThat(
            call(
                    "alice",
                    "GET",
                    "/adk/dev/apps/assistant/users/bob/sessions/b1/events/e/graph",
                    null)
                .statusCode())
        .isEqualTo(403);
    // bob's session is untouched; without credentials nothing is served
    assertThat(
            JSON.readTree(
                    call("bob", "GET", "/adk/apps/assistant/users/bob/sessions/b1", null).body())
                .get("events"))
        .isEmpty();
    assertThat(call(null, "GET", "/adk/list-apps", null).statusCode()).isEqualTo(401);
  }

  @Test
  void theDevUi_isOffByDefault() throws Exception {
    HttpResponse<String> ui = call("alice", "GET", "/adk/dev-ui/", null);
    assertThat(ui.statusCode()).isEqualTo(404);
    assertThat(ui.body()).contains("adk4j.server.dev-ui=true");
  }

  /**
   * The turn's spans (invocation, agent, model and tool calls) are in the trace of the HTTP request
   * that ran it: the trace a {@code traceparent} header names, or else the one the server span
   * started.
   */
  @Test
  void aTurnsSpans_shareTheTraceOfItsHttpRequest() throws Exception {
    assertThat(
            call("alice", "POST", "/adk/apps/assistant/users/alice/sessions/t1", "{}").statusCode())
        .isEqualTo(200);
    String traceId = "0af7651916cd43dd8448eb211c80319c";
    HttpResponse<String> run =
        http.send(
            request("alice", "POST", "/adk/run", runBody("assistant", "alice", "t1", "traced"))
                .header("traceparent", "00-" + traceId + "-b7ad6b7169203331-01")
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(run.statusCode()).isEqualTo(200);
    io.opentelemetry.sdk.trace.data.SpanData server =
        spans.await(
            "of the server in the trace",
            s ->
                s.getTraceId().equals(traceId)
                    && s.getKind() == io.opentelemetry.api.trace.SpanKind.SERVER);
    assertThat(server.getParentSpanId()).isEqualTo("b7ad6b7169203331");
    spans.await(
        "invocation", s -> s.getName().equals("invocation") && s.getTraceId().equals(traceId));
    assertThat(spans.inTrace(traceId))
        .extracting(io.opentelemetry.sdk.trace.data.SpanData::getName)
        .contains("invocation", "invoke_agent assistant", "call_llm", "execute_tool lookup");

    // Without a traceparent: the trace the server span starts.
    assertThat(
            call("alice", "POST", "/adk/run", runBody("assistant", "alice", "t1", "again"))
                .statusCode())
        .isEqualTo(200);
    io.opentelemetry.sdk.trace.data.SpanData second =
        spans.await(
            "invocation of the second run",
            s -> s.getName().equals("invocation") && !s.getTraceId().equals(traceId));
    spans.await(
        "of the server in the second run's trace",
        s ->
            s.getTraceId().equals(second.getTraceId())
                && s.getKind() == io.opentelemetry.api.trace.SpanKind.SERVER);
  }
}
