package dev.adk4j.models;

import static dev.adk4j.testsupport.FakeGeminiServer.asMidStreamChunk;
import static dev.adk4j.testsupport.FakeGeminiServer.functionCallPart;
import static dev.adk4j.testsupport.FakeGeminiServer.response;
import static dev.adk4j.testsupport.FakeGeminiServer.textPart;
import static dev.adk4j.testsupport.FakeGeminiServer.textResponse;
import static dev.adk4j.testsupport.FakeGeminiServer.thoughtPart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import com.google.genai.types.Type;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.testsupport.FakeGeminiServer;
import dev.adk4j.testsupport.FakeGeminiServer.RecordedRequest;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.subscribers.TestSubscriber;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Drives the real google-genai client against {@link FakeGeminiServer}. */
class GeminiTest {

  private static final String MODEL = "gemini-2.5-flash";

  private FakeGeminiServer server;
  private Gemini gemini;

  @BeforeEach
  void start() {
    server = FakeGeminiServer.start();
    gemini =
        Gemini.builder()
            .modelName(MODEL)
            .apiKey("test-key")
            .baseUrl(server.baseUrl())
            .retryAttempts(1)
            .build();
  }

  @AfterEach
  void stop() {
    gemini.close();
    server.close();
  }

  private static final FunctionDeclaration GET_WEATHER =
      FunctionDeclaration.builder()
          .name("get_weather")
          .description("The weather in a city.")
          .parameters(
              Schema.builder()
                  .type(Type.Known.OBJECT)
                  .properties(Map.of("city", Schema.builder().type(Type.Known.STRING).build()))
                  .required(List.of("city"))
                  .build())
          .build();

  private static LlmRequest weatherRequest(Content... contents) {
    return LlmRequest.builder()
        .contents(List.of(contents))
        .systemInstruction("You are a weather assistant.")
        .addFunctionDeclaration(GET_WEATHER)
        .build();
  }

  private static List<LlmResponse> collect(Flowable<LlmResponse> responses) {
    return responses.toList().blockingGet();
  }

  // ------------------------------------------------------------------ non-streaming

  @Test
  void generateContent_text_roundTrip() {
    server.enqueueText("Hello there");

    List<LlmResponse> responses =
        collect(gemini.generateContent(Contents.userRequest("Hi"), false));

    assertThat(responses).hasSize(1);
    LlmResponse response = responses.get(0);
    assertThat(Contents.text(response)).isEqualTo("Hello there");
    assertThat(response.content().flatMap(Content::role)).contains("model");
    assertThat(response.partial()).isEmpty();
    assertThat(response.errorCode()).isEmpty();
    assertThat(response.usageMetadata().flatMap(u -> u.totalTokenCount())).contains(15);

    RecordedRequest request = server.lastRequest();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/v1beta/models/" + MODEL + ":generateContent");
    assertThat(request.streaming()).isFalse();
    assertThat(request.header("x-goog-api-key")).isEqualTo("test-key");
    assertThat(request.body().at("/contents/0/role").asText()).isEqualTo("user");
    assertThat(request.body().at("/contents/0/parts/0/text").asText()).isEqualTo("Hi");
  }

  @Test
  void generateContent_reportsFinishReasonGroundingLogprobsAndModelVersion() {
    com.fasterxml.jackson.databind.node.ObjectNode answer = textResponse("Grounded");
    answer.put("modelVersion", "gemini-2.5-flash-001");
    com.fasterxml.jackson.databind.node.ObjectNode candidate =
        (com.fasterxml.jackson.databind.node.ObjectNode) answer.at("/candidates/0");
    candidate.put("finishReason", "STOP").put("avgLogprobs", -0.125);
    candidate.putObject("groundingMetadata").putArray("webSearchQueries").add("adk java");
    server.enqueue(answer);

    LlmResponse response =
        gemini.generateContent(Contents.userRequest("Hi"), false).blockingFirst();

    assertThat(Contents.text(response)).isEqualTo("Grounded");
    assertThat(response.finishReason().map(Object::toString)).contains("STOP");
    assertThat(response.avgLogprobs()).contains(-0.125);
    assertThat(response.modelVersion()).contains("gemini-2.5-flash-001");
    assertThat(response.groundingMetadata().flatMap(g -> g.webSearchQueries()))
        .contains(List.of("adk java"));
  }

  @Test
  void generateContentStream_finalResponse_carriesTheLastReportedMetadata() {
    List<ObjectNode> chunks = FakeGeminiServer.textChunks("Hel", "lo");
    chunks.get(0).put("modelVersion", "gemini-2.5-flash-000");
    chunks.get(1).put("modelVersion", "gemini-2.5-flash-001");
    ((ObjectNode) chunks.get(1).at("/candidates/0")).put("finishReason", "MAX_TOKENS");
    server.enqueue(chunks);

    List<LlmResponse> responses = collect(gemini.generateContent(Contents.userRequest("Hi"), true));

    LlmResponse last = responses.get(responses.size() - 1);
    assertThat(Contents.text(last)).isEqualTo("Hello");
    assertThat(last.finishReason().map(Object::toString)).contains("MAX_TOKENS");
    assertThat(last.modelVersion()).contains("gemini-2.5-flash-001");
  }

  @Test
  void generateContent_requestModel_overridesModelName() {
    server.enqueueText("ok");

    collect(
        gemini.generateContent(
            Contents.userRequest("Hi").toBuilder().model("gemini-2.5-pro").build(), false));

    assertThat(server.lastRequest().model()).isEqualTo("gemini-2.5-pro");
  }

  @Test
  void generateContent_isLazy_andEachSubscriptionSendsARequest() {
    server.enqueueText("one").enqueueText("two");

    Flowable<LlmResponse> responses = gemini.generateContent(Contents.userRequest("Hi"), false);
    assertThat(server.requests()).isEmpty();

    assertThat(Contents.text(responses.blockingFirst())).isEqualTo("one");
    assertThat(Contents.text(responses.blockingFirst())).isEqualTo("two");
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void generateContent_functionCall_roundTrip() {
    server.enqueueFunctionCall("get_weather", Map.of("city", "Paris"));
    server.enqueueText("It is sunny in Paris.");
    Content question = Contents.user("Weather in Paris?");

    LlmResponse first = collect(gemini.generateContent(weatherRequest(question), false)).get(0);

    List<FunctionCall> calls = Contents.functionCalls(first);
    assertThat(calls).hasSize(1);
    assertThat(calls.get(0).name()).contains("get_weather");
    assertThat(calls.get(0).args()).contains(Map.of("city", "Paris"));

    Content toolResult = Contents.functionResponse("get_weather", Map.of("forecast", "sunny"));
    LlmResponse second =
        collect(
                gemini.generateContent(
                    weatherRequest(question, first.content().orElseThrow(), toolResult), false))
            .get(0);

    assertThat(Contents.text(second)).isEqualTo("It is sunny in Paris.");
    JsonNode body = server.lastRequest().body();
    assertThat(body.at("/contents")).hasSize(3);
    assertThat(body.at("/contents/1/role").asText()).isEqualTo("model");
    assertThat(body.at("/contents/1/parts/0/functionCall/name").asText()).isEqualTo("get_weather");
    assertThat(body.at("/contents/1/parts/0/functionCall/args/city").asText()).isEqualTo("Paris");
    assertThat(body.at("/contents/2/parts/0/functionResponse/name").asText())
        .isEqualTo("get_weather");
    assertThat(body.at("/contents/2/parts/0/functionResponse/response/forecast").asText())
        .isEqualTo("sunny");
    assertThat(body.at("/tools/0/functionDeclarations/0/name").asText()).isEqualTo("get_weather");
    assertThat(body.at("/tools/0/functionDeclarations/0/parameters/required/0").asText())
        .isEqualTo("city");
    assertThat(body.at("/systemInstruction/parts/0/text").asText())
        .isEqualTo("You are a weather assistant.");
  }

  // ------------------------------------------------------------------ streaming

  @Test
  void generateContentStream_emitsPartials_thenOneAggregatedFinal() {
    server.enqueueTextChunks("Hel", "lo ", "world");

    List<LlmResponse> responses = collect(gemini.generateContent(Contents.userRequest("Hi"), true));

    assertThat(responses).hasSize(4);
    assertThat(responses.subList(0, 3))
        .allSatisfy(r -> assertThat(r.partial()).contains(true))
        .extracting(Contents::text)
        .containsExactly("Hel", "lo ", "world");
    LlmResponse last = responses.get(3);
    assertThat(last.partial().orElse(false)).isFalse();
    assertThat(last.content().flatMap(Content::parts).orElseThrow())
        .singleElement()
        .satisfies(p -> assertThat(p.text()).contains("Hello world"));
    assertThat(last.usageMetadata().flatMap(u -> u.totalTokenCount())).contains(15);

    RecordedRequest request = server.lastRequest();
    assertThat(request.path()).isEqualTo("/v1beta/models/" + MODEL + ":streamGenerateContent");
    assertThat(request.query()).contains("alt=sse");
    assertThat(request.streaming()).isTrue();
  }

  @Test
  void generateContentStream_functionCall_onlyInTheFinalResponse() {
    server.enqueue(
        List.of(
            asMidStreamChunk(textResponse("Let me ")),
            asMidStreamChunk(textResponse("check.")),
            response(functionCallPart("get_weather", Map.of("city", "Paris")))));

    List<LlmResponse> responses =
        collect(gemini.generateContent(weatherRequest(Contents.user("Weather?")), true));

    assertThat(responses).hasSize(3);
    assertThat(responses.subList(0, 2)).allSatisfy(r -> assertThat(r.partial()).contains(true));
    assertThat(responses.subList(0, 2))
        .allSatisfy(r -> assertThat(Contents.functionCalls(r)).isEmpty());
    List<Part> parts = responses.get(2).content().flatMap(Content::parts).orElseThrow();
    assertThat(parts).hasSize(2);
    assertThat(parts.get(0).text()).contains("Let me check.");
    assertThat(parts.get(1).functionCall().flatMap(FunctionCall::name)).contains("get_weather");
    assertThat(server.lastRequest().body().at("/tools/0/functionDeclarations/0/name").asText())
        .isEqualTo("get_weather");
  }

  @Test
  void generateContentStream_thoughts_areMergedSeparatelyAndMarked() {
    server.enqueue(
        List.of(
            asMidStreamChunk(response(thoughtPart("Thinking "))),
            asMidStreamChunk(response(thoughtPart("hard."))),
            asMidStreamChunk(response(textPart("The answer "))),
            response(textPart("is 42."))));

    List<LlmResponse> responses =
        collect(gemini.generateContent(Contents.userRequest("Question?"), true));

    assertThat(responses).hasSize(5);
    assertThat(responses.get(0).content().flatMap(Content::parts).orElseThrow().get(0).thought())
        .contains(true);
    List<Part> parts = responses.get(4).content().flatMap(Content::parts).orElseThrow();
    assertThat(parts).hasSize(2);
    assertThat(parts.get(0).text()).contains("Thinking hard.");
    assertThat(parts.get(0).thought()).contains(true);
    assertThat(parts.get(1).text()).contains("The answer is 42.");
    assertThat(parts.get(1).thought().orElse(false)).isFalse();
    assertThat(Contents.text(responses.get(4))).isEqualTo("The answer is 42.");
  }

  @Test
  void generateContentStream_cancelled_closesTheStreamAndTheClientStaysUsable() {
    server.enqueueTextChunks("a", "b", "c", "d");
    server.enqueueText("next");

    LlmResponse first = gemini.generateContent(Contents.userRequest("Hi"), true).blockingFirst();
    assertThat(Contents.text(first)).isEqualTo("a");

    LlmResponse next = gemini.generateContent(Contents.userRequest("Again"), false).blockingFirst();
    assertThat(Contents.text(next)).isEqualTo("next");
  }

  // ------------------------------------------------------------------ errors

  @Test
  void generateContent_http500_failsWithLlmException() {
    server.enqueueError(500, "backend exploded");

    TestSubscriber<LlmResponse> subscriber =
        gemini.generateContent(Contents.userRequest("Hi"), false).test();

    subscriber.assertError(
        e -> {
          assertThat(e)
              .isInstanceOf(LlmException.class)
              .hasMessageContaining(MODEL)
              .hasMessageContaining("500")
              .hasMessageContaining("backend exploded");
          LlmException llm = (LlmException) e;
          assertThat(llm.statusCode()).hasValue(500);
          assertThat(llm.model()).isEqualTo(MODEL);
          assertThat(llm.retryable()).isTrue();
          assertThat(llm.getCause()).isInstanceOf(com.google.genai.errors.ServerException.class);
          return true;
        });
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void generateContent_http400_failsWithNonRetryableLlmException() {
    server.enqueueError(400, "Invalid JSON payload");

    assertThatThrownBy(
            () -> gemini.generateContent(Contents.userRequest("Hi"), false).blockingFirst())
        .isInstanceOf(LlmException.class)
        .hasMessageContaining("400")
        .hasMessageContaining("INVALID_ARGUMENT")
        .hasMessageContaining("Invalid JSON payload")
        .satisfies(
            e -> {
              assertThat(((LlmException) e).statusCode()).hasValue(400);
              assertThat(((LlmException) e).retryable()).isFalse();
            });
  }

  @Test
  void generateContentStream_httpError_failsWithLlmException() {
    server.enqueueError(503, "overloaded");

    assertThatThrownBy(() -> collect(gemini.generateContent(Contents.userRequest("Hi"), true)))
        .isInstanceOf(LlmException.class)
        .hasMessageContaining("503")
        .hasMessageContaining("overloaded");
  }

  @Test
  void generateContent_serverUnreachable_failsWithLlmExceptionWithoutStatus() {
    String baseUrl = server.baseUrl();
    server.close();
    try (Gemini unreachable =
        Gemini.builder()
            .modelName(MODEL)
            .apiKey("test-key")
            .baseUrl(baseUrl)
            .retryAttempts(1)
            .build()) {
      assertThatThrownBy(
              () -> unreachable.generateContent(Contents.userRequest("Hi"), false).blockingFirst())
          .isInstanceOf(LlmException.class)
          .hasMessageContaining("could not be reached")
          .satisfies(e -> assertThat(((LlmException) e).statusCode()).isEmpty());
    }
  }

  @Test
  void generateContent_blockedPrompt_isAnErrorResponse() {
    server.enqueue(FakeGeminiServer.blockedPromptResponse("SAFETY"));

    LlmResponse response =
        gemini.generateContent(Contents.userRequest("Something bad"), false).blockingFirst();

    assertThat(response.errorCode()).contains("SAFETY");
    assertThat(response.errorMessage()).hasValueSatisfying(m -> assertThat(m).contains("SAFETY"));
    assertThat(response.content()).isEmpty();
  }

  @Test
  void generateContent_abnormalStopWithoutContent_isAnErrorResponse() {
    JsonNode stopped = FakeGeminiServer.response();
    ((com.fasterxml.jackson.databind.node.ObjectNode) stopped.at("/candidates/0"))
        .put("finishReason", "MALFORMED_FUNCTION_CALL");
    server.enqueue(stopped);

    LlmResponse response =
        gemini.generateContent(Contents.userRequest("Hi"), false).blockingFirst();

    assertThat(response.errorCode()).contains("MALFORMED_FUNCTION_CALL");
    // google-genai drops finishMessage for the Gemini API (it keeps it for Vertex AI), so the
    // message is ours and names the reason.
    assertThat(response.errorMessage())
        .hasValueSatisfying(m -> assertThat(m).contains("MALFORMED_FUNCTION_CALL"));
    assertThat(response.content()).isEmpty();
  }

  @Test
  void generateContentStream_blockedPrompt_isAnErrorResponse() {
    server.enqueue(FakeGeminiServer.blockedPromptResponse("PROHIBITED_CONTENT"));

    List<LlmResponse> responses =
        collect(gemini.generateContent(Contents.userRequest("Something bad"), true));

    assertThat(responses)
        .singleElement()
        .satisfies(r -> assertThat(r.errorCode()).contains("PROHIBITED_CONTENT"));
  }

  // ------------------------------------------------------------------ configuration

  @Test
  void build_withoutApiKey_failsNamingBothVariables() {
    assertThatThrownBy(
            () ->
                Gemini.builder()
                    .modelName(MODEL)
                    .environment(Map.<String, String>of()::get)
                    .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("GOOGLE_API_KEY")
        .hasMessageContaining("GEMINI_API_KEY")
        .hasMessageContaining(MODEL);
  }

  @Test
  void build_readsApiKeyAndBaseUrlFromEnvironment_preferringGoogleApiKey() {
    server.enqueueText("a").enqueueText("b");
    Map<String, String> both =
        Map.of(
            "GOOGLE_API_KEY", "google-key",
            "GEMINI_API_KEY", "gemini-key",
            "GOOGLE_GEMINI_BASE_URL", server.baseUrl());
    Map<String, String> geminiOnly =
        Map.of("GEMINI_API_KEY", "gemini-key", "GOOGLE_GEMINI_BASE_URL", server.baseUrl());

    try (Gemini fromBoth = Gemini.builder().modelName(MODEL).environment(both::get).build();
        Gemini fromGemini =
            Gemini.builder().modelName(MODEL).environment(geminiOnly::get).build()) {
      fromBoth.generateContent(Contents.userRequest("Hi"), false).blockingFirst();
      assertThat(server.lastRequest().header("x-goog-api-key")).isEqualTo("google-key");
      fromGemini.generateContent(Contents.userRequest("Hi"), false).blockingFirst();
      assertThat(server.lastRequest().header("x-goog-api-key")).isEqualTo("gemini-key");
    }
  }

  @Test
  void build_withoutModelName_fails() {
    assertThatThrownBy(() -> Gemini.builder().apiKey("k").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("modelName");
  }

  @Test
  void build_clientCombinedWithApiKey_fails() {
    try (com.google.genai.Client client = com.google.genai.Client.builder().apiKey("k").build()) {
      assertThatThrownBy(
              () -> Gemini.builder().modelName(MODEL).client(client).apiKey("other").build())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("client(...)");
    }
  }

  @Test
  void retryAttempts_retriesAServerError() {
    server.enqueueError(503, "try again").enqueueText("second time lucky");
    try (Gemini retrying =
        Gemini.builder()
            .modelName(MODEL)
            .apiKey("test-key")
            .baseUrl(server.baseUrl())
            .retryAttempts(2)
            .build()) {
      LlmResponse response =
          retrying.generateContent(Contents.userRequest("Hi"), false).blockingFirst();

      assertThat(Contents.text(response)).isEqualTo("second time lucky");
      assertThat(server.requests()).hasSize(2);
    }
  }

  @Test
  void retryAttempts_belowOne_isRejected() {
    assertThatThrownBy(() -> Gemini.builder().retryAttempts(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0");
  }
}
