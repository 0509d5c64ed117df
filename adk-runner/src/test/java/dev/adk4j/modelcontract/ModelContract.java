package dev.adk4j.modelcontract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import com.google.genai.types.Type;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.modelcontract.WireServer.Reply;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmException;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.models.RetryPolicy;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.Annotations;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every model adapter must do, whatever the provider: the same agent, run through a real
 * {@link Runner} against a local server speaking the provider's wire format, stores the same events
 * and state as on Gemini.
 *
 * <p>A provider's test extends this class and says only how to build its model against a base URL
 * and how its wire format writes the replies the scenarios need and reads the requests they check
 * (the abstract methods). The scenarios: a {@code FunctionTool} that writes {@code user:} and
 * session state, called twice in parallel from one response (ids kept); an {@code outputKey}; a
 * {@code {key}} template in the instruction; an {@code outputSchema}; a streamed answer (partials
 * emitted, never stored) and streamed parallel calls; usage metadata; a malformed body, a 429 then
 * success (waiting what {@code Retry-After} says), a 500, and a server that never answers (bounded
 * by {@code RunConfig.llmCallTimeout}).
 *
 * <p>Published in adk-runner's test-jar (only this package): a model module depends on it at test
 * scope, with {@code adk-runner}, so its main code still depends on {@code adk-core} alone.
 */
@Timeout(60)
public abstract class ModelContract {

  /** The retry policy the contract's models use: short backoffs, Retry-After up to 5 s. */
  protected static final RetryPolicy RETRY =
      RetryPolicy.of(2, Duration.ofMillis(100), Duration.ofSeconds(5));

  /** The model name every scenario uses. */
  public static final String MODEL = "contract-model";

  /** A function call a reply asks for. */
  public record Call(String id, String name, Map<String, Object> args) {}

  /**
   * What a request carried, read from the provider's wire format.
   *
   * @param systemInstruction the system instruction text, null if none was sent
   * @param toolNames the names of the declared functions
   * @param userTexts the texts of the user's turns, in order
   * @param functionCallIds the ids of the function calls in the model's earlier turns, in order
   * @param functionResponseIds the ids of the function results sent back, in order
   * @param asksForJson whether the request asked for JSON output (a schema, or a JSON mode)
   */
  public record Seen(
      String systemInstruction,
      List<String> toolNames,
      List<String> userTexts,
      List<String> functionCallIds,
      List<String> functionResponseIds,
      boolean asksForJson) {}

  /**
   * The model under test, calling {@code baseUrl}, named {@link #MODEL}, retrying as {@link
   * #RETRY}.
   */
  protected abstract BaseLlm model(String baseUrl);

  /** A complete text answer that reports the given token counts. */
  protected abstract Reply text(String text, int promptTokens, int outputTokens);

  /** A complete answer that calls {@code calls}, in this order. */
  protected abstract Reply calls(List<Call> calls);

  /** A streamed text answer in {@code chunks}, then the given token counts. */
  protected abstract Reply streamedText(List<String> chunks, int promptTokens, int outputTokens);

  /**
   * A streamed answer that calls {@code calls} (arguments arriving in pieces where the API does).
   */
  protected abstract Reply streamedCalls(List<Call> calls);

  /** The provider's error answer: HTTP {@code status} with {@code message} in its error body. */
  protected abstract Reply error(int status, String message);

  /** What {@code request} carried. */
  protected abstract Seen seen(WireServer.Request request);

  /**
   * Whether the adapter waits what the server's {@code Retry-After} header says before retrying a
   * 429. Every adk4j adapter does; {@code Gemini} retries with google-genai's own backoff.
   */
  protected boolean honoursRetryAfter() {
    return true;
  }

  // ------------------------------------------------------------------ fixture

  protected final WireServer server = new WireServer();
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void closeServer() throws Exception {
    server.close();
    for (AutoCloseable c : closeables) {
      c.close();
    }
  }

  private BaseLlm newModel() {
    BaseLlm model = model(server.baseUrl());
    if (model instanceof AutoCloseable) {
      closeables.add((AutoCloseable) model);
    }
    return model;
  }

  static final String APP = "contract";
  static final String USER = "u1";
  static final String SESSION = "s1";
  static final RunConfig CALM = RunConfig.builder().llmCallTimeout(Duration.ofSeconds(30)).build();

  /** The tool of the scenarios: writes a session key and counts in the user's scope. */
  public static Map<String, Object> remember(
      @Annotations.Schema(name = "key", description = "what to remember") String key,
      @Annotations.Schema(name = "value", description = "its value") String value,
      ToolContext context) {
    context.state().put(key, value);
    context.state().increment("user:remembered", 1);
    return Map.of("saved", key);
  }

  static LlmAgent agent(BaseLlm model) {
    return LlmAgent.builder()
        .name("assistant")
        .model(model)
        .instruction("You help {user:name}. Topic: {topic}.")
        .tools(FunctionTool.create(ModelContract.class, "remember"))
        .outputKey("answer")
        .build();
  }

  /** One turn's outcome: what was emitted, and the error if the turn failed. */
  record Turn(List<Event> emitted, Throwable error) {}

  final BaseSessionService sessions = new InMemorySessionService();

  Turn run(LlmAgent agent, String message, RunConfig config) {
    if (sessions.getSession(APP, USER, SESSION, Optional.empty()).blockingGet() == null) {
      sessions
          .createSession(APP, USER, Map.of("topic", "tides", "user:name", "Ada"), SESSION)
          .blockingGet();
    }
    Runner runner = new Runner(agent, APP, null, sessions);
    List<Event> emitted = new CopyOnWriteArrayList<>();
    Throwable[] error = new Throwable[1];
    runner
        .runAsync(
            USER,
            SESSION,
            Content.builder().role("user").parts(List.of(Part.fromText(message))).build(),
            config)
        .blockingSubscribe(emitted::add, e -> error[0] = e);
    if (error[0] == null) {
      // A failed invocation ends with its error event; the exception behind it is its cause.
      error[0] =
          dev.adk4j.runner.InvocationFailedException.of(emitted)
              .map(dev.adk4j.runner.InvocationFailedException::failure)
              .orElse(null);
    }
    return new Turn(emitted, error[0]);
  }

  Session session() {
    return sessions.getSession(APP, USER, SESSION, Optional.empty()).blockingGet();
  }

  List<String> stored() {
    return session().events().stream().map(ModelContract::describe).toList();
  }

  private static final ObjectMapper SORTED =
      new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  /** An event as the transcripts below write it: author, role, then each part. */
  static String describe(Event e) {
    StringBuilder b = new StringBuilder(String.valueOf(e.author()));
    e.content()
        .ifPresent(
            c -> {
              b.append('/').append(c.role().orElse("?")).append(':');
              for (Part p : c.parts().orElse(List.of())) {
                b.append(' ');
                if (p.text().isPresent()) {
                  b.append("text ").append(p.text().get());
                } else if (p.functionCall().isPresent()) {
                  FunctionCall call = p.functionCall().get();
                  b.append("call ")
                      .append(call.name().orElse("?"))
                      .append('#')
                      .append(call.id().orElse("?"))
                      .append(json(call.args().orElse(Map.of())));
                } else if (p.functionResponse().isPresent()) {
                  FunctionResponse r = p.functionResponse().get();
                  b.append("response ")
                      .append(r.name().orElse("?"))
                      .append('#')
                      .append(r.id().orElse("?"))
                      .append(json(r.response().orElse(Map.of())));
                } else {
                  b.append("other");
                }
              }
            });
    e.errorCode().ifPresent(code -> b.append(" error ").append(code));
    e.partial().filter(p -> p).ifPresent(p -> b.append(" partial"));
    return b.toString();
  }

  private static String json(Object value) {
    try {
      return SORTED.writeValueAsString(value);
    } catch (Exception ex) {
      throw new IllegalStateException(ex);
    }
  }

  static final List<Call> TWO_CALLS =
      List.of(
          new Call("call_1", "remember", Map.of("key", "color", "value", "blue")),
          new Call("call_2", "remember", Map.of("key", "size", "value", "large")));

  static final List<String> TWO_CALLS_TRANSCRIPT =
      List.of(
          "user/user: text remember color blue and size large",
          "assistant/model: call remember#call_1{\"key\":\"color\",\"value\":\"blue\"}"
              + " call remember#call_2{\"key\":\"size\",\"value\":\"large\"}",
          "assistant/user: response remember#call_1{\"saved\":\"color\"}"
              + " response remember#call_2{\"saved\":\"size\"}",
          "assistant/model: text Saved color and size.");

  // ------------------------------------------------------------------ scenarios

  @Test
  void parallelCalls_toolWritesState_outputKey_template_sameEventsAndState() {
    server.enqueue(calls(TWO_CALLS), text("Saved color and size.", 40, 6));

    Turn turn = run(agent(newModel()), "remember color blue and size large", CALM);

    assertThat(turn.error()).isNull();
    assertThat(stored()).containsExactlyElementsOf(TWO_CALLS_TRANSCRIPT);
    Map<String, Object> state = session().state();
    assertThat(state)
        .containsEntry("color", "blue")
        .containsEntry("size", "large")
        .containsEntry("user:remembered", 2)
        .containsEntry("answer", "Saved color and size.")
        .containsEntry("topic", "tides");
    // The model's token usage is in its stored events (what each call reported).
    Event answer = session().events().get(3);
    assertThat(answer.usageMetadata()).isPresent();
    assertThat(answer.usageMetadata().get().promptTokenCount()).contains(40);
    assertThat(answer.usageMetadata().get().candidatesTokenCount()).contains(6);
    assertThat(answer.usageMetadata().get().totalTokenCount()).contains(46);
    // The emitted events are the stored ones (the user's message is stored, not emitted).
    assertThat(turn.emitted().stream().map(ModelContract::describe).toList())
        .containsExactlyElementsOf(TWO_CALLS_TRANSCRIPT.subList(1, 4));

    List<WireServer.Request> requests = server.requests();
    assertThat(requests).hasSize(2);
    Seen first = seen(requests.get(0));
    assertThat(first.systemInstruction()).isEqualTo("You help Ada. Topic: tides.");
    assertThat(first.toolNames()).containsExactly("remember");
    assertThat(first.userTexts()).containsExactly("remember color blue and size large");
    assertThat(first.functionCallIds()).isEmpty();
    assertThat(first.functionResponseIds()).isEmpty();
    assertThat(first.asksForJson()).isFalse();
    Seen second = seen(requests.get(1));
    assertThat(second.systemInstruction()).isEqualTo("You help Ada. Topic: tides.");
    assertThat(second.functionCallIds()).containsExactly("call_1", "call_2");
    assertThat(second.functionResponseIds()).containsExactly("call_1", "call_2");
  }

  @Test
  void aSecondTurn_sendsTheWholeHistory_withRoles() {
    server.enqueue(calls(TWO_CALLS), text("Saved color and size.", 40, 6), text("Blue.", 60, 2));
    BaseLlm model = newModel();
    run(agent(model), "remember color blue and size large", CALM);

    Turn turn = run(agent(model), "which color?", CALM);

    assertThat(turn.error()).isNull();
    assertThat(session().state()).containsEntry("answer", "Blue.");
    Seen third = seen(server.requests().get(2));
    assertThat(third.userTexts())
        .containsExactly("remember color blue and size large", "which color?");
    assertThat(third.functionCallIds()).containsExactly("call_1", "call_2");
    assertThat(third.functionResponseIds()).containsExactly("call_1", "call_2");
  }

  @Test
  void streamedAnswer_partialsEmittedNeverStored_finalAnswerStoredOnce() {
    server.enqueue(streamedText(List.of("Hel", "lo ", "world"), 12, 3));
    RunConfig sse = CALM.toBuilder().streamingMode(RunConfig.StreamingMode.SSE).build();

    Turn turn = run(agent(newModel()), "greet", sse);

    assertThat(turn.error()).isNull();
    List<String> emitted = turn.emitted().stream().map(ModelContract::describe).toList();
    assertThat(emitted).contains("assistant/model: text Hello world");
    assertThat(emitted.get(emitted.size() - 1)).isEqualTo("assistant/model: text Hello world");
    String partials =
        turn.emitted().stream()
            .filter(e -> e.partial().orElse(false))
            .map(Event::stringifyContent)
            .reduce("", String::concat);
    assertThat(partials).isEqualTo("Hello world");
    assertThat(stored())
        .containsExactly("user/user: text greet", "assistant/model: text Hello world");
    assertThat(session().state()).containsEntry("answer", "Hello world");
    assertThat(session().events().get(1).usageMetadata().orElseThrow().promptTokenCount())
        .contains(12);
  }

  @Test
  void streamedParallelCalls_areAssembled_withTheirIds() {
    server.enqueue(
        streamedCalls(TWO_CALLS), streamedText(List.of("Saved color ", "and size."), 40, 6));
    RunConfig sse = CALM.toBuilder().streamingMode(RunConfig.StreamingMode.SSE).build();

    Turn turn = run(agent(newModel()), "remember color blue and size large", sse);

    assertThat(turn.error()).isNull();
    assertThat(stored()).containsExactlyElementsOf(TWO_CALLS_TRANSCRIPT);
    assertThat(session().state())
        .containsEntry("color", "blue")
        .containsEntry("size", "large")
        .containsEntry("user:remembered", 2);
  }

  @Test
  void outputSchema_asksForJson_andStoresTheParsedObject() {
    server.enqueue(text("{\"city\": \"Paris\", \"days\": 3}", 20, 9));
    LlmAgent agent =
        LlmAgent.builder()
            .name("planner")
            .model(newModel())
            .instruction("Plan a trip.")
            .outputSchema(
                Schema.builder()
                    .type(Type.Known.OBJECT)
                    .properties(
                        Map.of(
                            "city", Schema.builder().type(Type.Known.STRING).build(),
                            "days", Schema.builder().type(Type.Known.INTEGER).build()))
                    .required(List.of("city", "days"))
                    .build())
            .outputKey("trip")
            .build();

    Turn turn = run(agent, "plan", CALM);

    assertThat(turn.error()).isNull();
    assertThat(session().state()).containsEntry("trip", Map.of("city", "Paris", "days", 3));
    assertThat(seen(server.requests().get(0)).asksForJson()).isTrue();
  }

  @Test
  void usageMetadata_andText_ofOneResponse() {
    server.enqueue(text("Hello", 11, 7));
    LlmRequest request =
        LlmRequest.builder()
            .model(MODEL)
            .systemInstruction("Be brief.")
            .addContent(Content.builder().role("user").parts(List.of(Part.fromText("hi"))).build())
            .build();

    List<LlmResponse> responses = newModel().generateContent(request, false).toList().blockingGet();

    assertThat(responses).hasSize(1);
    LlmResponse r = responses.get(0);
    assertThat(r.partial().orElse(false)).isFalse();
    assertThat(r.errorCode()).isEmpty();
    assertThat(r.content().orElseThrow().role()).contains("model");
    assertThat(r.content().orElseThrow().text()).isEqualTo("Hello");
    assertThat(r.usageMetadata().orElseThrow().promptTokenCount()).contains(11);
    assertThat(r.usageMetadata().orElseThrow().candidatesTokenCount()).contains(7);
    assertThat(r.usageMetadata().orElseThrow().totalTokenCount()).contains(18);
    Seen seen = seen(server.requests().get(0));
    assertThat(seen.systemInstruction()).isEqualTo("Be brief.");
    assertThat(seen.userTexts()).containsExactly("hi");
    assertThat(seen.toolNames()).isEmpty();
  }

  @Test
  void streamedResponses_partialsThenOneFinal_withUsage() {
    server.enqueue(streamedText(List.of("Hel", "lo"), 11, 2));
    LlmRequest request =
        LlmRequest.builder()
            .model(MODEL)
            .addContent(Content.builder().role("user").parts(List.of(Part.fromText("hi"))).build())
            .build();

    List<LlmResponse> responses = newModel().generateContent(request, true).toList().blockingGet();

    LlmResponse last = responses.get(responses.size() - 1);
    assertThat(last.partial().orElse(false)).isFalse();
    assertThat(last.content().orElseThrow().text()).isEqualTo("Hello");
    assertThat(last.usageMetadata().orElseThrow().promptTokenCount()).contains(11);
    assertThat(last.usageMetadata().orElseThrow().candidatesTokenCount()).contains(2);
    List<String> partialTexts =
        responses.subList(0, responses.size() - 1).stream()
            .peek(r -> assertThat(r.partial()).contains(true))
            .map(r -> r.content().map(Content::text).orElse(""))
            .toList();
    assertThat(String.join("", partialTexts)).isEqualTo("Hello");
  }

  @Test
  void malformedBody_failsTheTurn_withModelError_andStoresNothingOfTheStep() {
    server.enqueue(Reply.json(200, "<html>Bad gateway, really</html>"));

    Turn turn = run(agent(newModel()), "hello", CALM);

    assertFailedWithModelError(turn, "malformed");
  }

  @Test
  void http500_failsTheTurn_withTheStatusAndTheProvidersMessage() {
    server.always(error(500, "backend exploded"));

    Turn turn = run(agent(newModel()), "hello", CALM);

    assertFailedWithModelError(turn, "500");
    assertThat(turn.error().getMessage()).contains("backend exploded");
    assertThat(((LlmException) turn.error()).statusCode()).hasValue(500);
  }

  @Test
  void http429_thenSuccess_isRetried_afterRetryAfter() {
    server.enqueue(error(429, "slow down").header("Retry-After", "1"), text("Finally.", 5, 1));

    Turn turn = run(agent(newModel()), "hello", CALM);

    assertThat(turn.error()).isNull();
    assertThat(stored()).containsExactly("user/user: text hello", "assistant/model: text Finally.");
    assertThat(session().state()).containsEntry("answer", "Finally.");
    List<WireServer.Request> requests = server.requests();
    assertThat(requests).hasSize(2);
    if (honoursRetryAfter()) {
      // Retry-After: 1 asks for a second; the policy's own backoff would be ~100 ms.
      assertThat(
              Duration.ofNanos(requests.get(1).receivedNanos() - requests.get(0).receivedNanos()))
          .isGreaterThanOrEqualTo(Duration.ofMillis(900));
    }
  }

  @Test
  void silentServer_isBoundedByLlmCallTimeout() {
    server.enqueue(Reply.silence());
    RunConfig impatient = RunConfig.builder().llmCallTimeout(Duration.ofMillis(500)).build();

    Turn turn = run(agent(newModel()), "hello", impatient);

    assertFailedWithModelError(turn, "RunConfig.llmCallTimeout");
  }

  private void assertFailedWithModelError(Turn turn, String says) {
    assertThat(turn.error()).isInstanceOf(LlmException.class);
    assertThat(turn.error().getMessage()).contains(MODEL).contains(says);
    List<String> stored = stored();
    assertThat(stored).hasSize(2);
    assertThat(stored.get(0)).startsWith("user/user:");
    assertThat(stored.get(1)).isEqualTo("assistant error MODEL_ERROR");
    Event last = session().events().get(1);
    assertThat(last.errorMessage().orElse("")).contains(says);
    assertThat(session().state()).doesNotContainKey("answer").doesNotContainKey("user:remembered");
  }
}
