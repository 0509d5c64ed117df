package dev.adk4j.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.testsupport.Contents;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The scripted model on its own: every kind of step, lanes, streaming, delays, the record of
 * requests.
 */
class ScriptedLlmTest {

  private static List<LlmResponse> call(ScriptedLlm llm, String text, boolean stream) {
    return llm.generateContent(Contents.userRequest(text), stream).toList().blockingGet();
  }

  @Test
  void steps_areAnsweredInScriptOrder_andRequestsAreRecorded() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenText("hi")
            .thenFunctionCall("tool_name", Map.of("x", 1))
            .thenAnswer(
                request -> ScriptedLlm.textResponse("echo " + Contents.lastUserText(request)))
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
    ScriptedLlm llm = ScriptedLlm.builder().thenText("a").thenText("b").build();

    Flowable<LlmResponse> responses = llm.generateContent(Contents.userRequest("x"), false);
    assertThat(llm.requests()).isEmpty();
    assertThat(llm.remainingSteps()).isEqualTo(2);

    assertThat(Contents.text(responses.blockingFirst())).isEqualTo("a");
    assertThat(Contents.text(responses.blockingFirst())).isEqualTo("b");
  }

  @Test
  void callBeyondTheScript_failsShowingTheRequest() {
    ScriptedLlm llm = ScriptedLlm.builder().thenText("only").build();
    call(llm, "first", false);

    assertThatThrownBy(() -> call(llm, "the second question", false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("scripted-llm")
        .hasMessageContaining("call #2")
        .hasMessageContaining("1 scripted")
        .hasMessageContaining("the second question");
    assertThat(llm.callCount()).isEqualTo(2);
  }

  @Test
  void lastRequest_beforeAnyCall_fails() {
    assertThatThrownBy(() -> ScriptedLlm.builder().build().lastRequest())
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void stream_splitsTextIntoPartials_thenTheAggregatedFinal() {
    ScriptedLlm llm =
        ScriptedLlm.builder().thenText("Hello world").thenText("abc").streamChunks(3).build();

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
    ScriptedLlm llm =
        ScriptedLlm.builder().thenText("Hello").thenFunctionCall("tool", Map.of()).build();

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
    LlmResponse last = ScriptedLlm.textResponse("partial");
    ScriptedLlm llm =
        ScriptedLlm.builder().thenResponses(partial, last).thenResponses(partial, last).build();

    assertThat(call(llm, "x", false)).containsExactly(partial, last);
    assertThat(call(llm, "x", true)).containsExactly(partial, last);
  }

  @Test
  void thenError_failsThatCall() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenError(new IllegalArgumentException("boom"))
            .thenText("ok")
            .build();

    assertThatThrownBy(() -> call(llm, "x", false)).hasMessage("boom");
    assertThat(call(llm, "x", false)).extracting(Contents::text).containsExactly("ok");
  }

  @Test
  void lanes_answerByInstruction_whateverTheCallOrder() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .whenInstructionContains("writer", ScriptedLlm.script().thenText("w1").thenText("w2"))
            .whenInstructionContains("critic", ScriptedLlm.script().thenText("c1"))
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
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenText("scripted")
            .otherwise(request -> ScriptedLlm.textResponse("fallback"))
            .build();

    assertThat(call(llm, "a", false)).extracting(Contents::text).containsExactly("scripted");
    assertThat(call(llm, "b", false)).extracting(Contents::text).containsExactly("fallback");
    assertThat(call(llm, "c", false)).extracting(Contents::text).containsExactly("fallback");
  }

  @Test
  void answering_isDeterministicForConcurrentCallers() throws Exception {
    ScriptedLlm llm =
        ScriptedLlm.answering(
            request -> ScriptedLlm.textResponse("re: " + Contents.lastUserText(request)));
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
    ScriptedLlm.Builder builder = ScriptedLlm.builder();
    int calls = 50;
    IntStream.range(0, calls).forEach(i -> builder.thenText("r" + i));
    ScriptedLlm llm = builder.build();
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

  // ---- function calls, refusals, partials, errors, delays ----

  @Test
  void thenFunctionCalls_putsSeveralCallsWithTheirArgsInOneResponse() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenFunctionCalls(
                ScriptedLlm.functionCall("get_weather", Map.of("city", "Paris")),
                ScriptedLlm.functionCall("get_time", Map.of("zone", "CET", "format", 24)))
            .build();

    List<LlmResponse> responses = call(llm, "weather and time", true);

    assertThat(responses).hasSize(1);
    List<FunctionCall> calls = Contents.functionCalls(responses.get(0));
    assertThat(calls)
        .extracting(c -> c.name().orElseThrow())
        .containsExactly("get_weather", "get_time");
    assertThat(calls.get(0).args()).contains(Map.of("city", "Paris"));
    assertThat(calls.get(1).args()).contains(Map.of("zone", "CET", "format", 24));
    assertThat(calls).allSatisfy(c -> assertThat(c.id()).isEmpty());
  }

  @Test
  void badStepArguments_failAtScriptTime_namingWhatIsWrong() {
    assertThatThrownBy(() -> ScriptedLlm.builder().thenFunctionCalls())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one call");
    assertThatThrownBy(() -> ScriptedLlm.builder().thenFunctionCall(" ", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("function name");
    assertThatThrownBy(() -> ScriptedLlm.builder().thenStreamedText())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one chunk");
    assertThatThrownBy(() -> ScriptedLlm.builder().model(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("model");
    assertThatThrownBy(() -> ScriptedLlm.builder().streamChunks(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("streamChunks");
  }

  @Test
  void thenErrorResponse_answersWithAnErrorCodeAndNoContent_evenWhenStreaming() {
    ScriptedLlm llm = ScriptedLlm.builder().thenErrorResponse("SAFETY", "blocked").build();

    List<LlmResponse> responses = call(llm, "x", true);

    assertThat(responses)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.errorCode()).contains("SAFETY");
              assertThat(r.errorMessage()).contains("blocked");
              assertThat(r.content()).isEmpty();
            });
  }

  @Test
  void thenStreamedText_emitsItsChunksAsPartials_thenTheJoinedFinal_streamingOrNot() {
    ScriptedLlm llm =
        ScriptedLlm.builder().thenStreamedText("Hel", "lo", "!").thenStreamedText("one").build();

    List<LlmResponse> streamed = call(llm, "x", true);
    assertThat(streamed).extracting(Contents::text).containsExactly("Hel", "lo", "!", "Hello!");
    assertThat(streamed)
        .extracting(r -> r.partial().orElse(false))
        .containsExactly(true, true, true, false);

    assertThat(call(llm, "x", false)).extracting(Contents::text).containsExactly("one", "one");
  }

  @Test
  void thenErrorAfterPartials_emitsThePartials_thenFails() {
    IllegalStateException cut = new IllegalStateException("stream cut");
    ScriptedLlm llm =
        ScriptedLlm.builder().thenErrorAfterPartials(cut, "Half an ans", "wer").build();

    List<String> seen = new ArrayList<>();
    Throwable[] error = new Throwable[1];
    llm.generateContent(Contents.userRequest("x"), true)
        .blockingSubscribe(r -> seen.add(Contents.text(r)), e -> error[0] = e);

    assertThat(seen).containsExactly("Half an ans", "wer");
    assertThat(error[0]).isSameAs(cut);
  }

  @Test
  void thenError_acceptsACheckedException_asTheFlowablesError() {
    IOException io = new IOException("connection reset");
    ScriptedLlm llm = ScriptedLlm.builder().thenError(io).build();

    Throwable[] error = new Throwable[1];
    llm.generateContent(Contents.userRequest("x"), false)
        .blockingSubscribe(r -> {}, e -> error[0] = e);

    assertThat(error[0]).isSameAs(io);
  }

  @Test
  void thenNoAnswer_neverEmits_soOnlyTheCallersTimeoutEndsIt_andTheNextStepStillAnswers() {
    ScriptedLlm llm = ScriptedLlm.builder().thenNoAnswer().thenText("back").build();

    assertThatThrownBy(
            () ->
                llm.generateContent(Contents.userRequest("x"), false)
                    .timeout(200, TimeUnit.MILLISECONDS)
                    .blockingFirst())
        .hasCauseInstanceOf(TimeoutException.class);
    assertThat(call(llm, "again", false)).extracting(Contents::text).containsExactly("back");
  }

  @Test
  void delayed_delaysEachResponseOfItsStep_andOnlyThatStep() {
    Duration delay = Duration.ofMillis(300);
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .streamChunks(2)
            .thenText("slow")
            .delayed(delay)
            .thenText("fast")
            .build();

    // Each response is timed from the one before it, so the i-th comes (i + 1) delays in at least.
    List<Long> arrivals = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    long subscribed = System.nanoTime();
    llm.generateContent(Contents.userRequest("x"), true)
        .blockingForEach(
            r -> {
              arrivals.add(System.nanoTime() - subscribed);
              texts.add(Contents.text(r));
            });

    assertThat(texts).containsExactly("sl", "ow", "slow");
    for (int i = 0; i < arrivals.size(); i++) {
      assertThat(Duration.ofNanos(arrivals.get(i)))
          .as("arrival of response %d", i)
          .isGreaterThanOrEqualTo(delay.multipliedBy(i + 1).minusMillis(5));
    }
    // The next step is not delayed: it answers during the subscription, before test() returns.
    llm.generateContent(Contents.userRequest("y"), false)
        .test()
        .assertValueCount(1)
        .assertComplete()
        .assertValue(r -> Contents.text(r).equals("fast"));
  }

  @Test
  void delayed_delaysAnErrorToo() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenError(new IllegalStateException("late failure"))
            .delayed(Duration.ofMillis(200))
            .build();

    long started = System.nanoTime();
    assertThatThrownBy(() -> call(llm, "x", false)).hasMessage("late failure");
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isGreaterThanOrEqualTo(Duration.ofMillis(195));
  }

  @Test
  void delayed_needsAStepBeforeIt_andANonNegativeDelay() {
    assertThatThrownBy(() -> ScriptedLlm.builder().delayed(Duration.ofMillis(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("step added last");
    assertThatThrownBy(() -> ScriptedLlm.builder().thenText("x").delayed(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative");
  }

  @Test
  void thenFlowable_emitsWhatTheFunctionReturnsForTheRequest() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenFlowable(
                request ->
                    Flowable.just(
                        ScriptedLlm.partialResponse("for "),
                        ScriptedLlm.textResponse("for " + ScriptedLlm.userText(request))))
            .build();

    assertThat(call(llm, "Ada", false))
        .extracting(Contents::text)
        .containsExactly("for ", "for Ada");
  }

  @Test
  void thenAnswer_thatThrows_failsThatCallOnly() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .thenAnswer(
                request -> {
                  throw new IllegalStateException("no answer for " + ScriptedLlm.userText(request));
                })
            .thenText("fine")
            .build();

    assertThatThrownBy(() -> call(llm, "q1", false)).hasMessage("no answer for q1");
    assertThat(call(llm, "q2", false)).extracting(Contents::text).containsExactly("fine");
  }

  @Test
  void thenAnswer_returningNull_failsNamingTheModel() {
    ScriptedLlm llm = ScriptedLlm.builder().model("my-model").thenAnswer(request -> null).build();

    assertThatThrownBy(() -> call(llm, "x", false))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("my-model")
        .hasMessageContaining("returned null");
  }

  // ---- what it was sent ----

  @Test
  void readers_pickInstructionUserTextToolsAndToolResults_outOfTheRecordedRequests() {
    ScriptedLlm llm = ScriptedLlm.builder().thenText("a").thenText("b").build();
    LlmRequest first =
        Contents.userRequest("What is the weather?").toBuilder()
            .systemInstruction("You are the forecaster.")
            .addFunctionDeclaration(FunctionDeclaration.builder().name("get_weather").build())
            .addFunctionDeclaration(FunctionDeclaration.builder().name("get_time").build())
            .build();
    LlmRequest second =
        first.toBuilder()
            .addContent(Contents.functionCall("get_weather", Map.of("city", "Paris")))
            .addContent(Contents.functionResponse("get_weather", Map.of("sky", "clear")))
            .build();

    llm.generateContent(first, false).blockingSubscribe();
    llm.generateContent(second, false).blockingSubscribe();

    assertThat(llm.requests()).containsExactly(first, second);
    assertThat(llm.request(0)).isSameAs(first);
    assertThat(llm.lastRequest()).isSameAs(second);
    assertThat(llm.instructions())
        .containsExactly("You are the forecaster.", "You are the forecaster.");
    assertThat(llm.userTexts()).containsExactly("What is the weather?", "What is the weather?");
    assertThat(ScriptedLlm.toolNames(first)).containsExactly("get_weather", "get_time");
    assertThat(ScriptedLlm.functionResponses(first)).isEmpty();
    assertThat(ScriptedLlm.functionResponses(second))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.name()).contains("get_weather");
              assertThat(r.response()).contains(Map.of("sky", "clear"));
            });
    assertThat(ScriptedLlm.instruction(Contents.userRequest("x"))).isEmpty();
    assertThat(ScriptedLlm.userText(LlmRequest.builder().build())).isEmpty();
  }

  @Test
  void request_outOfRange_failsNamingTheModelAndTheCount() {
    ScriptedLlm llm = ScriptedLlm.builder().model("planner-model").thenText("a").build();
    call(llm, "x", false);

    assertThatThrownBy(() -> llm.request(1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("planner-model")
        .hasMessageContaining("#1")
        .hasMessageContaining("received 1");
    assertThatThrownBy(() -> llm.request(-1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void assertScriptConsumed_passesWhenEveryStepWasUsed() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .whenInstructionContains("critic", ScriptedLlm.script().thenText("c1"))
            .thenText("d1")
            .build();
    call(llm, "x", false);
    llm.generateContent(
            Contents.userRequest("x").toBuilder().systemInstruction("the critic").build(), false)
        .blockingSubscribe();

    llm.assertScriptConsumed();
    assertThat(llm.remainingSteps()).isZero();
  }

  @Test
  void assertScriptConsumed_listsTheUnusedStepsOfEachScript() {
    ScriptedLlm llm =
        ScriptedLlm.builder()
            .model("tutor")
            .whenInstructionContains("critic", ScriptedLlm.script().thenText("never used"))
            .thenText("used")
            .thenFunctionCall("lookup", Map.of("q", "x"))
            .build();
    call(llm, "x", false);

    assertThatThrownBy(llm::assertScriptConsumed)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("tutor")
        .hasMessageContaining("1 call")
        .hasMessageContaining("1 unused step(s) in the default script")
        .hasMessageContaining("lookup")
        .hasMessageContaining("instructions containing \"critic\"")
        .hasMessageContaining("never used")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\"used\""));
  }

  @Test
  void assertScriptConsumed_failsWhenACallCameAfterTheScriptRanOut_evenIfItsErrorWasSwallowed() {
    ScriptedLlm llm = ScriptedLlm.builder().thenText("only").build();
    call(llm, "x", false);
    llm.generateContent(Contents.userRequest("one too many"), false)
        .onErrorComplete()
        .blockingSubscribe();

    assertThat(llm.remainingSteps()).isZero();
    assertThatThrownBy(llm::assertScriptConsumed)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("call #2 matched the default script after its script ran out");
  }

  @Test
  void theExhaustedError_summarizesTheRequest() {
    ScriptedLlm llm = ScriptedLlm.builder().model("summarizer").build();
    LlmRequest request =
        Contents.userRequest("Summarize this.").toBuilder()
            .systemInstruction("You summarize.\nBriefly.")
            .addFunctionDeclaration(FunctionDeclaration.builder().name("fetch").build())
            .build();

    assertThatThrownBy(() -> llm.generateContent(request, false).blockingSubscribe())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ScriptedLlm 'summarizer': call #1 matched the default script")
        .hasMessageContaining("0 scripted")
        .hasMessageContaining("otherwise(...)")
        .hasMessageContaining("instruction \"You summarize. Briefly.\"")
        .hasMessageContaining("last user text \"Summarize this.\"")
        .hasMessageContaining("tools [fetch]");
  }

  @Test
  void aScriptChangedAfterBuild_doesNotChangeTheModel() {
    ScriptedLlm.Script lane = ScriptedLlm.script().thenText("lane 1");
    ScriptedLlm.Builder builder =
        ScriptedLlm.builder()
            .when(r -> ScriptedLlm.userText(r).equals("lane"), lane)
            .thenText("d1");
    ScriptedLlm llm = builder.build();
    lane.thenText("lane 2");
    builder.thenText("d2");

    assertThat(llm.remainingSteps()).isEqualTo(2);
    assertThat(builder.build().remainingSteps()).isEqualTo(4);
  }
}
