package dev.adk4j.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.FunctionCall;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FakeLlmTest {

  private static List<LlmResponse> call(FakeLlm llm, String text, boolean stream) {
    return llm.generateContent(Contents.userRequest(text), stream).toList().blockingGet();
  }

  @Test
  void steps_areAnsweredInScriptOrder_andRequestsAreRecorded() {
    FakeLlm llm =
        FakeLlm.builder()
            .thenText("hi")
            .thenFunctionCall("tool_name", Map.of("x", 1))
            .then(request -> FakeLlm.textResponse("echo " + Contents.lastUserText(request)))
            .build();

    assertThat(call(llm, "one", false)).extracting(Contents::text).containsExactly("hi");
    List<LlmResponse> second = call(llm, "two", false);
    assertThat(second).hasSize(1);
    List<FunctionCall> calls = Contents.functionCalls(second.get(0));
    assertThat(calls).singleElement().satisfies(c -> assertThat(c.name()).contains("tool_name"));
    assertThat(calls.get(0).args()).contains(Map.of("x", 1));
    assertThat(call(llm, "three", false)).extracting(Contents::text).containsExactly("echo three");

    assertThat(llm.callCount()).isEqualTo(3);
    assertThat(llm.remainingSteps()).isZero();
    assertThat(llm.requests())
        .extracting(Contents::lastUserText)
        .containsExactly("one", "two", "three");
    assertThat(Contents.lastUserText(llm.lastRequest())).isEqualTo("three");
  }

  @Test
  void generateContent_isLazy() {
    FakeLlm llm = FakeLlm.builder().thenText("a").thenText("b").build();

    Flowable<LlmResponse> responses = llm.generateContent(Contents.userRequest("x"), false);
    assertThat(llm.requests()).isEmpty();
    assertThat(llm.remainingSteps()).isEqualTo(2);

    assertThat(Contents.text(responses.blockingFirst())).isEqualTo("a");
    assertThat(Contents.text(responses.blockingFirst())).isEqualTo("b");
  }

  @Test
  void callBeyondTheScript_failsShowingTheRequest() {
    FakeLlm llm = FakeLlm.builder().thenText("only").build();
    call(llm, "first", false);

    assertThatThrownBy(() -> call(llm, "the second question", false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("fake-llm")
        .hasMessageContaining("call #2")
        .hasMessageContaining("1 scripted")
        .hasMessageContaining("the second question");
    assertThat(llm.callCount()).isEqualTo(2);
  }

  @Test
  void lastRequest_beforeAnyCall_fails() {
    assertThatThrownBy(() -> FakeLlm.builder().build().lastRequest())
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void stream_splitsTextIntoPartials_thenTheAggregatedFinal() {
    FakeLlm llm = FakeLlm.builder().thenText("Hello world").thenText("abc").streamChunks(3).build();

    List<LlmResponse> responses = call(llm, "hi", true);

    assertThat(responses).hasSize(4);
    assertThat(responses.subList(0, 3)).allSatisfy(r -> assertThat(r.partial()).contains(true));
    assertThat(responses.subList(0, 3).stream().map(Contents::text).reduce("", String::concat))
        .isEqualTo("Hello world");
    assertThat(responses.get(3).partial().orElse(false)).isFalse();
    assertThat(Contents.text(responses.get(3))).isEqualTo("Hello world");

    assertThat(call(llm, "again", true))
        .extracting(Contents::text)
        .containsExactly("a", "b", "c", "abc");
  }

  @Test
  void stream_defaultsToTwoPartials_andFunctionCallsHaveNone() {
    FakeLlm llm = FakeLlm.builder().thenText("Hello").thenFunctionCall("tool", Map.of()).build();

    List<LlmResponse> text = call(llm, "hi", true);
    assertThat(text).extracting(Contents::text).containsExactly("He", "llo", "Hello");
    assertThat(text).extracting(r -> r.partial().orElse(false)).containsExactly(true, true, false);

    List<LlmResponse> functionCall = call(llm, "hi", true);
    assertThat(functionCall).singleElement().satisfies(r -> assertThat(r.partial()).isEmpty());
  }

  @Test
  void thenResponses_areEmittedVerbatim() {
    LlmResponse partial =
        LlmResponse.builder().content(Contents.model("par")).partial(true).build();
    LlmResponse last = FakeLlm.textResponse("partial");
    FakeLlm llm =
        FakeLlm.builder().thenResponses(partial, last).thenResponses(partial, last).build();

    assertThat(call(llm, "x", false)).containsExactly(partial, last);
    assertThat(call(llm, "x", true)).containsExactly(partial, last);
  }

  @Test
  void thenError_failsThatCall() {
    FakeLlm llm =
        FakeLlm.builder().thenError(new IllegalArgumentException("boom")).thenText("ok").build();

    assertThatThrownBy(() -> call(llm, "x", false)).hasMessage("boom");
    assertThat(call(llm, "x", false)).extracting(Contents::text).containsExactly("ok");
  }

  @Test
  void lanes_answerByInstruction_whateverTheCallOrder() {
    FakeLlm llm =
        FakeLlm.builder()
            .whenInstructionContains("writer", FakeLlm.script().thenText("w1").thenText("w2"))
            .whenInstructionContains("critic", FakeLlm.script().thenText("c1"))
            .thenText("default")
            .build();
    LlmRequest critic =
        Contents.userRequest("x").toBuilder().systemInstruction("You are the critic").build();
    LlmRequest writer =
        Contents.userRequest("x").toBuilder().systemInstruction("You are the writer").build();

    assertThat(Contents.text(llm.generateContent(critic, false).blockingFirst())).isEqualTo("c1");
    assertThat(Contents.text(llm.generateContent(writer, false).blockingFirst())).isEqualTo("w1");
    assertThat(Contents.text(llm.generateContent(Contents.userRequest("x"), false).blockingFirst()))
        .isEqualTo("default");
    assertThat(Contents.text(llm.generateContent(writer, false).blockingFirst())).isEqualTo("w2");

    assertThatThrownBy(() -> llm.generateContent(critic, false).blockingFirst())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("critic")
        .hasMessageContaining("no step left");
  }

  @Test
  void otherwise_answersOnceTheScriptIsUsedUp() {
    FakeLlm llm =
        FakeLlm.builder()
            .thenText("scripted")
            .otherwise(request -> FakeLlm.textResponse("fallback"))
            .build();

    assertThat(call(llm, "a", false)).extracting(Contents::text).containsExactly("scripted");
    assertThat(call(llm, "b", false)).extracting(Contents::text).containsExactly("fallback");
    assertThat(call(llm, "c", false)).extracting(Contents::text).containsExactly("fallback");
  }

  @Test
  void answering_isDeterministicForConcurrentCallers() throws Exception {
    FakeLlm llm =
        FakeLlm.answering(request -> FakeLlm.textResponse("re: " + Contents.lastUserText(request)));
    int callers = 16;
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<String>> answers =
          IntStream.range(0, callers)
              .mapToObj(
                  i ->
                      pool.submit(
                          () -> {
                            go.await();
                            return Contents.text(
                                llm.generateContent(Contents.userRequest("q" + i), false)
                                    .blockingFirst());
                          }))
              .toList();
      go.countDown();
      for (int i = 0; i < callers; i++) {
        assertThat(answers.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("re: q" + i);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(llm.callCount()).isEqualTo(callers);
  }

  @Test
  void script_isConsumedExactlyOnceUnderConcurrency() {
    FakeLlm.Builder builder = FakeLlm.builder();
    int calls = 50;
    IntStream.range(0, calls).forEach(i -> builder.thenText("r" + i));
    FakeLlm llm = builder.build();
    Map<String, Boolean> seen = new ConcurrentHashMap<>();

    Flowable.range(0, calls)
        .parallel(4)
        .runOn(Schedulers.io())
        .flatMap(i -> llm.generateContent(Contents.userRequest("q" + i), false))
        .sequential()
        .blockingForEach(r -> assertThat(seen.put(Contents.text(r), true)).isNull());

    assertThat(seen).hasSize(calls);
    assertThat(llm.requests()).hasSize(calls);
    assertThat(llm.remainingSteps()).isZero();
  }
}
