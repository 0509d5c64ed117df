package com.example.supportdesk;

import com.google.adk.agents.CallbackContext;
import com.google.adk.agents.Instruction;
import com.google.adk.agents.InvocationContext;
import com.google.adk.agents.LlmAgent;
import com.google.adk.agents.RunConfig;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.models.BaseLlm;
import com.google.adk.models.LlmResponse;
import com.google.adk.runner.InMemoryRunner;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.InMemorySessionService;
import com.google.adk.sessions.Session;
import com.google.adk.sessions.State;
import com.google.adk.tools.Annotations.Schema;
import com.google.adk.tools.BaseTool;
import com.google.adk.tools.FunctionTool;
import com.google.adk.tools.ToolContext;
import com.google.adk.utils.InstructionUtils;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Maybe;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Pattern;

/**
 * A customer-support agent written against Google's ADK for Java 1.8.0, in its idiom.
 *
 * <p>adk4j's migration test compiles this file with only its imports changed (see
 * docs/migrating-from-adk-java.md) and runs {@link #run(BaseLlm)} on an offline model. A line
 * ending in an {@code adk4j-pending} comment uses a spelling adk4j does not accept yet; the test
 * expects exactly those lines to fail and runs the program without them.
 */
public final class SupportDesk {

  public static final String APP_NAME = "support_desk";
  public static final String USER_ID = "alice";

  private static final Pattern ORDER_ID = Pattern.compile("[A-Z]-\\d+");

  private SupportDesk() {}

  // ---------------------------------------------------------------- the tool

  /** Looks an order up; remembers it for the user and counts lookups for this turn. */
  public static Map<String, Object> lookupOrder(
      @Schema(name = "orderId", description = "The order number, such as A-17") String orderId,
      @Schema(name = "toolContext") ToolContext toolContext) {
    toolContext.state().put(State.USER_PREFIX + "last_order", orderId);
    Object lookups = toolContext.state().getOrDefault(State.TEMP_PREFIX + "lookups", 0);
    toolContext.state().put(State.TEMP_PREFIX + "lookups", ((Number) lookups).intValue() + 1);
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("orderId", orderId);
    result.put("status", "shipped");
    result.put("eta", "Tuesday");
    result.put("callId", toolContext.functionCallId().orElse("none"));
    return result;
  }

  // ---------------------------------------------------------------- callbacks

  /** Counts the user's visits before the agent runs; never answers in its place. */
  static Maybe<Content> countVisit(CallbackContext callbackContext) {
    State state = callbackContext.state();
    Object visits = state.getOrDefault(State.USER_PREFIX + "visits", 0);
    state.put(State.USER_PREFIX + "visits", ((Number) visits).intValue() + 1);
    state.put(State.TEMP_PREFIX + "agent_started", callbackContext.agentName());
    return Maybe.empty();
  }

  /** After the agent: copies this turn's temp counters into the session. */
  static Optional<Content> recordTurn(CallbackContext callbackContext) {
    State state = callbackContext.state();
    state.put("model_calls_last_turn", state.getOrDefault(State.TEMP_PREFIX + "model_calls", 0));
    state.put("lookups_last_turn", state.getOrDefault(State.TEMP_PREFIX + "lookups", 0));
    state.put("started_by", state.getOrDefault(State.TEMP_PREFIX + "agent_started", "nobody"));
    return Optional.empty();
  }

  /** Refuses malformed order ids before the tool runs. */
  static Maybe<Map<String, Object>> checkOrderId(
      InvocationContext invocationContext,
      BaseTool tool,
      Map<String, Object> input,
      ToolContext toolContext) {
    Object orderId = input.get("orderId");
    if (tool.name().equals("lookupOrder")
        && !(orderId instanceof String && ORDER_ID.matcher((String) orderId).matches())) {
      return Maybe.just(Map.of("error", "not an order id: " + orderId));
    }
    toolContext.state().put("last_checked_invocation", invocationContext.invocationId());
    return Maybe.empty();
  }

  /** Stamps the tool's response. */
  @SuppressWarnings("unchecked")
  static Maybe<Map<String, Object>> stampResponse(
      InvocationContext invocationContext,
      BaseTool tool,
      Map<String, Object> input,
      ToolContext toolContext,
      Object response) {
    Map<String, Object> stamped = new LinkedHashMap<>((Map<String, Object>) response);
    stamped.put("checkedBy", APP_NAME);
    return Maybe.just(stamped);
  }

  // ---------------------------------------------------------------- the agent

  /** The agent; {@code model} null means Gemini by name (needs GOOGLE_API_KEY). */
  public static LlmAgent buildAgent(BaseLlm model) {
    LlmAgent.Builder builder =
        LlmAgent.builder()
            .name("support_agent")
            .description("Answers questions about orders.")
            .globalInstruction(
                new Instruction.Provider(
                    context ->
                        InstructionUtils.injectSessionState(
                            context.invocationContext(),
                            "Support hours: {app:support_hours}. Be brief.")))
            .instruction(
                "You help {user:name} (tier {tier}) with orders."
                    + " Their last order was {user:last_order?}.")
            .outputKey("last_reply")
            .tools(FunctionTool.create(SupportDesk.class, "lookupOrder"))
            .beforeAgentCallback(SupportDesk::countVisit)
            .afterAgentCallbackSync(SupportDesk::recordTurn)
            .beforeModelCallback(
                (callbackContext, llmRequest) -> {
                  State state = callbackContext.state();
                  Object calls = state.getOrDefault(State.TEMP_PREFIX + "model_calls", 0);
                  state.put(State.TEMP_PREFIX + "model_calls", ((Number) calls).intValue() + 1);
                  if (Boolean.TRUE.equals(state.get(State.APP_PREFIX + "maintenance"))) {
                    return Maybe.just(
                        LlmResponse.builder()
                            .content(
                                Content.builder()
                                    .role("model")
                                    .parts(List.of(Part.fromText("We are down for maintenance.")))
                                    .build())
                            .build());
                  }
                  return Maybe.empty();
                })
            .beforeToolCallback(SupportDesk::checkOrderId)
            .afterToolCallback(SupportDesk::stampResponse)
            .afterModelCallback(
                (callbackContext, llmResponse) -> {
                  llmResponse
                      .content()
                      .flatMap(Content::role)
                      .ifPresent(role -> callbackContext.state().put("last_model_role", role));
                  return Maybe.empty();
                });
    if (model != null) {
      builder.model(model);
    } else {
      builder.model("gemini-2.5-flash");
    }
    return builder.build();
  }

  // ---------------------------------------------------------------- the program

  /** Runs two turns through a {@link Runner} and one through an {@link InMemoryRunner}. */
  public static Map<String, Object> run(BaseLlm model) {
    LlmAgent agent = buildAgent(model);
    Map<String, Object> report = new LinkedHashMap<>();

    // Sessions: initial state in every scope, then a manual update through an event.
    InMemorySessionService sessionService = new InMemorySessionService();
    ConcurrentMap<String, Object> initialState = new ConcurrentHashMap<>();
    initialState.put(State.APP_PREFIX + "support_hours", "9-17");
    initialState.put(State.USER_PREFIX + "name", "Alice");
    initialState.put("tier", "gold");
    Session session =
        sessionService.createSession(APP_NAME, USER_ID, initialState, null).blockingGet();

    ConcurrentMap<String, Object> delta = new ConcurrentHashMap<>();
    delta.put(State.USER_PREFIX + "login_count", 1);
    delta.put(State.TEMP_PREFIX + "login_checked", true);
    delta.put("channel", "chat");
    Event login =
        Event.builder()
            .id(Event.generateEventId())
            .invocationId("login-" + session.id())
            .author("system")
            .actions(EventActions.builder().stateDelta(delta).build())
            .timestamp(System.currentTimeMillis())
            .build();
    sessionService.appendEvent(session, login).blockingGet();
    Session afterLogin =
        sessionService.getSession(APP_NAME, USER_ID, session.id(), Optional.empty()).blockingGet();
    report.put("stateAfterLogin", new TreeMap<>(afterLogin.state()));

    // A runner over that service: one turn that calls the tool, one that does not.
    Runner runner =
        Runner.builder()
            .agent(agent)
            .appName(APP_NAME)
            .artifactService(new InMemoryArtifactService())
            .sessionService(sessionService)
            .build();
    RunConfig runConfig =
        RunConfig.builder()
            .setStreamingMode(RunConfig.StreamingMode.NONE)
            .setMaxLlmCalls(10)
            .build();
    List<String> transcript = new ArrayList<>();
    report.put(
        "firstReply", runTurn(runner, session.id(), "Where is order A-17?", runConfig, transcript));
    report.put("secondReply", runTurn(runner, session.id(), "Thanks!", runConfig, transcript));
    report.put("transcript", transcript);

    Session stored =
        sessionService.getSession(APP_NAME, USER_ID, session.id(), Optional.empty()).blockingGet();
    report.put("storedState", new TreeMap<>(stored.state()));
    report.put("storedEvents", stored.events().size());

    // A second session of the same user sees the app: and user: values, not the session's.
    Session other = sessionService.createSession(APP_NAME, USER_ID).blockingGet();
    report.put("otherSessionState", new TreeMap<>(other.state()));

    // The in-memory runner brings its own services.
    InMemoryRunner quick = new InMemoryRunner(agent, APP_NAME);
    ConcurrentMap<String, Object> quickState = new ConcurrentHashMap<>();
    quickState.put(State.APP_PREFIX + "support_hours", "8-20");
    quickState.put(State.USER_PREFIX + "name", "Bob");
    quickState.put("tier", "silver");
    Session quickSession =
        quick.sessionService().createSession(APP_NAME, "bob", quickState, "quick-1").blockingGet();
    List<String> quickTranscript = new ArrayList<>();
    Content hello = Content.builder().role("user").parts(List.of(Part.fromText("Hello"))).build();
    quick
        .runAsync("bob", quickSession.id(), hello)
        .blockingForEach(event -> quickTranscript.add(describe(event)));
    report.put("quickTranscript", quickTranscript);
    report.put(
        "quickState",
        new TreeMap<>(
            quick
                .sessionService()
                .getSession(APP_NAME, "bob", quickSession.id(), Optional.empty())
                .blockingGet()
                .state()));
    return report;
  }

  private static String runTurn(
      Runner runner, String sessionId, String text, RunConfig runConfig, List<String> transcript) {
    Content message = Content.builder().role("user").parts(List.of(Part.fromText(text))).build();
    StringBuilder reply = new StringBuilder();
    for (Event event : runner.runAsync(USER_ID, sessionId, message, runConfig).blockingIterable()) {
      transcript.add(describe(event));
      if (event.finalResponse()) {
        reply.append(event.stringifyContent());
      }
    }
    return reply.toString();
  }

  private static String describe(Event event) {
    StringBuilder line = new StringBuilder(event.author()).append(':');
    for (FunctionCall call : event.functionCalls()) {
      line.append(" call ").append(call.name().orElse("?")).append(call.args().orElse(Map.of()));
    }
    event
        .functionResponses()
        .forEach(
            response ->
                line.append(" response ")
                    .append(response.name().orElse("?"))
                    .append(new TreeMap<>(response.response().orElse(Map.of()))));
    if (event.functionCalls().isEmpty() && event.functionResponses().isEmpty()) {
      line.append(' ').append(event.stringifyContent());
    }
    Map<String, Object> delta = event.actions().stateDelta();
    if (!delta.isEmpty()) {
      line.append(" delta=").append(new TreeMap<>(delta));
    }
    return line.toString();
  }

  public static void main(String[] args) {
    run(null).forEach((key, value) -> System.out.println(key + ": " + value));
  }
}
