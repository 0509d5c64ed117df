package dev.adk4j.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.security.crypto.password.NoOpPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Runs the example application on a random port with the offline demo model and asks it over HTTP
 * what a client of the ADK API would: a session, two turns, the session back, health and metrics.
 */
@SpringBootTest(
    classes = WeatherApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"spring.main.banner-mode=off", "logging.level.root=WARN"})
@Import(WeatherApplicationTest.PlainPasswords.class)
class WeatherApplicationTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Plain-text passwords for the test. Without a PasswordEncoder bean, Spring Security re-encodes
   * the demo user's password with BCrypt at the first login and checks every later request with
   * BCrypt, the CPU's hottest method in this test (JFR). What the test asks (who may call what, and
   * what the API answers) does not depend on how the password is stored.
   */
  @TestConfiguration
  static class PlainPasswords {
    @Bean
    @SuppressWarnings("deprecation") // deprecated as insecure: plain text is what the test wants
    PasswordEncoder plainPasswords() {
      return NoOpPasswordEncoder.getInstance();
    }
  }

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) throws Exception {
    Path dir = Files.createTempDirectory("weather-example");
    dir.toFile().deleteOnExit();
    registry.add("spring.datasource.url", () -> "jdbc:sqlite:" + dir.resolve("weather.db"));
  }

  @Autowired Environment env;
  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> call(String method, String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(
                URI.create("http://localhost:" + env.getProperty("local.server.port") + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json")
            .header(
                "Authorization",
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString("demo:demo-password".getBytes(StandardCharsets.UTF_8)))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String run(String text) {
    return "{\"appName\":\"weather\",\"userId\":\"demo\",\"sessionId\":\"s1\","
        + "\"newMessage\":{\"role\":\"user\",\"parts\":[{\"text\":\""
        + text
        + "\"}]}}";
  }

  @Test
  void turnsOverTheAdkApi_persistState_andShowInHealthAndMetrics() throws Exception {
    assertThat(call("GET", "/adk/list-apps", null).body()).contains("weather");
    assertThat(call("POST", "/adk/apps/weather/users/demo/sessions/s1", "{}").statusCode())
        .isEqualTo(200);
    assertThat(call("POST", "/adk/run", run("Weather in Paris?")).body())
        .contains("In Paris it is sunny");
    assertThat(call("POST", "/adk/run", run("And in Oslo?")).body()).contains("In Oslo it is");

    JsonNode session =
        JSON.readTree(call("GET", "/adk/apps/weather/users/demo/sessions/s1", null).body());
    assertThat(session.at("/state/user:questions").asInt()).isEqualTo(2);
    // another user's sessions are not the demo user's to read
    assertThat(call("GET", "/adk/apps/weather/users/eve/sessions", null).statusCode())
        .isEqualTo(403);

    JsonNode health = JSON.readTree(call("GET", "/actuator/health", null).body());
    assertThat(health.at("/components/adk4j/status").asText()).isEqualTo("UP");
    assertThat(health.at("/components/adk4j/details/backend").asText()).isEqualTo("SQLite");

    JsonNode turns = JSON.readTree(call("GET", "/actuator/metrics/adk4j.turns", null).body());
    assertThat(turns.at("/measurements/0/value").asDouble()).isEqualTo(2.0);
    assertThat(call("GET", "/actuator/metrics/adk4j.tool.calls", null).statusCode()).isEqualTo(200);
  }
}
