package dev.adk4j.compat;

// ADK for Java: com.google.adk.models.BaseLlm, LlmRequest, LlmResponse (prefix swap only).
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import io.reactivex.rxjava3.core.Flowable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * A model written as an ADK for Java program writes a test model: a subclass of {@code BaseLlm}
 * answering queued responses and recording requests. (ADK's abstract {@code connect(LlmRequest)}
 * override is removed, as the guide says.)
 */
final class QueueModel extends BaseLlm {
  private final Deque<LlmResponse> answers = new ArrayDeque<>();
  final List<LlmRequest> requests = Collections.synchronizedList(new ArrayList<>());

  QueueModel(LlmResponse... answers) {
    super("queue-model");
    this.answers.addAll(List.of(answers));
  }

  static LlmResponse text(String text) {
    return LlmResponse.builder()
        .content(Content.builder().role("model").parts(List.of(Part.fromText(text))).build())
        .build();
  }

  static LlmResponse call(String name, Map<String, Object> args) {
    return LlmResponse.builder()
        .content(
            Content.builder()
                .role("model")
                .parts(
                    List.of(
                        Part.builder()
                            .functionCall(FunctionCall.builder().name(name).args(args).build())
                            .build()))
                .build())
        .build();
  }

  @Override
  public Flowable<LlmResponse> generateContent(LlmRequest llmRequest, boolean stream) {
    requests.add(llmRequest);
    synchronized (answers) {
      LlmResponse next = answers.poll();
      return Flowable.just(next != null ? next : text("(no more answers)"));
    }
  }
}
