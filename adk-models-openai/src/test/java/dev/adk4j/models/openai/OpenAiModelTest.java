package dev.adk4j.models.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.types.Blob;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import com.google.genai.types.Type;
import dev.adk4j.modelcontract.ChatCompletionsWire;
import dev.adk4j.modelcontract.WireServer;
import dev.adk4j.modelcontract.WireServer.Reply;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmException;
import dev.adk4j.models.LlmRegistry;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.models.RetryPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What is particular to the Chat Completions mapping, beyond the model contract. */
class OpenAiModelTest {
  final WireServer server = new WireServer();

  @AfterEach
  void close() {
    server.close();
  }

  OpenAiModel model() {
    return OpenAiModel.builder()
        .modelName("gpt-test")
        .apiKey("sk-secret")
        .baseUrl(server.baseUrl() + "/v1")
        .retry(RetryPolicy.none())
        .build();
  }

  static LlmRequest.Builder hi() {
    return LlmRequest.builder()
        .addContent(Content.builder().role("user").parts(List.of(Part.fromText("hi"))).build());
  }

  static Reply completion(ObjectNode message, String finish) {
    return Reply.json(200, ChatCompletionsWire.completion(message, finish).toString());
  }

  @Test
  void request_isChatCompletions_withKey_settings_andJsonSchemaTools() {
    server.enqueue(
        completion(ChatCompletionsWire.JSON.createObjectNode().put("content", "ok"), "stop"));
    LlmRequest request =
        hi().addFunctionDeclaration(
                FunctionDeclaration.builder()
                    .name("lookup")
                    .description("Looks up.")
                    .parameters(
                        Schema.builder()
                            .type(Type.Known.OBJECT)
                            .properties(
                                Map.of(
                                    "q",
                                    Schema.builder().type(Type.Known.STRING).nullable(true).build(),
                                    "n",
                                    Schema.builder()
                                        .type(Type.Known.ARRAY)
                                        .items(Schema.builder().type(Type.Known.INTEGER).build())
                                        .build()))
                            .required(List.of("q"))
                            .build())
                    .build())
            .config(
                GenerateContentConfig.builder()
                    .temperature(0.2f)
                    .topP(0.9f)
                    .maxOutputTokens(64)
                    .seed(7)
                    .stopSequences(List.of("END"))
                    .build())
            .build();

    model().generateContent(request, false).blockingLast();

    WireServer.Request sent = server.requests().get(0);
    assertThat(sent.method()).isEqualTo("POST");
    assertThat(sent.path()).isEqualTo("/v1/chat/completions");
    assertThat(sent.header("authorization")).isEqualTo("Bearer sk-secret");
    JsonNode body = sent.json();
    assertThat(body.path("model").asText()).isEqualTo("gpt-test");
    assertThat(body.path("temperature").asDouble())
        .isCloseTo(0.2, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(body.path("max_completion_tokens").asInt()).isEqualTo(64);
    assertThat(body.path("seed").asInt()).isEqualTo(7);
    assertThat(body.path("stop").get(0).asText()).isEqualTo("END");
    JsonNode fn = body.path("tools").get(0);
    assertThat(fn.path("type").asText()).isEqualTo("function");
    assertThat(fn.path("function").path("description").asText()).isEqualTo("Looks up.");
    JsonNode params = fn.path("function").path("parameters");
    assertThat(params.path("type").asText()).isEqualTo("object");
    assertThat(params.path("properties").path("q").path("type").toString())
        .isEqualTo("[\"string\",\"null\"]");
    assertThat(params.path("properties").path("n").path("items").path("type").asText())
        .isEqualTo("integer");
    assertThat(params.path("required").get(0).asText()).isEqualTo("q");
    assertThat(body.has("stream")).isFalse();
  }

  @Test
  void lengthStopWithoutContent_isAnErrorResponse_MAX_TOKENS() {
    server.enqueue(completion(ChatCompletionsWire.JSON.createObjectNode(), "length"));

    LlmResponse r = model().generateContent(hi().build(), false).blockingLast();

    assertThat(r.errorCode()).contains("MAX_TOKENS");
    assertThat(r.content()).isEmpty();
  }

  @Test
  void refusal_isAnErrorResponse_withTheModelsWords() {
    ObjectNode message = ChatCompletionsWire.JSON.createObjectNode();
    message.putNull("content");
    message.put("refusal", "I can't help with that.");
    server.enqueue(completion(message, "stop"));

    LlmResponse r = model().generateContent(hi().build(), false).blockingLast();

    assertThat(r.errorCode()).contains("REFUSAL");
    assertThat(r.errorMessage()).contains("I can't help with that.");
  }

  @Test
  void toolArgumentsThatAreNotJson_failTheCall_namingTheCall() {
    ObjectNode message = ChatCompletionsWire.JSON.createObjectNode();
    ObjectNode call = message.putArray("tool_calls").addObject();
    call.put("id", "call_9").put("type", "function");
    call.putObject("function").put("name", "lookup").put("arguments", "{not json");
    server.enqueue(completion(message, "tool_calls"));

    assertThatThrownBy(() -> model().generateContent(hi().build(), false).blockingLast())
        .isInstanceOf(LlmException.class)
        .hasMessageContaining("'lookup'")
        .hasMessageContaining("call_9")
        .hasMessageContaining("{not json");
  }

  @Test
  void anImagePart_isRefused_namingIt() {
    LlmRequest request =
        LlmRequest.builder()
            .addContent(
                Content.builder()
                    .role("user")
                    .parts(
                        List.of(
                            Part.builder()
                                .inlineData(
                                    Blob.builder()
                                        .mimeType("image/png")
                                        .data(new byte[] {1, 2})
                                        .build())
                                .build()))
                    .build())
            .build();

    assertThatThrownBy(() -> model().generateContent(request, false).blockingLast())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gpt-test")
        .hasMessageContaining("image/png");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void http401_isNotRetried_andCarriesTheApisMessage() {
    server.always(
        Reply.json(
            401,
            "{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\"}}"));
    OpenAiModel model =
        OpenAiModel.builder()
            .modelName("gpt-test")
            .apiKey("bad")
            .baseUrl(server.baseUrl() + "/v1")
            .retry(RetryPolicy.defaults())
            .build();

    assertThatThrownBy(() -> model.generateContent(hi().build(), false).blockingLast())
        .isInstanceOf(LlmException.class)
        .hasMessageContaining("HTTP 401")
        .hasMessageContaining("Incorrect API key provided");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void http503_isRetried_upToTheLimit_thenReported() {
    server.always(Reply.json(503, "{\"error\":{\"message\":\"overloaded\"}}"));
    OpenAiModel model =
        OpenAiModel.builder()
            .modelName("gpt-test")
            .apiKey("k")
            .baseUrl(server.baseUrl() + "/v1")
            .retry(
                RetryPolicy.of(2, java.time.Duration.ofMillis(10), java.time.Duration.ofMillis(50)))
            .build();

    assertThatThrownBy(() -> model.generateContent(hi().build(), false).blockingLast())
        .isInstanceOf(LlmException.class)
        .hasMessageContaining("HTTP 503")
        .hasMessageContaining("overloaded");
    assertThat(server.requests()).hasSize(3);
  }

  // ---- names and environment ----

  @Test
  void openaiScheme_resolvesFromTheEnvironment_baseUrlAndKey() {
    server.enqueue(
        completion(ChatCompletionsWire.JSON.createObjectNode().put("content", "hey"), "stop"));
    BaseLlm model =
        LlmRegistry.create(
            "openai/gpt-4o-mini",
            Map.of("OPENAI_API_KEY", "sk-env", "OPENAI_BASE_URL", server.baseUrl() + "/v1")::get);

    LlmResponse r = model.generateContent(hi().build(), false).blockingLast();

    assertThat(model).isInstanceOf(OpenAiModel.class);
    assertThat(model.model()).isEqualTo("gpt-4o-mini");
    assertThat(r.content().orElseThrow().text()).isEqualTo("hey");
    assertThat(server.requests().get(0).header("authorization")).isEqualTo("Bearer sk-env");
    assertThat(server.requests().get(0).json().path("model").asText()).isEqualTo("gpt-4o-mini");
  }

  @Test
  void ollamaScheme_usesOllamaBaseUrl_withoutKey() {
    server.enqueue(
        completion(ChatCompletionsWire.JSON.createObjectNode().put("content", "hi"), "stop"));
    BaseLlm model =
        LlmRegistry.create(
            "ollama/llama3.2", Map.of("OLLAMA_BASE_URL", server.baseUrl() + "/v1")::get);

    model.generateContent(hi().build(), false).blockingLast();

    assertThat(server.requests().get(0).path()).isEqualTo("/v1/chat/completions");
    assertThat(server.requests().get(0).json().path("model").asText()).isEqualTo("llama3.2");
  }

  @Test
  void openaiScheme_withoutKeyOrBaseUrl_namesTheVariable() {
    assertThatThrownBy(
            () -> LlmRegistry.create("openai/gpt-4o-mini", Map.<String, String>of()::get))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("OPENAI_API_KEY")
        .hasMessageContaining("gpt-4o-mini");
  }

  @Test
  void anthropicScheme_withoutItsModule_namesTheModule() {
    assertThatThrownBy(
            () -> LlmRegistry.create("anthropic/claude-sonnet-4-5", Map.<String, String>of()::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dev.adk4j:adk-models-anthropic");
  }

  @Test
  void builder_refusesAClientWithOtherSettings_andNeedsAName() {
    assertThatThrownBy(() -> OpenAiModel.builder().apiKey("k").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("modelName");
    assertThatThrownBy(() -> OpenAiModel.builder().modelName(" "))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
