package dev.adk4j.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.internal.Json;
import dev.adk4j.internal.tools.ToolFailures;
import dev.adk4j.sessions.Session;
import dev.adk4j.state.Scope;
import io.reactivex.rxjava3.core.Single;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tool that runs an agent: the model calls it with a {@code request} string, the wrapped agent
 * answers it in a child invocation, and its answer is the function response (ADK's {@code
 * AgentTool}).
 *
 * <pre>{@code
 * LlmAgent researcher = LlmAgent.builder().name("researcher").description("Finds facts.")...build();
 * LlmAgent writer = LlmAgent.builder().name("writer")...tools(AgentTool.create(researcher)).build();
 * }</pre>
 *
 * <p><b>The child invocation.</b> Each call runs the wrapped agent in an invocation of its own (a
 * new invocation id; the caller's run config, artifact service and plugins, whose agent, model and
 * tool hooks run in the child too; the run-level hooks are the caller's runner's alone) on a
 * private, in-memory copy of the caller's session: the same app, user and session ids, and the
 * caller's live state ({@code temp:} keys included), but no events other than the request, which is
 * the child's user message. The child's events are stored in that private copy only, never in the
 * caller's session, and are thrown away with it: the caller's history gets one function call and
 * one function response, as for any tool. The child's artifacts go to the caller's artifact
 * service, under the caller's session.
 *
 * <p><b>State.</b> When the child finishes, its state writes of every scope but {@code temp:} (its
 * plain writes, removals, {@link dev.adk4j.state.State#increment increments} and
 * read-modify-writes) are applied through the call's {@link ToolContext}, so they land, once, in
 * the caller's function-response event's {@code stateDelta} (and increments stay increments, a
 * read-modify-write is checked against storage as the caller's own would be). The child's {@code
 * temp:} writes stay in the child. If the child fails, nothing of it reaches the caller: the call
 * gets an error response, like any failing tool. A tool may be called any number of times in one
 * session; each call is a new child.
 *
 * <p><b>Response.</b> The text of the child's last event that has text is the response, as {@code
 * {"result": text}}. When the agent (or, for a workflow agent, its last sub-agent, as in ADK) has
 * an {@code outputSchema}, the text is parsed as JSON: an object is the response itself, another
 * value is {@code {"result": value}}. A child that produced no text answers with the value it
 * stored under its {@code outputKey} ({@code {"result": value}}) if it wrote one, else {@code {}}.
 * With {@code skipSummarization}, a successful call sets {@link ToolContext#skipSummarization()}:
 * the function response ends the caller's turn without another model call.
 *
 * <p>Immutable and thread-safe: one instance serves any number of calls at once.
 */
public class AgentTool extends BaseTool {
  private static final Logger log = LoggerFactory.getLogger(AgentTool.class);

  /** The argument the model passes: the request to the wrapped agent. */
  public static final String REQUEST = "request";

  private final BaseAgent agent;
  private final boolean skipSummarization;

  protected AgentTool(BaseAgent agent, boolean skipSummarization) {
    super(functionName(Objects.requireNonNull(agent, "agent").name()), agent.description());
    this.agent = agent;
    this.skipSummarization = skipSummarization;
  }

  /**
   * The function name a model sees for an agent: the agent's name where it is one a model accepts
   * (letters, digits, {@code _ . -}, starting with a letter or underscore), else the name with
   * every other character replaced by {@code _} and, if it starts with a digit, {@code _} in front
   * ({@code "test agent"} is called as {@code test_agent}).
   */
  static String functionName(String agentName) {
    StringBuilder sb = new StringBuilder(agentName.length() + 1);
    for (int i = 0; i < agentName.length(); i++) {
      char c = agentName.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == '.'
              || c == '-';
      sb.append(ok ? c : '_');
    }
    char first = sb.charAt(0);
    if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') || first == '_')) {
      sb.insert(0, '_');
    }
    return sb.toString();
  }

  /** A tool that runs {@code agent}; the caller's model summarizes its answer. */
  public static AgentTool create(BaseAgent agent) {
    return new AgentTool(agent, false);
  }

  /**
   * A tool that runs {@code agent}; with {@code skipSummarization} its answer ends the caller's
   * turn (the model is not called again).
   */
  public static AgentTool create(BaseAgent agent, boolean skipSummarization) {
    return new AgentTool(agent, skipSummarization);
  }

  /** The wrapped agent. */
  public BaseAgent agent() {
    return agent;
  }

  /** ADK for Java's spelling of {@link #agent()}. */
  public BaseAgent getAgent() {
    return agent;
  }

  /** Whether a successful call ends the caller's turn without another model call. */
  public boolean skipSummarization() {
    return skipSummarization;
  }

  /**
   * The agent's name and description, and one required string parameter, {@code request}; for an
   * {@link LlmAgent} with an {@code inputSchema}, that schema's parameters instead (as in ADK).
   */
  @Override
  public Optional<FunctionDeclaration> declaration() {
    Schema input = inputSchema();
    if (input != null) {
      return Optional.of(
          FunctionDeclaration.builder()
              .name(name())
              .description(description())
              .parameters(input)
              .build());
    }
    return Optional.of(
        FunctionDeclaration.builder()
            .name(name())
            .description(description())
            .parameters(
                Schema.builder()
                    .type("OBJECT")
                    .properties(Map.of(REQUEST, Schema.builder().type("STRING").build()))
                    .required(List.of(REQUEST))
                    .build())
            .build());
  }

  @Override
  public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
    Objects.requireNonNull(args, "args");
    Objects.requireNonNull(context, "context");
    return Single.fromCallable(
        () -> {
          if (inputSchema() != null) {
            // ADK's inputSchema: the agent is given the arguments as their JSON text.
            return runChild(Json.toJson(args), context);
          }
          Object request = args.get(REQUEST);
          if (!(request instanceof String)) {
            return ToolFailures.invalidArguments(
                "Tool '"
                    + name()
                    + "' needs the argument '"
                    + REQUEST
                    + "' (STRING), got "
                    + (request == null ? "none" : request.getClass().getSimpleName()));
          }
          return runChild((String) request, context);
        });
  }

  private @Nullable Schema inputSchema() {
    return agent instanceof LlmAgent llm ? llm.inputSchema().orElse(null) : null;
  }

  private Map<String, Object> runChild(String request, ToolContext context) {
    InvocationContext caller = context.invocationContext();
    Session callerSession = caller.session();
    ChildSessionService childSessions = new ChildSessionService();
    Map<String, Object> callerState = context.state().all();
    Session child =
        childSessions
            .createSession(
                callerSession.appName(), callerSession.userId(), callerState, callerSession.id())
            .blockingGet();
    // createSession keeps no temp: keys; the child sees the caller's, as a sub-agent would.
    Map<String, Object> childLive = new java.util.HashMap<>(child.state());
    callerState.forEach(
        (key, value) -> {
          if (Scope.of(key) == Scope.TEMP) {
            Object copy = Json.copy(value);
            if (copy != null) {
              childLive.put(key, copy);
            }
          }
        });
    Content message = Content.builder().role("user").parts(List.of(Part.fromText(request))).build();
    InvocationContext childContext =
        InvocationContext.builder()
            .sessionService(childSessions)
            .artifactService(caller.artifactService())
            .agent(agent)
            .session(child)
            .liveState(childLive)
            .userContent(message)
            .runConfig(caller.runConfig())
            .plugins(caller.plugins())
            .build();
    childContext.persist(childContext.newEvent("user").content(message).build());
    List<Event> events = agent.runAsync(childContext).toList().blockingGet();

    EventActions written = childSessions.appendedActions();
    forward(written, context);
    if (skipSummarization) {
      context.skipSummarization();
    }
    return response(events, written);
  }

  /**
   * Applies the child's writes, but for its {@code temp:} keys, through the caller's {@code
   * context}: plain values and removals as writes, increments as increments, and a key the child
   * read before writing it is read in the caller first, so it stays a read-modify-write.
   */
  private static void forward(EventActions written, ToolContext context) {
    Map<String, @Nullable Object> delta = Scope.withoutTemp(written.stateDelta());
    Map<String, Long> increments = Scope.withoutTemp(written.stateIncrements());
    for (String key : Scope.withoutTemp(written.expectedState()).keySet()) {
      context.state().get(key);
    }
    EventActions current = context.actions();
    context.setActions(
        EventActions.builder()
            .stateDelta(delta)
            .stateIncrements(increments)
            .artifactDelta(written.artifactDelta())
            .transferToAgent(current.transferToAgent().orElse(null))
            .escalate(current.escalate().orElse(null))
            .skipSummarization(current.skipSummarization().orElse(null))
            .build());
  }

  private Map<String, Object> response(List<Event> events, EventActions written) {
    String text = null;
    for (int i = events.size() - 1; i >= 0 && text == null; i--) {
      Event e = events.get(i);
      if (!e.partial().orElse(false) && !"user".equals(e.author())) {
        String s = e.stringifyContent();
        if (!s.isEmpty()) {
          text = s;
        }
      }
    }
    if (text == null) {
      String key = last(agent).outputKey().orElse(null);
      Object value = key == null ? null : written.stateDelta().get(key);
      return value == null ? Map.of() : result(value);
    }
    Schema schema = last(agent).outputSchema().orElse(null);
    if (schema == null) {
      return result(text);
    }
    Object parsed;
    try {
      parsed = Json.reader().forType(Object.class).readValue(text);
    } catch (JsonProcessingException e) {
      log.warn(
          "Agent '{}' of tool '{}' has an output schema but its answer is not JSON ({}); answering"
              + " with the text",
          agent.name(),
          name(),
          e.getOriginalMessage());
      return result(text);
    }
    if (parsed instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(String.valueOf(k), v));
      return out;
    }
    return parsed == null ? Map.of() : result(parsed);
  }

  private static Map<String, Object> result(Object value) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("result", value);
    return out;
  }

  /**
   * The agent whose answer is the tool's: {@code agent} itself if it is an {@link LlmAgent}, else
   * (a workflow agent) its last sub-agent's, as in ADK; an {@link LlmAgent} with no output key or
   * schema if there is none.
   */
  private static OutputSpec last(BaseAgent agent) {
    BaseAgent a = agent;
    while (!(a instanceof LlmAgent)) {
      List<BaseAgent> subs = a.subAgents();
      if (subs.isEmpty()) {
        return new OutputSpec(null, null);
      }
      a = subs.get(subs.size() - 1);
    }
    LlmAgent llm = (LlmAgent) a;
    return new OutputSpec(llm.outputKey().orElse(null), llm.outputSchema().orElse(null));
  }

  private record OutputSpec(@Nullable String key, @Nullable Schema schema) {
    Optional<String> outputKey() {
      return Optional.ofNullable(key);
    }

    Optional<Schema> outputSchema() {
      return Optional.ofNullable(schema);
    }
  }
}
