package dev.adk4j.models.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import com.google.genai.types.Type;
import dev.adk4j.modelcontract.WireServer;
import dev.adk4j.modelcontract.WireServer.Reply;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmException;
import dev.adk4j.models.LlmRegistry;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.models.RetryPolicy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What is particular to the Messages API mapping, beyond the model contract. */
class AnthropicModelTest {
  final WireServer server = new WireServer();

  @AfterEach
  void close() {
    server.close();
  }

  AnthropicModel model(RetryPolicy retry) {
    return AnthropicModel.builder()
        .modelName("claude-test")
        .apiKey("sk-ant-secret")
        .baseUrl(server.baseUrl())
        .retry(retry)
        .build();
  }

  /** The API key a request carried: SDK 3.14 sends it as a bearer token, older ones x-api-key. */
  static String key(WireServer.Request r) {
    String bearer = r.header("authorization");
    return bearer != null && bearer.startsWith("Bearer ")
        ? bearer.substring("Bearer ".length())
        : r.header("x-api-key");
  }

  static Content user(String text) {
    return Content.builder().role("user").parts(List.of(Part.fromText(text))).build();
  }

  static Reply text(String text) {
    ArrayNode content = AnthropicModelContractTest.JSON.createArrayNode();
    content.addObject().put("type", "text").put("text", text);
    return Reply.json(
        200, AnthropicModelContractTest.message(content, "end_turn", 3, 1).toString());
  }

  @Test
  void request_isMessages_withKeyVersionMaxTokensSystemAndToolSchema() {
    server.enqueue(text("ok"));
    LlmRequest request =
        LlmRequest.builder()
            .systemInstruction("Be terse.")
            .addContent(user("hi"))
            .addContent(user("again"))
            .addFunctionDeclaration(
                FunctionDeclaration.builder()
                    .name("lookup")
                    .description("Looks up.")
                    .parameters(
                        Schema.builder()
                            .type(Type.Known.OBJECT)
                            .properties(
                                Map.of("q", Schema.builder().type(Type.Known.STRING).build()))
                            .required(List.of("q"))
                            .build())
                    .build())
            .config(
                GenerateContentConfig.builder()
                    .temperature(0.5f)
                    .stopSequences(List.of("END"))
                    .build())
            .build();

    model(RetryPolicy.none()).generateContent(request, false).blockingLast();

    WireServer.Request sent = server.requests().get(0);
    assertThat(sent.path()).isEqualTo("/v1/messages");
    assertThat(key(sent)).isEqualTo("sk-ant-secret");
    assertThat(sent.header("anthropic-version")).isNotBlank();
    JsonNode body = sent.json();
    assertThat(body.path("model").asText()).isEqualTo("claude-test");
    assertThat(body.path("max_tokens").asInt()).isEqualTo(4096);
    assertThat(body.path("system").asText()).isEqualTo("Be terse.");
    assertThat(body.path("temperature").asDouble()).isEqualTo(0.5);
    assertThat(body.path("stop_sequences").get(0).asText()).isEqualTo("END");
    // Two user contents in a row are one user message: the API wants turns to alternate.
    assertThat(body.path("messages")).hasSize(1);
    assertThat(body.path("messages").get(0).path("content")).hasSize(2);
    JsonNode tool = body.path("tools").get(0);
    assertThat(tool.path("name").asText()).isEqualTo("lookup");
    assertThat(tool.path("description").asText()).isEqualTo("Looks up.");
    assertThat(tool.path("input_schema").path("type").asText()).isEqualTo("object");
    assertThat(tool.path("input_schema").path("properties").path("q").path("type").asText())
        .isEqualTo("string");
    assertThat(tool.path("input_schema").path("required").get(0).asText()).isEqualTo("q");
  }

  @Test
  void thinking_isAThoughtPart_andGoesBackSigned() {
    ArrayNode content = AnthropicModelContractTest.JSON.createArrayNode();
    content
        .addObject()
        .put("type", "thinking")
        .put("thinking", "Let me see.")
        .put("signature", "sig-1");
    content.addObject().put("type", "text").put("text", "Answer.");
    server.enqueue(
        Reply.json(200, AnthropicModelContractTest.message(content, "end_turn", 3, 9).toString()),
        text("ok"));
    AnthropicModel model = model(RetryPolicy.none());

    LlmResponse r =
        model
            .generateContent(LlmRequest.builder().addContent(user("q")).build(), false)
            .blockingLast();

    List<Part> parts = r.content().orElseThrow().parts().orElseThrow();
    assertThat(parts.get(0).thought()).contains(true);
    assertThat(parts.get(0).text()).contains("Let me see.");
    assertThat(new String(parts.get(0).thoughtSignature().orElseThrow(), StandardCharsets.UTF_8))
        .isEqualTo("sig-1");
    assertThat(r.content().orElseThrow().text()).isEqualTo("Answer.");

    model
        .generateContent(
            LlmRequest.builder()
                .addContent(user("q"))
                .addContent(r.content().orElseThrow())
                .addContent(user("more"))
                .build(),
            false)
        .blockingLast();
    JsonNode assistant = server.requests().get(1).json().path("messages").get(1);
    assertThat(assistant.path("role").asText()).isEqualTo("assistant");
    assertThat(assistant.path("content").get(0).path("type").asText()).isEqualTo("thinking");
    assertThat(assistant.path("content").get(0).path("signature").asText()).isEqualTo("sig-1");
  }

  @Test
  void overloaded529_isRetried_thenAnswers() {
    server.enqueue(
        Reply.json(
            529,
            "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"),
        text("fine"));

    LlmResponse r =
        model(RetryPolicy.of(2, Duration.ofMillis(10), Duration.ofMillis(50)))
            .generateContent(LlmRequest.builder().addContent(user("q")).build(), false)
            .blockingLast();

    assertThat(r.content().orElseThrow().text()).isEqualTo("fine");
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void badRequest_isReported_withTheApisTypeAndMessage_notRetried() {
    server.always(
        Reply.json(
            400,
            "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"max_tokens: too large\"}}"));

    assertThatThrownBy(
            () ->
                model(RetryPolicy.defaults())
                    .generateContent(LlmRequest.builder().addContent(user("q")).build(), false)
                    .blockingLast())
        .isInstanceOf(LlmException.class)
        .hasMessageContaining("claude-test")
        .hasMessageContaining("HTTP 400")
        .hasMessageContaining("max_tokens: too large");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void refusalWithoutContent_isAnErrorResponse() {
    server.enqueue(
        Reply.json(
            200,
            AnthropicModelContractTest.message(
                    AnthropicModelContractTest.JSON.createArrayNode(), "refusal", 3, 0)
                .toString()));

    LlmResponse r =
        model(RetryPolicy.none())
            .generateContent(LlmRequest.builder().addContent(user("q")).build(), false)
            .blockingLast();

    assertThat(r.errorCode()).contains("REFUSAL");
    assertThat(r.content()).isEmpty();
  }

  @Test
  void anthropicScheme_resolvesFromTheEnvironment_orNamesTheVariable() {
    server.enqueue(text("hey"));
    BaseLlm model =
        LlmRegistry.create(
            "anthropic/claude-sonnet-4-5",
            Map.of("ANTHROPIC_API_KEY", "sk-env", "ANTHROPIC_BASE_URL", server.baseUrl())::get);

    LlmResponse r =
        model
            .generateContent(LlmRequest.builder().addContent(user("q")).build(), false)
            .blockingLast();

    assertThat(model).isInstanceOf(AnthropicModel.class);
    assertThat(r.content().orElseThrow().text()).isEqualTo("hey");
    assertThat(key(server.requests().get(0))).isEqualTo("sk-env");
    assertThat(server.requests().get(0).json().path("model").asText())
        .isEqualTo("claude-sonnet-4-5");
    assertThatThrownBy(
            () -> LlmRegistry.create("anthropic/claude-sonnet-4-5", Map.<String, String>of()::get))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ANTHROPIC_API_KEY");
  }
}
