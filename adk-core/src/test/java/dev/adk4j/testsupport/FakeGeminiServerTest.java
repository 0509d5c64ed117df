package dev.adk4j.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fake server's own rules, checked with a plain HTTP client. */
class FakeGeminiServerTest {

  private final HttpClient http = HttpClient.newHttpClient();
  private FakeGeminiServer server;

  @BeforeEach
  void start() {
    server = FakeGeminiServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> post(String pathAndQuery, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.baseUrl() + pathAndQuery))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void baseUrl_isLoopbackWithAPort() {
    assertThat(server.baseUrl()).matches("http://127\\.0\\.0\\.1:\\d+");
  }

  @Test
  void nothingScripted_answers500_andRecordsTheRequest() throws Exception {
    HttpResponse<String> response = post("/v1beta/models/m:generateContent", "{\"contents\":[]}");

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.body()).contains("no scripted reply left");
    assertThat(server.lastRequest().model()).isEqualTo("m");
    assertThat(server.lastRequest().body().has("contents")).isTrue();
  }

  @Test
  void unknownPath_answers404_withoutConsumingTheScript() throws Exception {
    server.enqueueText("kept");

    assertThat(post("/v1/other", "{}").statusCode()).isEqualTo(404);
    assertThat(server.pendingReplies()).isEqualTo(1);
    assertThat(server.lastRequest().model()).isNull();
  }

  @Test
  void streamedReply_onTheNonStreamingEndpoint_answers500() throws Exception {
    server.enqueueTextChunks("a", "b");

    HttpResponse<String> response = post("/v1beta/models/m:generateContent", "{}");

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.body()).contains("2-chunk");
  }

  @Test
  void streamingEndpoint_sendsOneServerSentEventPerChunk() throws Exception {
    server.enqueueTextChunks("a", "b");

    HttpResponse<String> response = post("/v1beta/models/m:streamGenerateContent?alt=sse", "{}");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("content-type")).contains("text/event-stream");
    assertThat(response.body().split("\r\n\r\n")).hasSize(2).allMatch(e -> e.startsWith("data: {"));
    assertThat(server.lastRequest().query()).isEqualTo("alt=sse");
    assertThat(server.lastRequest().streaming()).isTrue();
  }

  @Test
  void enqueueError_rejectsNonErrorStatus() {
    assertThatThrownBy(() -> server.enqueueError(200, "fine"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
