package dev.adk4j.server;

import static dev.adk4j.server.ServerClient.runBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.models.LlmException;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Flowable;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code /run_sse}: framing, frames as they are produced, error frames, cancellation. */
class SseTest {
  private AdkServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private ServerClient start(LlmAgent agent, boolean debug) {
    InMemorySessionService sessions = new InMemorySessionService();
    sessions.createSession("app", "u", null, "s").blockingGet();
    server =
        AdkServer.builder()
            .app("app", agent)
            .sessionService(sessions)
            .port(0)
            .debug(debug)
            .sseHeartbeat(Duration.ofMillis(100))
            .start();
    return new ServerClient(server);
  }

  private static LlmAgent agent(ScriptedLlm model) {
    return LlmAgent.builder().name("bot").model(model).instruction("Answer.").build();
  }

  /** Reads the stream's data frames, checking the framing: one single-line data, a blank line. */
  private static final class Frames {
    final BufferedReader reader;

    Frames(InputStream in) {
      reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    /** The next data frame, or null at the end of the stream. */
    JsonNode next() throws Exception {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.isEmpty() || line.startsWith(":")) {
          continue; // a frame's end, or a keep-alive comment
        }
        assertThat(line).startsWith("data: ");
        assertThat(reader.readLine()).as("a blank line ends each frame").isEmpty();
        return ServerClient.JSON.readTree(line.substring("data: ".length()));
      }
      return null;
    }

    List<JsonNode> rest() throws Exception {
      List<JsonNode> out = new ArrayList<>();
      for (JsonNode f = next(); f != null; f = next()) {
        out.add(f);
      }
      return out;
    }
  }

  private static Frames open(ServerClient client, String body) throws Exception {
    HttpResponse<InputStream> r =
        client.http.send(
            client.request("POST", "/run_sse", body, "Accept", "text/event-stream").build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
    return new Frames(r.body());
  }

  @Test
  void framesArriveWhileTheModelIsStillProducing() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFlowable(
                req ->
                    Flowable.concat(
                        Flowable.just(ScriptedLlm.partialResponse("Hel")),
                        Flowable.<LlmResponse>empty()
                            .doOnSubscribe(s -> release.await(10, TimeUnit.SECONDS)),
                        Flowable.just(
                            ScriptedLlm.partialResponse("lo"), ScriptedLlm.textResponse("Hello"))))
            .build();
    ServerClient client = start(agent(model), false);

    Frames frames = open(client, runBody("app", "u", "s", "hi", true));
    JsonNode first = frames.next();
    // the model has not finished: it waits for the latch this test has not released yet
    assertThat(release.getCount()).isEqualTo(1);
    assertThat(first.get("partial").asBoolean()).isTrue();
    assertThat(first.get("content").get("parts").get(0).get("text").asText()).isEqualTo("Hel");
    assertThat(first.get("timestamp").asDouble()).isLessThan(1e11);
    release.countDown();

    List<JsonNode> rest = frames.rest();
    assertThat(rest).hasSize(2);
    assertThat(rest.get(0).get("content").get("parts").get(0).get("text").asText()).isEqualTo("lo");
    JsonNode last = rest.get(1);
    assertThat(last.has("partial")).isFalse();
    assertThat(last.get("content").get("parts").get(0).get("text").asText()).isEqualTo("Hello");
    model.assertScriptConsumed();
  }

  public static Map<String, Object> saveNote(
      @Schema(name = "text") String text, ToolContext toolContext) {
    int version = toolContext.saveArtifact("note.txt", Part.fromText(text)).blockingGet();
    return Map.of("saved", version);
  }

  @Test
  void anEventWithContentAndArtifactsIsSplitInTwoFrames() throws Exception {
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("saveNote", Map.of("text", "remember"))
            .thenText("Saved.")
            .build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("bot")
            .model(model)
            .tools(FunctionTool.create(SseTest.class, "saveNote"))
            .build();
    ServerClient client = start(agent, false);

    List<JsonNode> frames = open(client, runBody("app", "u", "s", "note this", false)).rest();
    // the call, the tool's response (content, then its artifact delta alone), the answer
    assertThat(frames).hasSize(4);
    JsonNode response = frames.get(1);
    JsonNode artifacts = frames.get(2);
    assertThat(response.get("content").get("parts").get(0).has("functionResponse")).isTrue();
    assertThat(response.path("actions").get("artifactDelta")).isEmpty(); // emptied, as ADK's
    assertThat(artifacts.has("content")).isFalse();
    assertThat(artifacts.get("actions").get("artifactDelta").get("note.txt").asInt()).isEqualTo(0);
    assertThat(artifacts.get("id").asText()).isEqualTo(response.get("id").asText());
    assertThat(frames.get(3).get("content").get("parts").get(0).get("text").asText())
        .isEqualTo("Saved.");

    HttpResponse<String> saved = client.get("/apps/app/users/u/sessions/s/artifacts/note.txt");
    assertThat(ServerClient.json(saved).get("text").asText()).isEqualTo("remember");
  }

  @Test
  void aFailureEndsTheStreamWithAnErrorFrameWithoutStackTrace() throws Exception {
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenError(new LlmException("scripted", 503, "the model is overloaded", null))
            .build();
    ServerClient client = start(agent(model), false);

    List<JsonNode> frames = open(client, runBody("app", "u", "s", "hi", false)).rest();
    JsonNode last = frames.get(frames.size() - 1);
    assertThat(last.get("error").asText()).contains("the model is overloaded");
    assertThat(last.has("stackTrace")).isFalse();
    // the runner's final event says why, before the error frame
    assertThat(frames.get(frames.size() - 2).get("errorCode").asText()).isEqualTo("MODEL_ERROR");

    // /run: the same failure as a 5xx JSON error, without a stack trace
    HttpResponse<String> run = client.post("/run", runBody("app", "u", "s", "again", false));
    assertThat(run.statusCode()).isEqualTo(500);
    assertThat(ServerClient.json(run).has("stackTrace")).isFalse();
  }

  @Test
  void debugModeAddsTheStackTrace() throws Exception {
    ScriptedLlm model =
        ScriptedLlm.builder().thenError(new LlmException("scripted", 500, "boom", null)).build();
    ServerClient client = start(agent(model), true);

    List<JsonNode> frames = open(client, runBody("app", "u", "s", "hi", false)).rest();
    JsonNode last = frames.get(frames.size() - 1);
    assertThat(last.get("error").asText()).contains("boom");
    assertThat(last.get("stackTrace").asText()).contains("LlmException");
  }

  @Test
  void aClientThatDisconnectsCancelsTheRun() throws Exception {
    CountDownLatch called = new CountDownLatch(1);
    CountDownLatch cancelled = new CountDownLatch(1);
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFlowable(
                req ->
                    Flowable.<LlmResponse>never()
                        .doOnSubscribe(s -> called.countDown())
                        .doOnCancel(cancelled::countDown))
            .build();
    ServerClient client = start(agent(model), false);

    HttpResponse<InputStream> r =
        client.http.send(
            client.request("POST", "/run_sse", runBody("app", "u", "s", "hi", true)).build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(called.await(10, TimeUnit.SECONDS)).as("the model was called").isTrue();
    r.body().close(); // the client goes away mid-run

    assertThat(cancelled.await(10, TimeUnit.SECONDS)).as("the model call was cancelled").isTrue();
  }
}
