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

/**
 * ADK for Java's plugin interface: the hooks of {@link BasePlugin}, each doing nothing by default,
 * and a name. {@link BasePlugin} implements it; that is what a {@code Runner} takes. A {@code
 * Plugin} that is not a {@code BasePlugin} runs in a runner inside a {@link PluginManager} (which
 * is one). What each hook may answer, and when it runs, is described on {@link BasePlugin}.
 */
public interface Plugin {

  /** The plugin's name, unique among a runner's plugins. */
  String getName();

  /** Before the user's message is stored; content replaces it. */
  default Maybe<Content> onUserMessageCallback(
      InvocationContext invocationContext, Content userMessage) {
    return Maybe.empty();
  }

  /** Before the root agent runs; content ends the invocation with it as the reply. */
  default Maybe<Content> beforeRunCallback(InvocationContext invocationContext) {
    return Maybe.empty();
  }

  /** For each event stored and about to be emitted; an event replaces the one emitted. */
  default Maybe<Event> onEventCallback(InvocationContext invocationContext, Event event) {
    return Maybe.empty();
  }

  /** After the invocation completed. */
  default Completable afterRunCallback(InvocationContext invocationContext) {
    return Completable.complete();
  }

  /** After the invocation failed, once its error events are stored. */
  default Completable onRunErrorCallback(InvocationContext invocationContext, Throwable error) {
    return Completable.complete();
  }

  /** Releases what the plugin holds; nothing by default. */
  default Completable close() {
    return Completable.complete();
  }

  /** Before {@code agent} runs, before its own before-agent callbacks. */
  default Maybe<Content> beforeAgentCallback(BaseAgent agent, CallbackContext callbackContext) {
    return Maybe.empty();
  }

  /** After {@code agent} ran, before its own after-agent callbacks. */
  default Maybe<Content> afterAgentCallback(BaseAgent agent, CallbackContext callbackContext) {
    return Maybe.empty();
  }

  /** Before a model call, before the agent's before-model callbacks; may change the request. */
  default Maybe<LlmResponse> beforeModelCallback(
      CallbackContext callbackContext, LlmRequest.Builder llmRequest) {
    return Maybe.empty();
  }

  /** After a model response, before the agent's after-model callbacks. */
  default Maybe<LlmResponse> afterModelCallback(
      CallbackContext callbackContext, LlmResponse llmResponse) {
    return Maybe.empty();
  }

  /** When a model call failed; a response is used in its place. */
  default Maybe<LlmResponse> onModelErrorCallback(
      CallbackContext callbackContext, LlmRequest.Builder llmRequest, Throwable error) {
    return Maybe.empty();
  }

  /** Before a tool runs, before the agent's before-tool callbacks. */
  default Maybe<Map<String, Object>> beforeToolCallback(
      BaseTool tool, Map<String, Object> toolArgs, ToolContext toolContext) {
    return Maybe.empty();
  }

  /** After a tool ran, before the agent's after-tool callbacks. */
  default Maybe<Map<String, Object>> afterToolCallback(
      BaseTool tool,
      Map<String, Object> toolArgs,
      ToolContext toolContext,
      Map<String, Object> result) {
    return Maybe.empty();
  }

  /** When a tool (or a before-tool hook or callback) failed; a map answers the call instead. */
  default Maybe<Map<String, Object>> onToolErrorCallback(
      BaseTool tool, Map<String, Object> toolArgs, ToolContext toolContext, Throwable error) {
    return Maybe.empty();
  }
}
