package dev.adk4j.models.openai;

import dev.adk4j.modelcontract.ChatCompletionsWire;
import dev.adk4j.modelcontract.ModelContract;
import dev.adk4j.modelcontract.WireServer;
import dev.adk4j.modelcontract.WireServer.Reply;
import dev.adk4j.models.BaseLlm;
import java.util.List;
import java.util.Map;

/**
 * The model contract on {@link OpenAiModel}, against a local server speaking Chat Completions
 * ({@link ChatCompletionsWire}).
 */
class OpenAiModelContractTest extends ModelContract {

  @Override
  protected BaseLlm model(String baseUrl) {
    return OpenAiModel.builder()
        .modelName(MODEL)
        .apiKey("sk-test")
        .baseUrl(baseUrl + "/v1")
        .retry(RETRY)
        .environment(Map.<String, String>of()::get)
        .build();
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
