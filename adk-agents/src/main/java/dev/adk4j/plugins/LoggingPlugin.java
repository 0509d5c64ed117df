package dev.adk4j.plugins;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.state.State;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.MessageFormatter;

/**
 * Logs every step of every invocation through SLF4J (logger {@code
 * dev.adk4j.plugins.LoggingPlugin}): the user's message, the start and end of the invocation and of
 * each agent, each model call and response, each tool call and answer, each event and the state
 * keys it writes, at INFO; failures at WARN. Each line starts with the plugin's name in brackets
 * and names the invocation.
 *
 * <p><b>No values by default.</b> Conversations and state hold what users said and what tools
 * found, which do not belong in logs: a line says how much text there was, which functions were
 * called with which argument names, and which state keys were written, never their contents. {@code
 * new LoggingPlugin(name, true)} logs message texts, arguments, responses and state values too, for
 * local debugging. Exception messages of failures are logged as they are.
 *
 * <p>Observes only: it never changes a request, a response or state.
 */
public class LoggingPlugin extends BasePlugin {
  private static final Logger log = LoggerFactory.getLogger(LoggingPlugin.class);

  /** The name of a plugin built without one. */
  public static final String DEFAULT_NAME = "logging_plugin";

  private final boolean logValues;

  /** A plugin named {@value #DEFAULT_NAME} that logs no values. */
  public LoggingPlugin() {
    this(DEFAULT_NAME);
  }

  /** A plugin named {@code name} that logs no values. */
  public LoggingPlugin(String name) {
    this(name, false);
  }

  /**
   * A plugin named {@code name}; with {@code logValues}, texts, arguments, responses and state
   * values are logged too.
   */
  public LoggingPlugin(String name, boolean logValues) {
    super(name);
    this.logValues = logValues;
  }

  private Maybe<?> info(String format, @Nullable Object... args) {
    if (log.isInfoEnabled()) {
      log.info("[" + name() + "] " + format, args);
    }
    return Maybe.empty();
  }

  /**
   * {@link #info(String, Object...)} of a line that may show values: with {@code logValues}, the
   * value of every {@code secret:} key of {@code state} (a string of 4 characters or more) is shown
   * as {@value State#REDACTED} wherever it appears in the line, so that a secret a tool received,
   * returned or wrote, or that an instruction holds, is never logged.
   */
  private void infoWithValues(Map<String, ?> state, String format, @Nullable Object... args) {
    if (!log.isInfoEnabled()) {
      return;
    }
    List<String> secrets = logValues ? secretValues(state) : List.of();
    if (secrets.isEmpty()) {
      info(format, args);
      return;
    }
    String line = MessageFormatter.arrayFormat(format, args).getMessage();
    for (String secret : secrets) {
      line = line.replace(secret, State.REDACTED);
      line = line.replace(Json.toJson(secret).replaceAll("^\"|\"$", ""), State.REDACTED);
    }
    log.info("[{}] {}", name(), line);
  }

  private static List<String> secretValues(Map<String, ?> state) {
    List<String> secrets = new ArrayList<>();
    for (Map.Entry<String, ?> e : state.entrySet()) {
      if (e.getKey().startsWith(State.SECRET_PREFIX)
          && e.getValue() instanceof String value
          && value.length() >= 4) {
        secrets.add(value);
      }
    }
    // Longest first, so that a secret containing another is masked whole.
    secrets.sort(Comparator.comparingInt(String::length).reversed());
    return secrets;
  }

  private void warn(String format, @Nullable Object... args) {
    log.warn("[" + name() + "] " + format, args);
  }

  @Override
  public Maybe<Content> onUserMessageCallback(
      InvocationContext invocationContext, Content userMessage) {
    return Maybe.fromAction(
        () ->
            infoWithValues(
                invocationContext.session().state(),
                "user message for invocation {} (app '{}', user '{}', session '{}'): {}",
                invocationContext.invocationId(),
                invocationContext.appName(),
                invocationContext.userId(),
                invocationContext.session().id(),
                describe(userMessage)));
  }

  @Override
  public Maybe<Content> beforeRunCallback(InvocationContext invocationContext) {
    return Maybe.fromAction(
        () ->
            info(
                "invocation {} starts with agent '{}'",
                invocationContext.invocationId(),
                invocationContext.agent().name()));
  }

  @Override
  public Maybe<Event> onEventCallback(InvocationContext invocationContext, Event event) {
    return Maybe.fromAction(
        () ->
            infoWithValues(
                invocationContext.session().state(),
                "event {} of invocation {} by '{}': {}{}",
                event.id(),
                event.invocationId(),
                event.author(),
                event.content().map(this::describe).orElse("no content"),
                stateOf(event.actions().stateDelta())));
  }

  @Override
  public Completable afterRunCallback(InvocationContext invocationContext) {
    return Completable.fromAction(
        () -> info("invocation {} completed", invocationContext.invocationId()));
  }

  @Override
  public Completable onRunErrorCallback(InvocationContext invocationContext, Throwable error) {
    return Completable.fromAction(
        () ->
            warn(
                "invocation {} failed: {}: {}",
                invocationContext.invocationId(),
                error.getClass().getSimpleName(),
                error.getMessage()));
  }

  @Override
  public Maybe<Content> beforeAgentCallback(BaseAgent agent, CallbackContext callbackContext) {
    return Maybe.fromAction(
        () ->
            info(
                "agent '{}' starts (invocation {}{})",
                agent.name(),
                callbackContext.invocationId(),
                callbackContext.branch().map(b -> ", branch " + b).orElse("")));
  }

  @Override
  public Maybe<Content> afterAgentCallback(BaseAgent agent, CallbackContext callbackContext) {
    return Maybe.fromAction(
        () ->
            info("agent '{}' ends (invocation {})", agent.name(), callbackContext.invocationId()));
  }

  @Override
  public Maybe<LlmResponse> beforeModelCallback(
      CallbackContext callbackContext, LlmRequest.Builder llmRequest) {
    return Maybe.fromAction(
        () -> {
          LlmRequest request = llmRequest.build();
          infoWithValues(
              callbackContext.state(),
              "model call of agent '{}' (invocation {}): model {}, {} content(s), tools {},"
                  + " instruction {}",
              callbackContext.agentName(),
              callbackContext.invocationId(),
              request.model().orElse("(default)"),
              request.contents().size(),
              request.functionDeclarations().stream().map(d -> d.name().orElse("?")).toList(),
              text(request.systemInstruction().orElse("")));
        });
  }

  @Override
  public Maybe<LlmResponse> afterModelCallback(
      CallbackContext callbackContext, LlmResponse llmResponse) {
    return Maybe.fromAction(
        () ->
            infoWithValues(
                callbackContext.state(),
                "model response for agent '{}' (invocation {}): {}{}",
                callbackContext.agentName(),
                callbackContext.invocationId(),
                llmResponse.content().map(this::describe).orElse("no content"),
                llmResponse.errorCode().map(c -> ", error code " + c).orElse("")));
  }

  @Override
  public Maybe<LlmResponse> onModelErrorCallback(
      CallbackContext callbackContext, LlmRequest.Builder llmRequest, Throwable error) {
    return Maybe.fromAction(
        () ->
            warn(
                "model call of agent '{}' (invocation {}) failed: {}: {}",
                callbackContext.agentName(),
                callbackContext.invocationId(),
                error.getClass().getSimpleName(),
                error.getMessage()));
  }

  @Override
  public Maybe<Map<String, Object>> beforeToolCallback(
      BaseTool tool, Map<String, Object> toolArgs, ToolContext toolContext) {
    return Maybe.fromAction(
        () ->
            infoWithValues(
                toolContext.state(),
                "tool '{}' called by agent '{}' (invocation {}, call {}) with {}",
                tool.name(),
                toolContext.agentName(),
                toolContext.invocationId(),
                toolContext.functionCallId().orElse("-"),
                values(toolArgs)));
  }

  @Override
  public Maybe<Map<String, Object>> afterToolCallback(
      BaseTool tool,
      Map<String, Object> toolArgs,
      ToolContext toolContext,
      Map<String, Object> result) {
    return Maybe.fromAction(
        () ->
            infoWithValues(
                toolContext.state(),
                "tool '{}' answered (invocation {}, call {}): {}{}",
                tool.name(),
                toolContext.invocationId(),
                toolContext.functionCallId().orElse("-"),
                values(result),
                stateOf(toolContext.state().delta())));
  }

  @Override
  public Maybe<Map<String, Object>> onToolErrorCallback(
      BaseTool tool, Map<String, Object> toolArgs, ToolContext toolContext, Throwable error) {
    return Maybe.fromAction(
        () ->
            warn(
                "tool '{}' failed (invocation {}, call {}): {}: {}",
                tool.name(),
                toolContext.invocationId(),
                toolContext.functionCallId().orElse("-"),
                error.getClass().getSimpleName(),
                error.getMessage()));
  }

  // ---- what a line shows ----

  /** The parts of {@code content}: text sizes (or texts), function calls and responses. */
  private String describe(Content content) {
    StringBuilder sb = new StringBuilder();
    for (Part p : content.parts().orElse(List.of())) {
      if (sb.length() > 0) {
        sb.append("; ");
      }
      if (p.text().isPresent()) {
        sb.append("text ").append(text(p.text().get()));
      } else if (p.functionCall().isPresent()) {
        FunctionCall c = p.functionCall().get();
        sb.append("calls ")
            .append(c.name().orElse("?"))
            .append(" with ")
            .append(values(c.args().orElse(Map.of())));
      } else if (p.functionResponse().isPresent()) {
        FunctionResponse r = p.functionResponse().get();
        sb.append("response of ")
            .append(r.name().orElse("?"))
            .append(": ")
            .append(values(r.response().orElse(Map.of())));
      } else {
        sb.append("other part");
      }
    }
    return sb.length() == 0 ? "no parts" : sb.toString();
  }

  private String text(String text) {
    return logValues ? Json.toJson(text) : "(" + text.length() + " chars)";
  }

  private String values(Map<String, ?> map) {
    return logValues ? Json.toJson(map) : "keys " + new TreeSet<>(map.keySet());
  }

  private String stateOf(Map<String, @Nullable Object> delta) {
    if (delta.isEmpty()) {
      return "";
    }
    return logValues
        ? ", state delta " + Json.toJson(State.redacted(delta))
        : ", state keys written " + new TreeSet<>(delta.keySet());
  }
}
