package dev.adk4j.plugins;

import com.google.genai.types.Content;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.CallbackContext;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import java.util.Map;
import java.util.Objects;

/**
 * A plugin: hooks a {@code Runner} calls for every invocation it runs, around every agent, model
 * call and tool call of it, before the agents' own callbacks (ADK's {@code BasePlugin}). Register
 * plugins with {@code Runner.builder().plugins(...)}; they run in the order given. Every hook does
 * nothing by default; override the ones you need.
 *
 * <p><b>Short-circuits.</b> A hook returning a {@link Maybe} answers in place of the step when it
 * emits a value, and the hooks and callbacks after it do not run: the later plugins' hook, the
 * agent's own callbacks of that kind, and the step itself where there is one. In detail:
 *
 * <ul>
 *   <li>{@link #onUserMessageCallback}: content replaces the user's message (before it is stored).
 *   <li>{@link #beforeRunCallback}: content ends the invocation before any agent runs; it is stored
 *       and emitted as the root agent's event. {@link #afterRunCallback} still runs.
 *   <li>{@link #beforeAgentCallback}: content is the agent's reply in its place (as a before-agent
 *       callback's is): the agent's own callbacks, its work and its after-agent hooks are skipped.
 *   <li>{@link #afterAgentCallback}: content is added as the agent's last event; the agent's
 *       after-agent callbacks are skipped.
 *   <li>{@link #beforeModelCallback}: a response is used instead of calling the model; the agent's
 *       before-model callbacks are skipped. The hook may also change the request through the
 *       builder (see {@link GlobalInstructionPlugin}).
 *   <li>{@link #afterModelCallback}: a response replaces the model's; the agent's after-model
 *       callbacks are skipped.
 *   <li>{@link #onModelErrorCallback}: a response is used instead of the failed model call, and the
 *       invocation goes on; empty lets the failure end it as before.
 *   <li>{@link #beforeToolCallback}: a map is the tool's response; the agent's before-tool
 *       callbacks and the tool are skipped (and, as for those callbacks, the after-tool hooks).
 *   <li>{@link #afterToolCallback}: a map replaces the tool's response; the agent's after-tool
 *       callbacks are skipped.
 *   <li>{@link #onToolErrorCallback}: a map answers the call instead of the error response (the
 *       failing tool's writes are still discarded; the hook's own writes are kept), then the
 *       after-tool hooks and callbacks run on it.
 *   <li>{@link #onEventCallback}: an event replaces the one emitted to the caller; what is stored
 *       is the original (the hook sees each event after it is stored).
 * </ul>
 *
 * <p><b>State.</b> The agent, model and tool hooks get the same tracked {@link CallbackContext} or
 * {@link ToolContext} as the agent's own callbacks of that step: their writes land in the delta of
 * that step's event (the agent-callback event, the model response event, the function-response
 * event), stored once with it, exactly as a callback's would. The run-level hooks ({@code
 * onUserMessage}, {@code beforeRun}, {@code onEvent}, {@code afterRun}, {@code onRunError}) get the
 * {@link InvocationContext}, whose session state is read-only: they observe, they do not write.
 *
 * <p><b>Failures.</b> A hook that throws (or whose result fails) fails the step as an agent
 * callback of that kind would: a tool hook gives the call an error response, the others end the
 * invocation. Hooks of concurrent tool calls run concurrently: a plugin must be thread-safe. One
 * plugin object serves every invocation of its runners.
 */
public abstract class BasePlugin implements Plugin {

  private final String name;

  /**
   * @param name the plugin's name, unique among a runner's plugins
   * @throws IllegalArgumentException if {@code name} is empty or blank
   */
  protected BasePlugin(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("A plugin's name must not be empty or blank");
    }
    this.name = name;
  }

  /** This plugin's name. */
  public String name() {
    return name;
  }

  /** ADK's spelling of {@link #name()}. */
  @Override
  public String getName() {
    return name;
  }

  /** Before the user's message is stored; content replaces it. */
  @Override
  public Maybe<Content> onUserMessageCallback(
      InvocationContext invocationContext, Content userMessage) {
    return Maybe.empty();
  }

  /** Before the root agent runs; content ends the invocation with it as the reply. */
  @Override
  public Maybe<Content> beforeRunCallback(InvocationContext invocationContext) {
    return Maybe.empty();
  }

  /** For each event stored and about to be emitted; an event replaces the one emitted. */
  @Override
  public Maybe<Event> onEventCallback(InvocationContext invocationContext, Event event) {
    return Maybe.empty();
  }

  /**
   * ADK for Java's {@code close()}: releases what the plugin holds; nothing by default. {@code
   * Runner} does not call it: whoever made the plugin closes it.
   */
  @Override
  public Completable close() {
    return Completable.complete();
  }

  /** After the invocation completed (also after a {@link #beforeRunCallback} reply). */
  @Override
  public Completable afterRunCallback(InvocationContext invocationContext) {
    return Completable.complete();
  }

  /** After the invocation failed, once its error events are stored. */
  @Override
  public Completable onRunErrorCallback(InvocationContext invocationContext, Throwable error) {
    return Completable.complete();
  }

  /** Before {@code agent} runs, before its own before-agent callbacks. */
  @Override
  public Maybe<Content> beforeAgentCallback(BaseAgent agent, CallbackContext callbackContext) {
    return Maybe.empty();
  }

  /** After {@code agent} ran, before its own after-agent callbacks. */
  @Override
  public Maybe<Content> afterAgentCallback(BaseAgent agent, CallbackContext callbackContext) {
    return Maybe.empty();
  }

  /** Before a model call, before the agent's before-model callbacks; may change the request. */
  @Override
  public Maybe<LlmResponse> beforeModelCallback(
      CallbackContext callbackContext, LlmRequest.Builder llmRequest) {
    return Maybe.empty();
  }

  /** After a model response, before the agent's after-model callbacks. */
  @Override
  public Maybe<LlmResponse> afterModelCallback(
      CallbackContext callbackContext, LlmResponse llmResponse) {
    return Maybe.empty();
  }

  /** When a model call failed; a response is used in its place. */
  @Override
  public Maybe<LlmResponse> onModelErrorCallback(
      CallbackContext callbackContext, LlmRequest.Builder llmRequest, Throwable error) {
    return Maybe.empty();
  }

  /** Before a tool runs, before the agent's before-tool callbacks. */
  @Override
  public Maybe<Map<String, Object>> beforeToolCallback(
      BaseTool tool, Map<String, Object> toolArgs, ToolContext toolContext) {
    return Maybe.empty();
  }

  /** After a tool ran, before the agent's after-tool callbacks. */
  @Override
  public Maybe<Map<String, Object>> afterToolCallback(
      BaseTool tool,
      Map<String, Object> toolArgs,
      ToolContext toolContext,
      Map<String, Object> result) {
    return Maybe.empty();
  }

  /** When a tool (or a before-tool hook or callback) failed; a map answers the call instead. */
  @Override
  public Maybe<Map<String, Object>> onToolErrorCallback(
      BaseTool tool, Map<String, Object> toolArgs, ToolContext toolContext, Throwable error) {
    return Maybe.empty();
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "{" + name + "}";
  }
}
