package dev.adk4j.benchmarks;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import com.google.genai.types.Type;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.sun.net.httpserver.HttpServer;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.RetryPolicy;
import dev.adk4j.models.anthropic.AnthropicModel;
import dev.adk4j.models.langchain4j.LangChain4jModel;
import dev.adk4j.models.openai.OpenAiModel;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What each model adapter adds to a call over the client it wraps: the same one-turn request (a
 * system instruction, a user message, one function declaration) sent to a local HTTP server that
 * answers at once with a fixed short answer, once through the SDK directly (building the SDK's
 * request and reading the text of its answer) and once through the adapter ({@code
 * generateContent(request, false)}, mapping the {@code LlmRequest} in and the answer out, through
 * its retry policy and Flowable). The difference of a pair is the adapter's per-call overhead.
 *
 * <p><b>Unit</b>: AverageTime, microseconds per call, one thread. The HTTP round trip on loopback
 * is in both sides of a pair alike (the server runs with TCP_NODELAY).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
// The JDK's HTTP server writes headers and body apart: without TCP_NODELAY, Nagle's algorithm and
// the client's delayed ACK add ~40 ms to every call and hide what is measured.
@Fork(value = 1, jvmArgsAppend = "-Dsun.net.httpserver.nodelay=true")
public class ModelOverheadBenchmark {

  static final String CHAT_COMPLETION =
      "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1760000000,"
          + "\"model\":\"bench\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
          + "\"content\":\"Hello there.\",\"refusal\":null},\"logprobs\":null,"
          + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":20,"
          + "\"completion_tokens\":3,\"total_tokens\":23}}";

  static final String MESSAGE =
      "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"bench\","
          + "\"content\":[{\"type\":\"text\",\"text\":\"Hello there.\"}],"
          + "\"stop_reason\":\"end_turn\",\"stop_sequence\":null,"
          + "\"usage\":{\"input_tokens\":20,\"output_tokens\":3}}";

  HttpServer server;
  ExecutorService executor;
  OpenAIClient openAi;
  OpenAiModel openAiModel;
  AnthropicClient anthropic;
  AnthropicModel anthropicModel;
  OpenAiChatModel langChain4j;
  LangChain4jModel langChain4jModel;
  LlmRequest request;
  ToolSpecification lc4jTool;

  @Setup(Level.Trial)
  public void start() throws IOException {
    executor = Executors.newFixedThreadPool(4);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          byte[] body =
              (exchange.getRequestURI().getPath().endsWith("/messages") ? MESSAGE : CHAT_COMPLETION)
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.setExecutor(executor);
    server.start();
    String base = "http://127.0.0.1:" + server.getAddress().getPort();

    openAi = OpenAIOkHttpClient.builder().apiKey("k").baseUrl(base + "/v1").maxRetries(0).build();
    openAiModel =
        OpenAiModel.builder()
            .modelName("bench")
            .client(openAi)
            .retry(RetryPolicy.defaults())
            .build();
    anthropic = AnthropicOkHttpClient.builder().apiKey("k").baseUrl(base).maxRetries(0).build();
    anthropicModel =
        AnthropicModel.builder()
            .modelName("bench")
            .client(anthropic)
            .retry(RetryPolicy.defaults())
            .build();
    langChain4j =
        OpenAiChatModel.builder()
            .apiKey("k")
            .baseUrl(base + "/v1")
            .modelName("bench")
            .maxRetries(0)
            .build();
    langChain4jModel = LangChain4jModel.builder().modelName("bench").chatModel(langChain4j).build();

    request =
        LlmRequest.builder()
            .model("bench")
            .systemInstruction("You are a helpful assistant. The user's name is Ada.")
            .addContent(
                Content.builder().role("user").parts(List.of(Part.fromText("Say hello."))).build())
            .addFunctionDeclaration(
                FunctionDeclaration.builder()
                    .name("lookup")
                    .description("Looks something up.")
                    .parameters(
                        Schema.builder()
                            .type(Type.Known.OBJECT)
                            .properties(
                                Map.of("q", Schema.builder().type(Type.Known.STRING).build()))
                            .required(List.of("q"))
                            .build())
                    .build())
            .build();
    lc4jTool =
        ToolSpecification.builder()
            .name("lookup")
            .description("Looks something up.")
            .parameters(
                JsonObjectSchema.builder().addStringProperty("q").required(List.of("q")).build())
            .build();
  }

  @TearDown(Level.Trial)
  public void stop() {
    openAi.close();
    anthropic.close();
    server.stop(0);
    executor.shutdownNow();
  }

  @Benchmark
  public String openAi_direct() {
    ChatCompletionCreateParams params =
        ChatCompletionCreateParams.builder()
            .model("bench")
            .addSystemMessage("You are a helpful assistant. The user's name is Ada.")
            .addUserMessage("Say hello.")
            .addTool(
                ChatCompletionFunctionTool.builder()
                    .function(
                        FunctionDefinition.builder()
                            .name("lookup")
                            .description("Looks something up.")
                            .parameters(
                                FunctionParameters.builder()
                                    .putAdditionalProperty("type", JsonValue.from("object"))
                                    .putAdditionalProperty(
                                        "properties",
                                        JsonValue.from(Map.of("q", Map.of("type", "string"))))
                                    .putAdditionalProperty("required", JsonValue.from(List.of("q")))
                                    .build())
                            .build())
                    .build())
            .build();
    ChatCompletion c = openAi.chat().completions().create(params);
    return c.choices().get(0).message().content().orElse("");
  }

  @Benchmark
  public String openAi_adapter() {
    return openAiModel.generateContent(request, false).blockingLast().content().get().text();
  }

  @Benchmark
  public String anthropic_direct() {
    MessageCreateParams params =
        MessageCreateParams.builder()
            .model("bench")
            .maxTokens(4096)
            .system("You are a helpful assistant. The user's name is Ada.")
            .addUserMessage("Say hello.")
            .addTool(
                com.anthropic.models.messages.Tool.builder()
                    .name("lookup")
                    .description("Looks something up.")
                    .inputSchema(
                        com.anthropic.models.messages.Tool.InputSchema.builder()
                            .properties(
                                com.anthropic.models.messages.Tool.InputSchema.Properties.builder()
                                    .putAdditionalProperty(
                                        "q",
                                        com.anthropic.core.JsonValue.from(Map.of("type", "string")))
                                    .build())
                            .required(List.of("q"))
                            .build())
                    .build())
            .build();
    Message m = anthropic.messages().create(params);
    StringBuilder text = new StringBuilder();
    for (ContentBlock b : m.content()) {
      b.text().ifPresent(t -> text.append(t.text()));
    }
    return text.toString();
  }

  @Benchmark
  public String anthropic_adapter() {
    return anthropicModel.generateContent(request, false).blockingLast().content().get().text();
  }

  @Benchmark
  public String langChain4j_direct() {
    return langChain4j
        .chat(
            ChatRequest.builder()
                .messages(
                    SystemMessage.from("You are a helpful assistant. The user's name is Ada."),
                    UserMessage.from("Say hello."))
                .toolSpecifications(lc4jTool)
                .build())
        .aiMessage()
        .text();
  }

  @Benchmark
  public String langChain4j_adapter() {
    return langChain4jModel.generateContent(request, false).blockingLast().content().get().text();
  }
}
