package dev.adk4j.testing;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import io.reactivex.rxjava3.core.Flowable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A model that answers from a script, so that agents run offline and deterministically in tests,
 * and that records every request it is sent.
 *
 * <p>Each call to {@link #generateContent} takes the next <i>step</i> of the script and answers
 * with what that step produces: a text, one or several function calls, a response computed from the
 * request, partial (streamed) responses and the final one, an error, or no answer at all; any step
 * can be {@linkplain Steps#delayed(Duration) delayed}.
 *
 * <pre>{@code
 * ScriptedLlm model = ScriptedLlm.builder()
 *     .thenFunctionCall("get_weather", Map.of("city", "Paris"))   // first call
 *     .thenText("It is sunny in Paris.")                          // second call
 *     .build();
 * LlmAgent agent = LlmAgent.builder().name("weather").model(model).tools(weatherTool).build();
 * // ... run the agent, e.g. with an InMemoryRunner ...
 *
 * assertThat(ScriptedLlm.toolNames(model.request(0))).containsExactly("get_weather");
 * assertThat(ScriptedLlm.functionResponses(model.lastRequest())).hasSize(1);
 * model.assertScriptConsumed();
 * }</pre>
 *
 * <h2>What it was sent</h2>
 *
 * {@link #requests()}, {@link #request(int)} and {@link #lastRequest()} return the {@link
 * LlmRequest}s received (system instruction, contents, function declarations, config); {@link
 * #instructions()} and {@link #userTexts()} list one part of each. The static readers {@link
 * #instruction}, {@link #userText}, {@link #toolNames} and {@link #functionResponses} pick the
 * usual parts out of one request. {@link #assertScriptConsumed()} checks that every step was used
 * and that no call came after the script ran out.
 *
 * <h2>Concurrent callers</h2>
 *
 * A {@code ParallelAgent} whose branches share one model calls it in an order nobody controls.
 * <i>Lanes</i> keep the answers deterministic: {@link Builder#whenInstructionContains(String,
 * Script)} or {@link Builder#when(Predicate, Script)} answer the calls whose request matches from a
 * script of their own, whatever the order of the calls; {@link #answering(Function)} computes every
 * answer from its request. A call goes to the first lane that matches it, else to the builder's own
 * (default) script, and once that is used up to the {@link Builder#otherwise(Function) otherwise}
 * responder if there is one.
 *
 * <h2>Streaming</h2>
 *
 * When the caller asks to stream ({@code stream=true}, as an agent does with {@code
 * StreamingMode.SSE}), a step that produces one response with text ({@link Steps#thenText}, {@link
 * Steps#thenResponse}, {@link Steps#thenAnswer}, the otherwise responder) emits that text in {@link
 * Builder#streamChunks(int) 2} (default) or more {@code partial} responses, then the response
 * itself as the final, aggregated one; without streaming it emits the response alone. The steps
 * that script their responses one by one ({@link Steps#thenStreamedText}, {@link
 * Steps#thenResponses}, {@link Steps#thenErrorAfterPartials}, {@link Steps#thenFlowable}) emit them
 * as they are, streaming or not.
 *
 * <h2>Errors</h2>
 *
 * A {@link Steps#thenError} step fails its call with the given exception, as the {@code Flowable}'s
 * error (a model API failure is an {@code LlmException}); {@link Steps#thenErrorResponse} answers
 * with a response carrying an error code instead (a refusal). A call that finds no step left fails
 * with an {@link IllegalStateException} naming this model, the call's number, the script that ran
 * out and the request.
 *
 * <p>Thread-safe: any number of threads may call it at once; each step is used by exactly one call.
 * {@link #generateContent} is lazy: the step is taken and the request recorded when the returned
 * {@code Flowable} is subscribed to, once per subscription.
 */
public final class ScriptedLlm extends BaseLlm {

  /** The model name of a {@link #builder()} that was given none. */
  public static final String DEFAULT_MODEL = "scripted-llm";

  private final Object lock = new Object();
  private final List<Lane> lanes;
  private final Lane defaultLane;
  private final @Nullable Function<LlmRequest, LlmResponse> otherwise;
  private final int streamChunks;
  private final List<LlmRequest> requests = new ArrayList<>();
  private final List<String> overruns = new ArrayList<>();

  private ScriptedLlm(Builder b) {
    super(b.model);
    List<Lane> built = new ArrayList<>();
    for (LaneSpec spec : b.lanes) {
      built.add(new Lane(spec.name, spec.matcher, spec.script.steps));
    }
    this.lanes = List.copyOf(built);
    this.defaultLane = new Lane("the default script", request -> true, b.steps);
    this.otherwise = b.otherwise;
    this.streamChunks = b.streamChunks;
  }

  /**
   * A new builder; its steps form the default script. The model is named {@value #DEFAULT_MODEL}.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** A new script for a lane: see {@link Builder#when(Predicate, Script)}. */
  public static Script script() {
    return new Script();
  }

  /**
   * A model that answers every call with {@code responder}'s response to its request, for agents
   * whose answer depends on what they send (their instruction, state, the conversation) or that are
   * called an unknown number of times.
   *
   * <pre>{@code
   * ScriptedLlm echo = ScriptedLlm.answering(
   *     request -> ScriptedLlm.textResponse("echo " + ScriptedLlm.userText(request)));
   * }</pre>
   */
  public static ScriptedLlm answering(Function<LlmRequest, LlmResponse> responder) {
    return builder().otherwise(responder).build();
  }

  // ---- responses ----

  /** A model response with one text part. */
  public static LlmResponse textResponse(String text) {
    Objects.requireNonNull(text, "text");
    return LlmResponse.builder().content(modelContent(List.of(Part.fromText(text)))).build();
  }

  /** A partial (streamed) model response with one text part. */
  public static LlmResponse partialResponse(String text) {
    return textResponse(text).toBuilder().partial(true).build();
  }

  /** A model response with one function call of {@code name} with {@code args} (no call id). */
  public static LlmResponse functionCallResponse(String name, Map<String, ?> args) {
    return functionCallsResponse(functionCall(name, args));
  }

  /** A model response with these function calls in one content, in order (parallel calls). */
  public static LlmResponse functionCallsResponse(FunctionCall... calls) {
    if (calls.length == 0) {
      throw new IllegalArgumentException("functionCallsResponse needs at least one call");
    }
    List<Part> parts = new ArrayList<>();
    for (FunctionCall call : calls) {
      parts.add(Part.builder().functionCall(Objects.requireNonNull(call, "call")).build());
    }
    return LlmResponse.builder().content(modelContent(parts)).build();
  }

  /**
   * A function call of {@code name} with {@code args} and no id (the agent gives it one), for
   * {@link Steps#thenFunctionCalls}.
   */
  public static FunctionCall functionCall(String name, Map<String, ?> args) {
    requireText(name, "function name");
    Objects.requireNonNull(args, "args");
    return FunctionCall.builder().name(name).args(new LinkedHashMap<>(args)).build();
  }

  /**
   * A response with no content and {@code errorCode}/{@code errorMessage}: a model that answered
   * but refused (a blocked prompt, a safety stop).
   */
  public static LlmResponse errorResponse(String errorCode, String errorMessage) {
    requireText(errorCode, "errorCode");
    Objects.requireNonNull(errorMessage, "errorMessage");
    return LlmResponse.builder().errorCode(errorCode).errorMessage(errorMessage).build();
  }

  // ---- readers of one request ----

  /** The system instruction of {@code request}; empty if it has none. */
  public static String instruction(LlmRequest request) {
    return Requests.instruction(request);
  }

  /** The text of the last {@code user} content of {@code request} that has text; empty if none. */
  public static String userText(LlmRequest request) {
    return Requests.userText(request);
  }

  /** The names of the tools (function declarations) {@code request} offered, in order. */
  public static List<String> toolNames(LlmRequest request) {
    return Requests.toolNames(request);
  }

  /** The function responses (tool results) in the contents of {@code request}, in order. */
  public static List<FunctionResponse> functionResponses(LlmRequest request) {
    return Requests.functionResponses(request);
  }

  // ---- the model ----

  @Override
  public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
    Objects.requireNonNull(request, "request");
    return Flowable.defer(() -> take(request).flow(request, stream, model(), streamChunks));
  }

  /**
   * False: a script's steps answer at once, or after their {@linkplain Steps#delayed delay} from a
   * timer, so the agents call this model on the turn's own thread. A step whose function blocks
   * (one waiting on a latch) therefore blocks the turn, and {@code RunConfig.llmCallTimeout} cannot
   * cut it short; a script that tests timeouts uses {@code delayed} or {@code thenNoAnswer}.
   */
  @Override
  public boolean blocksSubscriber() {
    return false;
  }

  private Step take(LlmRequest request) {
    synchronized (lock) {
      requests.add(request);
      int call = requests.size();
      Lane lane = null;
      for (Lane l : lanes) {
        if (l.matches(request)) {
          lane = l;
          break;
        }
      }
      Lane used = lane != null ? lane : defaultLane;
      Step step = used.next();
      if (step != null) {
        return step;
      }
      if (lane == null && otherwise != null) {
        return Step.answer("the otherwise responder", otherwise);
      }
      String overrun = "call #" + call + " matched " + used.name;
      overruns.add(overrun);
      throw new IllegalStateException(
          "ScriptedLlm '"
              + model()
              + "': "
              + overrun
              + ", which has no step left ("
              + used.scripted()
              + " scripted); add a step, or an otherwise(...) responder. The request: "
              + Requests.summary(request));
    }
  }

  // ---- what it was sent ----

  /** Every request received, in arrival order. A snapshot. */
  public List<LlmRequest> requests() {
    synchronized (lock) {
      return List.copyOf(requests);
    }
  }

  /**
   * The request of call number {@code index + 1} (0-based, in arrival order).
   *
   * @throws IllegalArgumentException if fewer calls were made, naming this model and the count
   */
  public LlmRequest request(int index) {
    synchronized (lock) {
      if (index < 0 || index >= requests.size()) {
        throw new IllegalArgumentException(
            "ScriptedLlm '"
                + model()
                + "' has no request #"
                + index
                + ": it received "
                + requests.size()
                + " (0-based indexes)");
      }
      return requests.get(index);
    }
  }

  /**
   * The request received last.
   *
   * @throws IllegalStateException if no request was received, naming this model
   */
  public LlmRequest lastRequest() {
    synchronized (lock) {
      if (requests.isEmpty()) {
        throw new IllegalStateException("ScriptedLlm '" + model() + "' has received no request");
      }
      return requests.get(requests.size() - 1);
    }
  }

  /** The system instruction of each request, in arrival order ({@code ""} for none). */
  public List<String> instructions() {
    return requests().stream().map(ScriptedLlm::instruction).toList();
  }

  /** The last user text of each request, in arrival order; see {@link #userText}. */
  public List<String> userTexts() {
    return requests().stream().map(ScriptedLlm::userText).toList();
  }

  /** How many calls were made (subscriptions to {@link #generateContent}), failed ones included. */
  public int callCount() {
    synchronized (lock) {
      return requests.size();
    }
  }

  /** How many steps are left, over the default script and all lanes. */
  public int remainingSteps() {
    synchronized (lock) {
      int n = defaultLane.remaining();
      for (Lane lane : lanes) {
        n += lane.remaining();
      }
      return n;
    }
  }

  /**
   * Checks that the model was called exactly as scripted: every step of every script was used, and
   * no call came after its script ran out.
   *
   * @throws AssertionError naming this model and listing the unused steps and the calls that found
   *     no step
   */
  public void assertScriptConsumed() {
    synchronized (lock) {
      List<String> problems = new ArrayList<>();
      for (Lane lane : allLanes()) {
        if (lane.remaining() > 0) {
          problems.add(lane.remaining() + " unused step(s) in " + lane.name + ": " + lane.unused());
        }
      }
      for (String overrun : overruns) {
        problems.add(overrun + " after its script ran out");
      }
      if (!problems.isEmpty()) {
        throw new AssertionError(
            "ScriptedLlm '"
                + model()
                + "' was not called as scripted ("
                + requests.size()
                + " call(s)): "
                + String.join("; ", problems));
      }
    }
  }

  private List<Lane> allLanes() {
    List<Lane> all = new ArrayList<>(lanes);
    all.add(defaultLane);
    return all;
  }

  @Override
  public String toString() {
    return "ScriptedLlm{model="
        + model()
        + ", calls="
        + callCount()
        + ", remainingSteps="
        + remainingSteps()
        + "}";
  }

  // ---- helpers ----

  private static Content modelContent(List<Part> parts) {
    return Content.builder().role("model").parts(parts).build();
  }

  private static void requireText(String value, String what) {
    Objects.requireNonNull(value, what);
    if (value.isBlank()) {
      throw new IllegalArgumentException(what + " must not be blank");
    }
  }

  // ---- the script ----

  /** A lane as the builder holds it: its script is read at {@link Builder#build()}. */
  private record LaneSpec(String name, Predicate<LlmRequest> matcher, Script script) {}

  /**
   * The steps of a script, in call order: each {@code then...} method adds the answer of the next
   * call. Shared by {@link Builder} (the default script) and {@link Script} (a lane). Not
   * thread-safe.
   *
   * @param <S> the concrete type, returned for chaining
   */
  public abstract static class Steps<S extends Steps<S>> {
    final List<Step> steps = new ArrayList<>();

    Steps() {}

    abstract S self();

    private S add(Step step) {
      steps.add(step);
      return self();
    }

    /** Next call: a response with {@code text} (in partials first when streaming). */
    public S thenText(String text) {
      LlmResponse response = textResponse(text);
      return add(Step.answer("text " + Requests.quote(text), request -> response));
    }

    /**
     * Next call: a response with one function call of {@code name} with {@code args}. The agent
     * gives the call an id, runs the tool, and calls the model again with the tool's response.
     */
    public S thenFunctionCall(String name, Map<String, ?> args) {
      LlmResponse response = functionCallResponse(name, args);
      return add(Step.answer("function call " + name + args, request -> response));
    }

    /**
     * Next call: a response with several function calls in one content, which the agent runs in
     * order before calling the model again.
     *
     * <pre>{@code
     * .thenFunctionCalls(
     *     ScriptedLlm.functionCall("get_weather", Map.of("city", "Paris")),
     *     ScriptedLlm.functionCall("get_weather", Map.of("city", "Rome")))
     * }</pre>
     */
    public S thenFunctionCalls(FunctionCall... calls) {
      LlmResponse response = functionCallsResponse(calls);
      List<String> names = new ArrayList<>();
      for (FunctionCall call : calls) {
        names.add(call.name().orElse("?") + call.args().orElse(Map.of()));
      }
      return add(Step.answer("function calls " + names, request -> response));
    }

    /** Next call: {@code response} (in partials first when streaming, if it has text). */
    public S thenResponse(LlmResponse response) {
      Objects.requireNonNull(response, "response");
      return add(Step.answer("response " + response, request -> response));
    }

    /**
     * Next call: the response {@code responder} computes from the request (its instruction, the
     * state templated into it, the conversation so far). Runs on the model call's thread; what it
     * throws fails the call.
     */
    public S thenAnswer(Function<LlmRequest, LlmResponse> responder) {
      Objects.requireNonNull(responder, "responder");
      return add(Step.answer("an answer computed from the request", responder));
    }

    /**
     * Next call: a response with an error code and no content, as from a model that refuses to
     * answer; see {@link ScriptedLlm#errorResponse}.
     */
    public S thenErrorResponse(String errorCode, String errorMessage) {
      LlmResponse response = errorResponse(errorCode, errorMessage);
      return add(Step.answer("error response " + errorCode, request -> response));
    }

    /**
     * Next call: each of {@code chunks} as a partial response, then one final response with their
     * concatenation; streaming or not.
     */
    public S thenStreamedText(String... chunks) {
      if (chunks.length == 0) {
        throw new IllegalArgumentException("thenStreamedText needs at least one chunk");
      }
      List<LlmResponse> responses = new ArrayList<>();
      StringBuilder whole = new StringBuilder();
      for (String chunk : chunks) {
        responses.add(partialResponse(chunk));
        whole.append(chunk);
      }
      responses.add(textResponse(whole.toString()));
      return add(Step.verbatim("streamed text " + List.of(chunks), responses, null));
    }

    /**
     * Next call: exactly these responses, in order, streaming or not (for partials of your own, or
     * several responses from one call).
     */
    public S thenResponses(LlmResponse... responses) {
      List<LlmResponse> list = List.of(responses);
      return add(Step.verbatim("responses " + list, list, null));
    }

    /**
     * Next call: fails with {@code error}, as the {@code Flowable}'s error; for a failure of the
     * model API use an {@code LlmException}.
     */
    public S thenError(Throwable error) {
      Objects.requireNonNull(error, "error");
      return add(Step.verbatim("error " + error, List.of(), error));
    }

    /**
     * Next call: each of {@code partials} as a partial response, then fails with {@code error}: a
     * stream cut off midway.
     */
    public S thenErrorAfterPartials(Throwable error, String... partials) {
      Objects.requireNonNull(error, "error");
      List<LlmResponse> responses = new ArrayList<>();
      for (String text : partials) {
        responses.add(partialResponse(text));
      }
      return add(
          Step.verbatim(
              "partials " + List.of(partials) + " then error " + error, responses, error));
    }

    /**
     * Next call: never answers nor completes, as a model that hangs; only the caller's timeout
     * ({@code RunConfig.llmCallTimeout}) or cancellation ends the call.
     */
    public S thenNoAnswer() {
      return add(Step.noAnswer());
    }

    /**
     * Next call: whatever {@code flow} returns for the request, as it is; for anything the other
     * steps do not cover (a stream that waits on a latch, for instance).
     */
    public S thenFlowable(Function<LlmRequest, Flowable<LlmResponse>> flow) {
      Objects.requireNonNull(flow, "flow");
      return add(Step.flowable("a flowable computed from the request", flow));
    }

    /**
     * Delays the step added last: each of its responses, and its error, comes {@code delay} after
     * the one before it (the first {@code delay} after the call). With streaming, the partials of a
     * {@link #thenText} step are delayed one by one too, so a delayed step also tests timeouts
     * between chunks.
     *
     * <pre>{@code
     * .thenText("late").delayed(Duration.ofMillis(500))
     * }</pre>
     *
     * @throws IllegalStateException if no step was added yet
     * @throws IllegalArgumentException if {@code delay} is negative
     */
    public S delayed(Duration delay) {
      Objects.requireNonNull(delay, "delay");
      if (delay.isNegative()) {
        throw new IllegalArgumentException("delay must not be negative, was " + delay);
      }
      if (steps.isEmpty()) {
        throw new IllegalStateException(
            "delayed(" + delay + ") applies to the step added last, and there is none yet");
      }
      int last = steps.size() - 1;
      steps.set(last, steps.get(last).delayed(delay));
      return self();
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

  /**
   * Builds a {@link ScriptedLlm}; its own steps form the default script. Not thread-safe. {@link
   * #build()} copies the scripts, so later changes to this builder or its scripts do not reach a
   * model already built.
   */
  public static final class Builder extends Steps<Builder> {
    private String model = DEFAULT_MODEL;
    private final List<LaneSpec> lanes = new ArrayList<>();
    private @Nullable Function<LlmRequest, LlmResponse> otherwise;
    private int streamChunks = 2;

    private Builder() {}

    @Override
    Builder self() {
      return this;
    }

    /**
     * The model name reported by {@link ScriptedLlm#model()} and named in its errors; default
     * {@value ScriptedLlm#DEFAULT_MODEL}.
     */
    public Builder model(String model) {
      requireText(model, "model");
      this.model = model;
      return this;
    }

    /**
     * Calls whose request matches {@code matcher} are answered from {@code script} instead of the
     * default script. Lanes are tried in the order they were added; a matching lane that is used up
     * fails the call (it never falls back to the default script or the otherwise responder).
     *
     * <pre>{@code
     * ScriptedLlm.builder()
     *     .when(r -> ScriptedLlm.toolNames(r).contains("search"),
     *         ScriptedLlm.script().thenFunctionCall("search", Map.of("q", "adk4j")))
     * }</pre>
     */
    public Builder when(Predicate<LlmRequest> matcher, Script script) {
      return lane("lane #" + (lanes.size() + 1) + " (when ...)", matcher, script);
    }

    /**
     * Calls whose system instruction contains {@code fragment} (part of an agent's instruction) are
     * answered from {@code script}; see {@link #when(Predicate, Script)}.
     *
     * <pre>{@code
     * ScriptedLlm.builder()
     *     .whenInstructionContains("You are the writer", ScriptedLlm.script().thenText("A draft."))
     *     .whenInstructionContains("You are the critic", ScriptedLlm.script().thenText("Fine."))
     *     .build();
     * }</pre>
     */
    public Builder whenInstructionContains(String fragment, Script script) {
      Objects.requireNonNull(fragment, "fragment");
      return lane(
          "the lane for instructions containing " + Requests.quote(fragment),
          request -> instruction(request).contains(fragment),
          script);
    }

    private Builder lane(String name, Predicate<LlmRequest> matcher, Script script) {
      Objects.requireNonNull(matcher, "matcher");
      Objects.requireNonNull(script, "script");
      lanes.add(new LaneSpec(name, matcher, script));
      return this;
    }

    /**
     * Answers the calls that no lane matches once the default script is used up (or from the start,
     * if it is empty). Default: none, such calls fail.
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

    /** Builds the model. */
    public ScriptedLlm build() {
      return new ScriptedLlm(this);
    }
  }
}
