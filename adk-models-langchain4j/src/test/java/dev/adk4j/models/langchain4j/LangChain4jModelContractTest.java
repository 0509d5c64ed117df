package dev.adk4j.models.langchain4j;

import dev.adk4j.modelcontract.ChatCompletionsWire;
import dev.adk4j.modelcontract.ModelContract;
import dev.adk4j.modelcontract.WireServer;
import dev.adk4j.modelcontract.WireServer.Reply;
import dev.adk4j.models.BaseLlm;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.time.Duration;
import java.util.List;

/**
 * The model contract on {@link LangChain4jModel} over a real LangChain4j provider,
 * langchain4j-open-ai's {@code OpenAiChatModel} and {@code OpenAiStreamingChatModel} (their own
 * HTTP client and JSON mapping), against the local Chat Completions server ({@link
 * ChatCompletionsWire}).
 */
class LangChain4jModelContractTest extends ModelContract {

  @Override
  protected BaseLlm model(String baseUrl) {
    return LangChain4jModel.builder()
        .modelName(MODEL)
        .chatModel(
            OpenAiChatModel.builder()
                .baseUrl(baseUrl + "/v1")
                .apiKey("sk-test")
                .modelName(MODEL)
                .maxRetries(0)
                .timeout(Duration.ofSeconds(20))
                .build())
        .streamingModel(
            OpenAiStreamingChatModel.builder()
                .baseUrl(baseUrl + "/v1")
                .apiKey("sk-test")
                .modelName(MODEL)
                .timeout(Duration.ofSeconds(20))
                .build())
        .retry(RETRY)
        .build();
  }

  /** LangChain4j's exceptions carry the status but not the response's headers. */
  @Override
  protected boolean honoursRetryAfter() {
    return false;
  }

  @Override
  protected Reply text(String text, int promptTokens, int outputTokens) {
    return ChatCompletionsWire.text(text, promptTokens, outputTokens);
  }

  @Override
  protected Reply calls(List<Call> calls) {
    return ChatCompletionsWire.calls(calls);
  }

  @Override
  protected Reply streamedText(List<String> chunks, int promptTokens, int outputTokens) {
    return ChatCompletionsWire.streamedText(chunks, promptTokens, outputTokens);
  }

  @Override
  protected Reply streamedCalls(List<Call> calls) {
    return ChatCompletionsWire.streamedCalls(calls);
  }

  @Override
  protected Reply error(int status, String message) {
    return ChatCompletionsWire.error(status, message);
  }

  @Override
  protected Seen seen(WireServer.Request request) {
    return ChatCompletionsWire.seen(request);
  }
}
