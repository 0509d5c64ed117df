package dev.adk4j.agents;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.events.ToolConfirmation;
import dev.adk4j.internal.telemetry.Telemetry;
import dev.adk4j.internal.tools.ToolFailures;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.sessions.StateConflictException;
import dev.adk4j.state.Scope;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.opentelemetry.api.trace.Span;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the function calls of one model response of an {@link LlmAgent} and stores their answers as
 * one function-response event.
 *
 * <p>The calls run concurrently (see {@link RunConfig#toolExecutionMode()}, bounded by {@link
 * RunConfig#maxParallelToolCalls()}, on {@link RunConfig#toolExecutor()}), and their answers and
 * actions are merged in the order of the calls, so the event is the same whatever order they finish
 * in; on a key two calls wrote, the later call wins.
 *
 * <p>Each call runs through the agent's before-tool callbacks (the first to return a map answers in
 * the tool's place), the tool, and its after-tool callbacks (the first to return a map replaces the
 * response), with a {@link ToolContext} of its own; the calls' actions are merged onto the event. A
 * call that goes wrong (an unknown tool, a tool or callback that throws) is answered by {@link
 * ToolFailures}, never fails the step. A conflict on a key the calls read and wrote ({@link
 * StateConflictException}) re-runs them all on fresh state up to {@link
 * RunConfig#stateConflictRetries()} times.
 */
final class ToolCalls {
  private static final Logger log = LoggerFactory.getLogger(ToolCalls.class);

  /**
   * adk4j's tool-call threads, the default {@link RunConfig#toolExecutor()}: daemon threads made on
   * demand, ended after 60 idle seconds. Concurrency is bounded per model response ({@link
   * RunConfig#maxParallelToolCalls()}), not here, so a call that itself waits for calls (an agent
   * tool) never waits for a thread.
   */
  private static final Executor TOOL_CALLS =
      Executors.newCachedThreadPool(
          new ThreadFactory() {
            private final AtomicInteger n = new AtomicInteger();

            @Override
            public Thread newThread(Runnable r) {
              Thread t = new Thread(r, "adk4j-tool-call-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            }
          });

  private ToolCalls() {}

  /**
   * Runs {@code calls} for {@code agent} and stores the function-response event.
   *
   * @return the stored event, not yet emitted; null if there was nothing to store (only
   *     long-running calls that gave no answer yet and wrote nothing)
   * @throws IllegalArgumentException if a tool asked to transfer to an agent that does not exist;
   *     nothing is stored then
   * @throws StateConflictException if the calls still conflict when the retries are used up
   */
  static @Nullable Event run(LlmAgent agent, InvocationContext ctx, List<FunctionCall> calls) {
    return run(agent, ctx, calls, Map.of());
  }

  /**
   * {@link #run(LlmAgent, InvocationContext, List)} for calls that run again with a person's answer
   * to the confirmation they asked for: {@code confirmations} maps a call id to the answer.
   */
  static @Nullable Event run(
      LlmAgent agent,
      InvocationContext ctx,
      List<FunctionCall> calls,
      Map<String, ToolConfirmation> confirmations) {
    int retriesLeft = ctx.runConfig().stateConflictRetries();
    while (true) {
      List<ToolContext> contexts = new ArrayList<>(calls.size());
      for (FunctionCall call : calls) {
        String id = call.id().orElse(null);
        contexts.add(new ToolContext(ctx, id, id == null ? null : confirmations.get(id)));
      }
      List<Map<String, Object>> results = callAll(agent, ctx, calls, contexts);
      // Merged in the order of the calls, whatever order they finished in: on a key several
      // calls wrote, the later call wins.
      List<Part> parts = new ArrayList<>(calls.size());
      EventActions actions = EventActions.empty();
      for (int i = 0; i < calls.size(); i++) {
        FunctionCall call = calls.get(i);
        actions = actions.merge(contexts.get(i).actions());
        if (results.get(i).isEmpty() && isLongRunning(agent, ctx, call)) {
          continue; // no answer yet: the client sends it
        }
        parts.add(
            Part.builder()
                .functionResponse(
                    FunctionResponse.builder()
                        .id(call.id().orElse(null))
                        .name(call.name().orElse(""))
                        .response(results.get(i))
                        .build())
                .build());
      }
      if (parts.isEmpty() && actions.isEmpty()) {
        return null;
      }
      if (actions.transferToAgent().isPresent()) {
        // A tool's own transferToAgent naming no agent fails the step before it is stored.
        AgentTransfer.find(agent, actions.transferToAgent().get());
      }
      Event response =
          agent
              .newEvent(ctx)
              .content(parts.isEmpty() ? null : Content.builder().role("user").parts(parts).build())
              .actions(actions)
              .build();
      try {
        // Appending applies the merged delta to the live state too, so a key two calls wrote
        // holds the later call's value there as well, even if the earlier call wrote it last.
        return ctx.persist(response);
      } catch (StateConflictException conflict) {
        if (retriesLeft-- <= 0) {
          throw conflict;
        }
        log.info(
            "Tool calls of agent '{}' conflicted on state key '{}'; re-running them on fresh"
                + " state ({} retries left)",
            agent.name(),
            conflict.key(),
            retriesLeft);
        for (ToolContext tc : contexts) {
          tc.state().discard();
        }
        refreshStoredState(ctx);
      }
    }
  }

  /**
   * The responses to {@code calls}, in their order: one after the other on this thread, or, in
   * parallel mode with several calls, by this thread and up to {@code maxParallelToolCalls - 1}
   * workers of the run's tool executor, each taking the next call not yet started. This thread
   * works too, so the calls finish even if the executor runs none of the workers.
   */
  private static List<Map<String, Object>> callAll(
      LlmAgent agent, InvocationContext ctx, List<FunctionCall> calls, List<ToolContext> contexts) {
    int n = calls.size();
    RunConfig config = ctx.runConfig();
    int width =
        config.toolExecutionMode() == RunConfig.ToolExecutionMode.SEQUENTIAL
            ? 1
            : Math.min(n, config.maxParallelToolCalls());
    List<Map<String, Object>> results = new ArrayList<>(n);
    if (width <= 1) {
      for (int i = 0; i < n; i++) {
        results.add(call(agent, calls.get(i), contexts.get(i)));
      }
      return results;
    }
    AtomicReferenceArray<Map<String, Object>> done = new AtomicReferenceArray<>(n);
    AtomicReferenceArray<Throwable> errors = new AtomicReferenceArray<>(n);
    AtomicInteger next = new AtomicInteger();
    CountDownLatch finished = new CountDownLatch(n);
    Runnable worker =
        () -> {
          for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
            try {
              done.set(i, call(agent, calls.get(i), contexts.get(i)));
            } catch (Throwable t) {
              errors.set(i, t);
            } finally {
              finished.countDown();
            }
          }
        };
    Executor executor = config.toolExecutor().orElse(TOOL_CALLS);
    for (int w = 1; w < width; w++) {
      try {
        executor.execute(worker);
      } catch (RejectedExecutionException refused) {
        log.debug("Tool executor refused a worker; the agent's thread runs the calls left");
        break;
      }
    }
    worker.run();
    try {
      finished.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "Interrupted while agent '" + agent.name() + "' waited for its tool calls", e);
    }
    for (int i = 0; i < n; i++) {
      Throwable t = errors.get(i);
      if (t instanceof Error error) {
        throw error;
      }
      if (t instanceof RuntimeException runtime) {
        throw runtime;
      }
      results.add(Objects.requireNonNull(done.get(i), "every call either answered or threw"));
    }
    return results;
  }

  /** The response to one call: the tool's, a callback's, or an error. */
  private static Map<String, Object> call(LlmAgent agent, FunctionCall call, ToolContext tc) {
    Map<String, Object> args = new LinkedHashMap<>(call.args().orElse(Map.of()));
    String toolName = call.name().orElse("");
    InvocationContext ctx = tc.invocationContext();
    BaseTool tool = find(agent, ctx, toolName);
    Span span =
        Telemetry.startToolCall(
            ctx.telemetry(),
            toolName,
            tool == null ? "" : tool.description(),
            tool == null ? "unknown" : tool.getClass().getSimpleName(),
            call.id().orElse(null),
            agent.name(),
            ctx.invocationId());
    // Current while the call runs, on this thread: an agent tool's child invocation is its child.
    try (io.opentelemetry.context.Scope scope = ctx.telemetry().with(span).makeCurrent()) {
      Map<String, Object> result = call(agent, toolName, args, tc);
      if (result.size() == 1 && result.get("error") instanceof String error) {
        Telemetry.fail(span, error);
      }
      return result;
    } catch (RuntimeException | Error e) {
      Telemetry.fail(span, e);
      throw e;
    } finally {
      span.end();
    }
  }

  /**
   * The response to one call of {@code toolName}: the tool's, a plugin's or a callback's, or an
   * error. The plugins' hooks run before the agent's callbacks of the same kind, and the first that
   * answers skips the rest (see {@link BasePlugin}). When the before-tool hooks, callbacks or the
   * tool fail, the call's writes are discarded and the plugins' on-tool-error hooks (then the
   * agent's on-tool-error callbacks) may answer in place of the error response.
   */
  private static Map<String, Object> call(
      LlmAgent agent, String toolName, Map<String, Object> args, ToolContext tc) {
    BaseTool tool = find(agent, tc.invocationContext(), toolName);
    if (tool == null) {
      return ToolFailures.unknownTool(
          toolName, agent.name(), toolNames(agent, tc.invocationContext()));
    }
    List<BasePlugin> plugins = tc.invocationContext().plugins();
    try {
      Map<String, Object> result = null;
      boolean answeredBefore = false;
      try {
        // indexed: no iterator per loop (these lists are usually empty)
        for (int pi = 0; pi < plugins.size(); pi++) {
          BasePlugin p = plugins.get(pi);
          result = p.beforeToolCallback(tool, args, tc).blockingGet();
          if (result != null) {
            break;
          }
        }
        if (result == null) {
          // indexed: no iterator per loop (these lists are usually empty)
          for (int ci = 0; ci < agent.beforeToolCallbacks().size(); ci++) {
            Callbacks.BeforeToolCallback cb = agent.beforeToolCallbacks().get(ci);
            result = cb.call(tool, args, tc).blockingGet();
            if (result != null) {
              break;
            }
          }
        }
        answeredBefore = result != null;
        if (result == null) {
          result = tool.runAsync(args, tc).blockingGet();
        }
      } catch (RuntimeException failure) {
        if (plugins.isEmpty() && agent.canonicalOnToolErrorCallbacks().isEmpty()) {
          throw failure;
        }
        Map<String, Object> recovered = recover(agent, plugins, tool, toolName, args, tc, failure);
        if (recovered == null) {
          throw failure;
        }
        result = recovered;
      }
      if (!answeredBefore) {
        result = afterTool(agent, plugins, tool, args, tc, result == null ? Map.of() : result);
      }
      return result == null ? Map.of() : result;
    } catch (RuntimeException e) {
      return ToolFailures.threw(toolName, e, tc);
    }
  }

  /**
   * The plugins' answer to a failed call, or null: the call's writes are discarded first (so only
   * the hook's own writes stay), then each plugin's on-tool-error hook is asked in turn, then the
   * agent's on-tool-error callbacks.
   */
  private static @Nullable Map<String, Object> recover(
      LlmAgent agent,
      List<BasePlugin> plugins,
      BaseTool tool,
      String toolName,
      Map<String, Object> args,
      ToolContext tc,
      RuntimeException failure) {
    tc.state().discard();
    for (BasePlugin p : plugins) {
      Map<String, Object> answer = p.onToolErrorCallback(tool, args, tc, failure).blockingGet();
      if (answer != null) {
        log.info(
            "Tool '{}' of agent '{}' failed; plugin '{}' answered in its place",
            toolName,
            tc.agentName(),
            p.name());
        return answer;
      }
    }
    for (Callbacks.OnToolErrorCallback cb : agent.canonicalOnToolErrorCallbacks()) {
      Map<String, Object> answer =
          cb.call(tc.invocationContext(), tool, args, tc, failure).blockingGet();
      if (answer != null) {
        log.info(
            "Tool '{}' of agent '{}' failed; its on-tool-error callback answered in its place",
            toolName,
            tc.agentName());
        return answer;
      }
    }
    return null;
  }

  /** The plugins' after-tool hooks, then the agent's callbacks: the first map replaces result. */
  private static Map<String, Object> afterTool(
      LlmAgent agent,
      List<BasePlugin> plugins,
      BaseTool tool,
      Map<String, Object> args,
      ToolContext tc,
      Map<String, Object> result) {
    // indexed: no iterator per loop (these lists are usually empty)
    for (int pi = 0; pi < plugins.size(); pi++) {
      BasePlugin p = plugins.get(pi);
      Map<String, Object> replaced = p.afterToolCallback(tool, args, tc, result).blockingGet();
      if (replaced != null) {
        return replaced;
      }
    }
    // indexed: no iterator per loop (these lists are usually empty)
    for (int ci = 0; ci < agent.afterToolCallbacks().size(); ci++) {
      Callbacks.AfterToolCallback cb = agent.afterToolCallbacks().get(ci);
      Map<String, Object> replaced = cb.call(tool, args, tc, result).blockingGet();
      if (replaced != null) {
        return replaced;
      }
    }
    return result;
  }

  /** Whether {@code call} is a call of a long-running tool of {@code agent}. */
  static boolean isLongRunning(LlmAgent agent, InvocationContext ctx, FunctionCall call) {
    BaseTool tool = find(agent, ctx, call.name().orElse(""));
    return tool != null && tool.longRunning();
  }

  /** The tool of {@code agent} named {@code toolName}, the transfer tool included; or null. */
  private static @Nullable BaseTool find(LlmAgent agent, InvocationContext ctx, String toolName) {
    for (BaseTool t : agent.toolsFor(ctx)) {
      if (t.name().equals(toolName)) {
        return t;
      }
    }
    if (LlmAgent.TRANSFER_TO_AGENT.equals(toolName) && !AgentTransfer.targets(agent).isEmpty()) {
      return AgentTransfer.tool(agent);
    }
    return null;
  }

  private static List<String> toolNames(LlmAgent agent, InvocationContext ctx) {
    List<String> names = new ArrayList<>();
    agent.toolsFor(ctx).forEach(t -> names.add(t.name()));
    if (!AgentTransfer.targets(agent).isEmpty()) {
      names.add(LlmAgent.TRANSFER_TO_AGENT);
    }
    return names;
  }

  /**
   * Replaces the stored keys of the invocation's live state (everything but {@code temp:}) with
   * their values in storage, so that a retried step reads what other writers stored meanwhile.
   */
  private static void refreshStoredState(InvocationContext ctx) {
    Session fresh =
        ctx.sessionService()
            .getSession(
                ctx.appName(),
                ctx.userId(),
                ctx.session().id(),
                Optional.of(GetSessionConfig.builder().numRecentEvents(0).build()))
            .blockingGet();
    if (fresh == null) {
      throw new SessionNotFoundException(ctx.appName(), ctx.userId(), ctx.session().id());
    }
    Map<String, Object> live = ctx.liveState();
    live.keySet().removeIf(k -> Scope.of(k) != Scope.TEMP && !fresh.state().containsKey(k));
    fresh.state().forEach(live::put);
  }
}
