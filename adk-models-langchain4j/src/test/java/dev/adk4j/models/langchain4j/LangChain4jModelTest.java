package dev.adk4j.models.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.models.LlmException;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.models.RetryPolicy;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What is particular to the LangChain4j adapter: its builder, a chat model without streaming
 * serving a streamed call, finish reasons, and typed LangChain4j exceptions. The models here are
 * hand-written LangChain4j {@link ChatModel}s, as an application's own provider would be.
 */
class LangChain4jModelTest {

  /** A ChatModel that answers each call with the next of {@code answers} (or throws it). */
  static ChatModel scripted(String name, AtomicInteger calls, Object... answers) {
    return new ChatModel() {
      @Override
      public ChatResponse doChat(ChatRequest request) {
        Object next = answers[Math.min(calls.getAndIncrement(), answers.length - 1)];
        if (next instanceof RuntimeException e) {
          throw e;
        }
        return (ChatResponse) next;
      }

      @Override
      public ChatRequestParameters defaultRequestParameters() {
        return ChatRequestParameters.builder().modelName(name).build();
      }
    };
  }

  static ChatResponse answer(String text, FinishReason finish) {
    return ChatResponse.builder()
        .aiMessage(text == null ? AiMessage.builder().build() : AiMessage.from(text))
        .finishReason(finish)
        .tokenUsage(new TokenUsage(5, 2, 7))
        .build();
  }

  static LlmRequest hi() {
    return LlmRequest.builder()
        .addContent(Content.builder().role("user").parts(List.of(Part.fromText("hi"))).build())
        .build();
  }

  @Test
  void name_defaultsToTheLangChain4jModels_andAModelIsRequired() {
    LangChain4jModel m =
        LangChain4jModel.builder()
            .chatModel(scripted("my-model", new AtomicInteger(), answer("x", FinishReason.STOP)))
            .build();
    assertThat(m.model()).isEqualTo("my-model");
    assertThatThrownBy(() -> LangChain4jModel.builder().modelName("m").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("chatModel(...) or streamingModel(...)");
  }

  @Test
  void aStreamedCall_onAChatModelOnly_answersWithTheCompleteResponse() {
    LangChain4jModel m =
        LangChain4jModel.builder()
            .chatModel(scripted("m", new AtomicInteger(), answer("whole", FinishReason.STOP)))
            .build();

    List<LlmResponse> responses = m.generateContent(hi(), true).toList().blockingGet();

    assertThat(responses).hasSize(1);
    assertThat(responses.get(0).partial().orElse(false)).isFalse();
    assertThat(responses.get(0).content().orElseThrow().text()).isEqualTo("whole");
    assertThat(responses.get(0).usageMetadata().orElseThrow().totalTokenCount()).contains(7);
  }

  @Test
  void lengthWithoutContent_isAnErrorResponse_MAX_TOKENS() {
    LangChain4jModel m =
        LangChain4jModel.builder()
            .chatModel(scripted("m", new AtomicInteger(), answer(null, FinishReason.LENGTH)))
            .build();

    LlmResponse r = m.generateContent(hi(), false).blockingLast();

    assertThat(r.errorCode()).contains("MAX_TOKENS");
  }

  @Test
  void aRateLimitException_isStatus429_andRetried() {
    AtomicInteger calls = new AtomicInteger();
    LangChain4jModel m =
        LangChain4jModel.builder()
            .chatModel(
                scripted(
                    "m",
                    calls,
                    new RateLimitException("too many requests"),
                    answer("ok", FinishReason.STOP)))
            .retry(RetryPolicy.of(1, Duration.ofMillis(1), Duration.ofMillis(5)))
            .build();

    assertThat(m.generateContent(hi(), false).blockingLast().content().orElseThrow().text())
        .isEqualTo("ok");
    assertThat(calls).hasValue(2);

    AtomicInteger again = new AtomicInteger();
    LangChain4jModel failing =
        LangChain4jModel.builder()
            .chatModel(scripted("m", again, new RateLimitException("too many requests")))
            .retry(RetryPolicy.none())
            .build();
    assertThatThrownBy(() -> failing.generateContent(hi(), false).blockingLast())
        .isInstanceOf(LlmException.class)
        .hasMessageContaining("'m'")
        .hasMessageContaining("HTTP 429")
        .hasMessageContaining("too many requests");
  }
}
