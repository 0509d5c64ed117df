package dev.adk4j.testing;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import io.reactivex.rxjava3.core.Flowable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A scripted model for tests. Each call to {@link #generateContent} consumes the next <i>step</i>
 * of a script and answers with what that step produces; every request is recorded.
 *
 * <pre>{@code
 * FakeLlm llm = FakeLlm.builder()
 *     .thenFunctionCall("get_weather", Map.of("city", "Paris"))
 *     .thenText("It is sunny in Paris.")
 *     .build();
 * ...
 * assertThat(llm.requests()).hasSize(2);
 * assertThat(llm.lastRequest().functionDeclarations()).extracting(d -> d.name().get())
 *     .containsExactly("get_weather");
 * }</pre>
 *
 * <p><b>Concurrent callers</b> (a {@code ParallelAgent} sharing one model) get deterministic
 * answers through <i>lanes</i>: {@link Builder#whenInstructionContains(String, Script)} or {@link
 * Builder#when(Predicate, Script)} give a call whose request matches its own script, whatever the
 * order in which the branches call; or {@link #answering(Function)} computes every answer from its
 * request. A call goes to the first lane that matches it, else to the builder's own (default)
 * script; when that script is used up, to the {@link Builder#otherwise(Function) otherwise}
 * responder if there is one.
 *
 * <p><b>Streaming.</b> With {@code stream=true}, a step that produces one response with text emits
 * that text in {@link Builder#streamChunks(int) 2} (default) or more {@code partial} responses,
 * then the step's response itself as the final, aggregated one. A step given several responses
 * ({@link Steps#thenResponses}) emits them as they are, streaming or not.
 *
 * <p><b>Errors.</b> A call with no step left fails (as the Flowable's error) with an {@link
 * IllegalStateException} that shows the call number, the script and the request. A {@link
 * Steps#thenError} step fails with its exception.
 *
 * <p>Thread-safe. {@link #generateContent} is lazy: the step is taken and the request recorded at
 * subscription, once per subscription.
 */
public final class FakeLlm extends BaseLlm {

  private final Object lock = new Object();
  private final List<Lane> lanes;
  private final Lane defaultLane;
  private final @Nullable Function<LlmRequest, LlmResponse> otherwise;
  private final int streamChunks;
  private final List<LlmRequest> requests = new ArrayList<>();

  private FakeLlm(Builder b) {
    super(b.model);
    this.lanes = List.copyOf(b.lanes);
    this.defaultLane = new Lane("the default script", request -> true, b.steps);
    this.otherwise = b.otherwise;
    this.streamChunks = b.streamChunks;
  }

  /** A new builder; the model name defaults to {@code fake-llm}. */
  public static Builder builder() {
    return new Builder();
  }

  /** A new script for a lane of {@link Builder#when(Predicate, Script)}. */
  public static Script script() {
    return new Script();
  }

  /** A model that answers every call with {@code responder}'s response to its request. */
  public static FakeLlm answering(Function<LlmRequest, LlmResponse> responder) {
    return builder().otherwise(responder).build();
  }

  /** A model response with one text part. */
  public static LlmResponse textResponse(String text) {
    return LlmResponse.builder().content(Contents.model(text)).build();
  }

  /** A model response with one function call (no id; the agent assigns one). */
  public static LlmResponse functionCallResponse(String name, Map<String, ?> args) {
    return LlmResponse.builder().content(Contents.functionCall(name, args)).build();
  }

  @Override
  public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
    Objects.requireNonNull(request, "request");
    return Flowable.defer(
        () -> {
          Step step = next(request);
          List<LlmResponse> responses = step.respond(request);
          if (!step.verbatim && stream && responses.size() == 1) {
            List<LlmResponse> chunked = new ArrayList<>(chunks(responses.get(0)));
            chunked.add(responses.get(0));
            responses = chunked;
          }
          return Flowable.fromIterable(responses);
        });
  }

  private Step next(LlmRequest request) {
    synchronized (lock) {
      requests.add(request);
      int call = requests.size();
      Lane lane = lanes.stream().filter(l -> l.matcher.test(request)).findFirst().orElse(null);
      Lane used = lane != null ? lane : defaultLane;
      Step step = used.steps.poll();
      if (step != null) {
        return step;
      }
      if (lane == null && otherwise != null) {
        return Step.single("otherwise", otherwise);
      }
      throw new IllegalStateException(
          "FakeLlm '"
              + model()
              + "': call #"
              + call
              + " matched "
              + used.name
              + ", which has no step left ("
              + used.scripted
              + " scripted); request: "
              + request);
    }
  }

  private List<LlmResponse> chunks(LlmResponse response) {
    if (response.errorCode().isPresent()) {
      return List.of();
    }
    String text = Contents.text(response);
    int n = Math.min(streamChunks, text.length());
    List<LlmResponse> partials = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String piece = text.substring(i * text.length() / n, (i + 1) * text.length() / n);
      partials.add(
          LlmResponse.builder()
              .content(Content.builder().role("model").parts(Part.fromText(piece)).build())
              .partial(true)
              .build());
    }
    return partials;
  }

  /** Every request received, in arrival order. A snapshot. */
  public List<LlmRequest> requests() {
    synchronized (lock) {
      return List.copyOf(requests);
    }
  }

  /**
   * The request received last.
   *
   * @throws IllegalStateException if no request was received
   */
  public LlmRequest lastRequest() {
    synchronized (lock) {
      if (requests.isEmpty()) {
        throw new IllegalStateException("FakeLlm '" + model() + "' has received no request");
      }
      return requests.get(requests.size() - 1);
    }
  }

  /** How many calls were made (subscriptions to {@link #generateContent}). */
  public int callCount() {
    synchronized (lock) {
      return requests.size();
    }
  }

  /** How many steps are left, over the default script and all lanes. */
  public int remainingSteps() {
    synchronized (lock) {
      return defaultLane.steps.size() + lanes.stream().mapToInt(l -> l.steps.size()).sum();
    }
  }

  /** One call's worth of responses. */
  private static final class Step {
    final String description;
    final Function<LlmRequest, List<LlmResponse>> responder;
    final boolean verbatim;

    Step(String description, Function<LlmRequest, List<LlmResponse>> responder, boolean verbatim) {
      this.description = description;
      this.responder = responder;
      this.verbatim = verbatim;
    }

    static Step single(String description, Function<LlmRequest, LlmResponse> responder) {
      return new Step(
          description,
          request ->
              List.of(
                  Objects.requireNonNull(
                      responder.apply(request), "responder of " + description + " returned null")),
          false);
    }

    List<LlmResponse> respond(LlmRequest request) {
      return responder.apply(request);
    }

    @Override
    public String toString() {
      return description;
    }
  }

  /** A script and the requests it answers. Its steps are guarded by the model's lock. */
  private static final class Lane {
    final String name;
    final Predicate<LlmRequest> matcher;
    final Deque<Step> steps;
    final int scripted;

    Lane(String name, Predicate<LlmRequest> matcher, List<Step> steps) {
      this.name = name;
      this.matcher = matcher;
      this.steps = new ArrayDeque<>(steps);
      this.scripted = steps.size();
    }
  }

  /**
   * The steps of a script, in call order. Shared by {@link Builder} (the default script) and {@link
   * Script} (a lane). Not thread-safe.
   *
   * @param <S> the concrete type, returned for chaining
   */
  public abstract static class Steps<S extends Steps<S>> {
    final List<Step> steps = new ArrayList<>();

    Steps() {}

    abstract S self();

    /** Next call: a response with {@code text}. */
    public S thenText(String text) {
      Objects.requireNonNull(text, "text");
      return thenResponse(textResponse(text), "text " + quote(text));
    }

    /** Next call: a response with one function call of {@code name} with {@code args}. */
    public S thenFunctionCall(String name, Map<String, ?> args) {
      return thenResponse(functionCallResponse(name, args), "function call " + name + args);
    }

    /** Next call: a response with these function calls, in one content (parallel calls). */
    public S thenFunctionCalls(FunctionCall... calls) {
      List<Part> parts = new ArrayList<>();
      for (FunctionCall call : calls) {
        parts.add(Part.builder().functionCall(call).build());
      }
      LlmResponse response =
          LlmResponse.builder()
              .content(Content.builder().role("model").parts(parts).build())
              .build();
      return thenResponse(response, "function calls " + List.of(calls));
    }

    /** Next call: {@code response} (chunked into partials first when streaming and it has text). */
    public S thenResponse(LlmResponse response) {
      return thenResponse(response, response.toString());
    }

    private S thenResponse(LlmResponse response, String description) {
      Objects.requireNonNull(response, "response");
      return then(description, request -> response);
    }

    /**
     * Next call: exactly these responses, in order, streaming or not (for scripting partials, or
     * several events from one call).
     */
    public S thenResponses(LlmResponse... responses) {
      List<LlmResponse> list = List.of(responses);
      steps.add(new Step("responses " + list, request -> list, true));
      return self();
    }

    /** Next call: the response {@code responder} computes from the request. */
    public S then(Function<LlmRequest, LlmResponse> responder) {
      return then("a computed response", responder);
    }

    private S then(String description, Function<LlmRequest, LlmResponse> responder) {
      Objects.requireNonNull(responder, "responder");
      steps.add(Step.single(description, responder));
      return self();
    }

    /** Next call: fails with {@code error}, as a model API error would. */
    public S thenError(RuntimeException error) {
      Objects.requireNonNull(error, "error");
      steps.add(
          new Step(
              "error " + error,
              request -> {
                throw error;
              },
              true));
      return self();
    }

    private static String quote(String text) {
      return '"' + text + '"';
    }
  }

  /** The script of a lane; see {@link Builder#when(Predicate, Script)}. Not thread-safe. */
  public static final class Script extends Steps<Script> {
    private Script() {}

    @Override
    Script self() {
      return this;
    }
  }

  /** Builds a {@link FakeLlm}; its own steps form the default script. Not thread-safe. */
  public static final class Builder extends Steps<Builder> {
    private String model = "fake-llm";
    private final List<Lane> lanes = new ArrayList<>();
    private @Nullable Function<LlmRequest, LlmResponse> otherwise;
    private int streamChunks = 2;

    private Builder() {}

    @Override
    Builder self() {
      return this;
    }

    /** The model name reported by {@link FakeLlm#model()}; default {@code fake-llm}. */
    public Builder model(String model) {
      this.model = Objects.requireNonNull(model, "model");
      return this;
    }

    /**
     * Calls whose request matches {@code matcher} are answered from {@code script} instead of the
     * default script. Lanes are tried in the order they were added; a matching lane that is used up
     * fails the call (it never falls back).
     */
    public Builder when(Predicate<LlmRequest> matcher, Script script) {
      return lane("when(...) lane #" + (lanes.size() + 1), matcher, script);
    }

    /**
     * Calls whose system instruction contains {@code fragment} (an agent's name or instruction) are
     * answered from {@code script}; see {@link #when(Predicate, Script)}.
     */
    public Builder whenInstructionContains(String fragment, Script script) {
      Objects.requireNonNull(fragment, "fragment");
      return lane(
          "the lane for instructions containing \"" + fragment + "\"",
          request -> request.systemInstruction().orElse("").contains(fragment),
          script);
    }

    private Builder lane(String name, Predicate<LlmRequest> matcher, Script script) {
      Objects.requireNonNull(matcher, "matcher");
      Objects.requireNonNull(script, "script");
      lanes.add(new Lane(name, matcher, script.steps));
      return this;
    }

    /**
     * Answers calls that no lane matches once the default script is used up (or from the start, if
     * it is empty). Default: none, such calls fail.
     */
    public Builder otherwise(Function<LlmRequest, LlmResponse> responder) {
      this.otherwise = Objects.requireNonNull(responder, "responder");
      return this;
    }

    /**
     * Into how many partial responses a text response is split when streaming (fewer when the text
     * is shorter than that). Default 2.
     *
     * @throws IllegalArgumentException if {@code chunks < 1}
     */
    public Builder streamChunks(int chunks) {
      if (chunks < 1) {
        throw new IllegalArgumentException("streamChunks must be >= 1, was " + chunks);
      }
      this.streamChunks = chunks;
      return this;
    }

    /** Builds the model. The builder and scripts may not be reused afterwards. */
    public FakeLlm build() {
      return new FakeLlm(this);
    }
  }
}
