package dev.adk4j.agents;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.internal.tools.ToolFailures;
import dev.adk4j.sessions.GetSessionConfig;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.sessions.StateConflictException;
import dev.adk4j.state.Scope;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the function calls of one model response of an {@link LlmAgent} and stores their answers as
 * one function-response event.
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

  private ToolCalls() {}

  /**
   * Runs {@code calls} for {@code agent} and stores the function-response event.
   *
   * @return the stored event, not yet emitted
   * @throws IllegalArgumentException if a tool asked to transfer to an agent that does not exist;
   *     nothing is stored then
   * @throws StateConflictException if the calls still conflict when the retries are used up
   */
  static Event run(LlmAgent agent, InvocationContext ctx, List<FunctionCall> calls) {
    int retriesLeft = ctx.runConfig().stateConflictRetries();
    while (true) {
      List<Part> parts = new ArrayList<>();
      List<ToolContext> contexts = new ArrayList<>();
      EventActions actions = EventActions.empty();
      for (FunctionCall call : calls) {
        String toolName = call.name().orElse("");
        ToolContext tc = new ToolContext(ctx, call.id().orElse(null));
        contexts.add(tc);
        Map<String, Object> args = new LinkedHashMap<>(call.args().orElse(Map.of()));
        Map<String, Object> result = call(agent, toolName, args, tc);
        parts.add(
            Part.builder()
                .functionResponse(
                    FunctionResponse.builder()
                        .id(call.id().orElse(null))
                        .name(toolName)
                        .response(result)
                        .build())
                .build());
        actions = actions.merge(tc.actions());
      }
      if (actions.transferToAgent().isPresent()) {
        // A tool's own transferToAgent naming no agent fails the step before it is stored.
        AgentTransfer.find(agent, actions.transferToAgent().get());
      }
      Event response =
          agent
              .newEvent(ctx)
              .content(Content.builder().role("user").parts(parts).build())
              .actions(actions)
              .build();
      try {
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

  /** The response to one call of {@code toolName}: the tool's, a callback's, or an error. */
  private static Map<String, Object> call(
      LlmAgent agent, String toolName, Map<String, Object> args, ToolContext tc) {
    BaseTool tool = find(agent, toolName);
    if (tool == null) {
      return ToolFailures.unknownTool(toolName, agent.name(), toolNames(agent));
    }
    try {
      Map<String, Object> result = null;
      for (Callbacks.BeforeToolCallback cb : agent.beforeToolCallbacks()) {
        result = cb.call(tool, args, tc).blockingGet();
        if (result != null) {
          break;
        }
      }
      if (result == null) {
        result = tool.runAsync(args, tc).blockingGet();
        for (Callbacks.AfterToolCallback cb : agent.afterToolCallbacks()) {
          Map<String, Object> replaced = cb.call(tool, args, tc, result).blockingGet();
          if (replaced != null) {
            result = replaced;
            break;
          }
        }
      }
      return result == null ? Map.of() : result;
    } catch (RuntimeException e) {
      return ToolFailures.threw(toolName, e, tc);
    }
  }

  /** The tool of {@code agent} named {@code toolName}, the transfer tool included; or null. */
  private static @Nullable BaseTool find(LlmAgent agent, String toolName) {
    for (BaseTool t : agent.tools()) {
      if (t.name().equals(toolName)) {
        return t;
      }
    }
    if (LlmAgent.TRANSFER_TO_AGENT.equals(toolName) && !AgentTransfer.targets(agent).isEmpty()) {
      return AgentTransfer.tool(agent);
    }
    return null;
  }

  private static List<String> toolNames(LlmAgent agent) {
    List<String> names = new ArrayList<>();
    agent.tools().forEach(t -> names.add(t.name()));
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
