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
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * ADK for Java's {@code PluginManager}: an ordered set of {@link Plugin}s that is itself a plugin,
 * running its members' hooks as a {@code Runner} runs its plugins. A hook answering a {@link Maybe}
 * asks the members in order and stops at the first that emits (the later ones are not called); a
 * hook answering a {@link Completable} runs them in order and stops at the first failure. {@link
 * #close()} closes every member, even after one failed, and then fails with the first failure.
 *
 * <p>Being a {@link BasePlugin}, a manager can be given to {@code Runner.builder().plugins(..)};
 * that is how a {@link Plugin} that does not extend {@code BasePlugin} runs in adk4j. {@code
 * Runner.pluginManager()} and {@code InvocationContext.pluginManager()} answer one over the
 * runner's plugins. A hook's result signals in the OpenTelemetry context that was current when the
 * hook was called, whichever thread a plugin finished on. Thread-safe.
 */
public class PluginManager extends BasePlugin {

  private final List<Plugin> plugins = new CopyOnWriteArrayList<>();

  /** A manager with no plugins yet. */
  public PluginManager() {
    super("PluginManager");
  }

  /**
   * A manager of {@code plugins}, in their order.
   *
   * @throws IllegalArgumentException if two of them have the same name
   */
  public PluginManager(List<? extends Plugin> plugins) {
    this();
    Objects.requireNonNull(plugins, "plugins");
    for (Plugin p : plugins) {
      registerPlugin(p);
    }
  }

  /**
   * Adds {@code plugin} after the others.
   *
   * @throws IllegalArgumentException if a plugin of the same name is registered already
   */
  public synchronized void registerPlugin(Plugin plugin) {
    Objects.requireNonNull(plugin, "plugin");
    String name = Objects.requireNonNull(plugin.getName(), "plugin name");
    if (getPlugin(name).isPresent()) {
      throw new IllegalArgumentException("A plugin named '" + name + "' is registered already");
    }
    plugins.add(plugin);
  }

  /** The registered plugin named {@code name}, if any. */
  public Optional<Plugin> getPlugin(String name) {
    for (Plugin p : plugins) {
      if (name.equals(p.getName())) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** The registered plugins, in order (a snapshot). */
  public List<Plugin> getPlugins() {
    return List.copyOf(plugins);
  }

  private <T> Maybe<T> first(Function<Plugin, Maybe<T>> hook) {
    Context context = Context.current();
    Maybe<T> answer =
        Flowable.defer(() -> Flowable.fromIterable(List.copyOf(plugins)))
            .concatMapMaybe(hook::apply)
            .firstElement();
    return Maybe.create(
        emitter ->
            emitter.setDisposable(
                answer.subscribe(
                    value -> inContext(context, () -> emitter.onSuccess(value)),
                    error -> inContext(context, () -> emitter.onError(error)),
                    () -> inContext(context, emitter::onComplete))));
  }

  private Completable each(Function<Plugin, Completable> hook) {
    return inContext(
        Context.current(),
        Flowable.defer(() -> Flowable.fromIterable(List.copyOf(plugins)))
            .concatMapCompletable(hook::apply));
  }

  /**
   * {@code done} signalled downstream in {@code context}, the OpenTelemetry context current when
   * the hook was called, whatever thread a plugin finished on (as ADK's manager does).
   */
  private static Completable inContext(Context context, Completable done) {
    return Completable.create(
        emitter ->
            emitter.setDisposable(
                done.subscribe(
                    () -> inContext(context, emitter::onComplete),
                    error -> inContext(context, () -> emitter.onError(error)))));
  }

  private static void inContext(Context context, Runnable signal) {
    try (Scope scope = context.makeCurrent()) {
      signal.run();
    }
  }

  /** ADK's name for {@link #onUserMessageCallback}. */
  public Maybe<Content> runOnUserMessageCallback(
      InvocationContext invocationContext, Content userMessage) {
    return onUserMessageCallback(invocationContext, userMessage);
  }

  /** ADK's name for {@link #beforeRunCallback}. */
  public Maybe<Content> runBeforeRunCallback(InvocationContext invocationContext) {
    return beforeRunCallback(invocationContext);
  }

  /** ADK's name for {@link #onRunErrorCallback}. */
  public Completable runOnRunErrorCallback(InvocationContext invocationContext, Throwable error) {
    return onRunErrorCallback(invocationContext, error);
  }

  @Override
  public Maybe<Content> onUserMessageCallback(
      InvocationContext invocationContext, Content userMessage) {
    return first(p -> p.onUserMessageCallback(invocationContext, userMessage));
  }

  @Override
  public Maybe<Content> beforeRunCallback(InvocationContext invocationContext) {
    return first(p -> p.beforeRunCallback(invocationContext));
  }

  @Override
  public Maybe<Event> onEventCallback(InvocationContext invocationContext, Event event) {
    return first(p -> p.onEventCallback(invocationContext, event));
  }

  @Override
  public Completable afterRunCallback(InvocationContext invocationContext) {
    return each(p -> p.afterRunCallback(invocationContext));
  }

  @Override
  public Completable onRunErrorCallback(InvocationContext invocationContext, Throwable error) {
    return each(p -> p.onRunErrorCallback(invocationContext, error));
  }

  @Override
  public Completable close() {
    return inContext(
        Context.current(),
        Flowable.defer(() -> Flowable.fromIterable(List.copyOf(plugins)))
            .concatMapCompletableDelayError(Plugin::close));
  }

  @Override
  public Maybe<Content> beforeAgentCallback(BaseAgent agent, CallbackContext callbackContext) {
    return first(p -> p.beforeAgentCallback(agent, callbackContext));
  }

  @Override
  public Maybe<Content> afterAgentCallback(BaseAgent agent, CallbackContext callbackContext) {
    return first(p -> p.afterAgentCallback(agent, callbackContext));
  }

  @Override
  public Maybe<LlmResponse> beforeModelCallback(
      CallbackContext callbackContext, LlmRequest.Builder llmRequest) {
    return first(p -> p.beforeModelCallback(callbackContext, llmRequest));
  }

  @Override
  public Maybe<LlmResponse> afterModelCallback(
      CallbackContext callbackContext, LlmResponse llmResponse) {
    return first(p -> p.afterModelCallback(callbackContext, llmResponse));
  }

  @Override
  public Maybe<LlmResponse> onModelErrorCallback(
      CallbackContext callbackContext, LlmRequest.Builder llmRequest, Throwable error) {
    return first(p -> p.onModelErrorCallback(callbackContext, llmRequest, error));
  }

  @Override
  public Maybe<Map<String, Object>> beforeToolCallback(
      BaseTool tool, Map<String, Object> toolArgs, ToolContext toolContext) {
    return first(p -> p.beforeToolCallback(tool, toolArgs, toolContext));
  }

  @Override
  public Maybe<Map<String, Object>> afterToolCallback(
      BaseTool tool,
      Map<String, Object> toolArgs,
      ToolContext toolContext,
      Map<String, Object> result) {
    return first(p -> p.afterToolCallback(tool, toolArgs, toolContext, result));
  }

  @Override
  public Maybe<Map<String, Object>> onToolErrorCallback(
      BaseTool tool, Map<String, Object> toolArgs, ToolContext toolContext, Throwable error) {
    return first(p -> p.onToolErrorCallback(tool, toolArgs, toolContext, error));
  }
}
