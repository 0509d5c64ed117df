package dev.adk4j.agents;

import com.google.genai.types.Content;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import java.util.Map;
import java.util.Optional;

/**
 * The callback types of agents. A callback that returns a value short-circuits its step; one that
 * completes empty lets the step run. State written through the context lands in an event: for agent
 * callbacks a content-less event carrying the delta (or the event of the returned content), for
 * model callbacks the model response's event, for tool callbacks the function-response event.
 */
public final class Callbacks {
  private Callbacks() {}

  /**
   * Before an agent runs; returned content is the agent's reply in its place: it becomes the
   * agent's event (with the callback's state writes, and under an {@link LlmAgent}'s output key),
   * and that agent is skipped (its own work and its after-agent callbacks), not the invocation: a
   * sequence goes on with its next sub-agent, a loop with its next sub-agent or round.
   */
  @FunctionalInterface
  public interface BeforeAgentCallback {
    Maybe<Content> call(CallbackContext context);
  }

  /** After an agent ran; returned content is added as the agent's last reply. */
  @FunctionalInterface
  public interface AfterAgentCallback {
    Maybe<Content> call(CallbackContext context);
  }

  /**
   * {@link BeforeAgentCallback} returning {@link Optional} instead of {@link Maybe} (ADK for Java's
   * {@code BeforeAgentCallbackSync}).
   */
  @FunctionalInterface
  public interface BeforeAgentCallbackSync {
    Optional<Content> call(CallbackContext context);

    /** This callback as a {@link BeforeAgentCallback}. */
    default BeforeAgentCallback toAsync() {
      return context -> Maybe.fromOptional(call(context));
    }
  }

  /**
   * {@link AfterAgentCallback} returning {@link Optional} instead of {@link Maybe} (ADK for Java's
   * {@code AfterAgentCallbackSync}).
   */
  @FunctionalInterface
  public interface AfterAgentCallbackSync {
    Optional<Content> call(CallbackContext context);

    /** This callback as an {@link AfterAgentCallback}. */
    default AfterAgentCallback toAsync() {
      return context -> Maybe.fromOptional(call(context));
    }
  }

  /** Before a model call; a returned response is used instead of calling the model. */
  @FunctionalInterface
  public interface BeforeModelCallback {
    Maybe<LlmResponse> call(CallbackContext context, LlmRequest request);
  }

  /** After a model call; a returned response replaces the model's. */
  @FunctionalInterface
  public interface AfterModelCallback {
    Maybe<LlmResponse> call(CallbackContext context, LlmResponse response);
  }

  /**
   * ADK for Java's synchronous {@link BeforeModelCallback}: an empty {@code Optional} lets the
   * model be called. It reads the request (see the migration guide: an agent's callbacks do not
   * change it).
   */
  @FunctionalInterface
  public interface BeforeModelCallbackSync {
    Optional<LlmResponse> call(CallbackContext context, LlmRequest request);

    /** This callback as a {@link BeforeModelCallback}. */
    default BeforeModelCallback toAsync() {
      return (context, request) -> Maybe.fromOptional(call(context, request));
    }
  }

  /** ADK for Java's synchronous {@link AfterModelCallback}. */
  @FunctionalInterface
  public interface AfterModelCallbackSync {
    Optional<LlmResponse> call(CallbackContext context, LlmResponse response);

    /** This callback as an {@link AfterModelCallback}. */
    default AfterModelCallback toAsync() {
      return (context, response) -> Maybe.fromOptional(call(context, response));
    }
  }

  /** Before a tool runs; a returned map is used as the tool's response instead of running it. */
  @FunctionalInterface
  public interface BeforeToolCallback {
    Maybe<Map<String, Object>> call(BaseTool tool, Map<String, Object> args, ToolContext context);
  }

  /** After a tool ran; a returned map replaces its response. */
  @FunctionalInterface
  public interface AfterToolCallback {
    Maybe<Map<String, Object>> call(
        BaseTool tool, Map<String, Object> args, ToolContext context, Map<String, Object> response);
  }

  /** ADK for Java's synchronous before-tool callback (its shape, with the invocation). */
  @FunctionalInterface
  public interface BeforeToolCallbackSync {
    Optional<Map<String, Object>> call(
        InvocationContext invocation, BaseTool tool, Map<String, Object> args, ToolContext context);

    /** This callback as a {@link BeforeToolCallback}. */
    default BeforeToolCallback toAsync() {
      return (tool, args, context) ->
          Maybe.fromOptional(call(context.invocationContext(), tool, args, context));
    }
  }

  /** ADK for Java's synchronous after-tool callback (its shape, with the invocation). */
  @FunctionalInterface
  public interface AfterToolCallbackSync {
    Optional<Map<String, Object>> call(
        InvocationContext invocation,
        BaseTool tool,
        Map<String, Object> args,
        ToolContext context,
        Object response);

    /** This callback as an {@link AfterToolCallback}. */
    default AfterToolCallback toAsync() {
      return (tool, args, context, response) ->
          Maybe.fromOptional(call(context.invocationContext(), tool, args, context, response));
    }
  }

  /**
   * A {@link BeforeToolCallback} in ADK for Java's shape, which also receives the invocation (the
   * one {@code context.invocationContext()} returns).
   */
  @FunctionalInterface
  public interface BeforeToolCallbackWithInvocation {
    Maybe<Map<String, Object>> call(
        InvocationContext invocation, BaseTool tool, Map<String, Object> args, ToolContext context);

    /** This callback as a {@link BeforeToolCallback}. */
    default BeforeToolCallback toBeforeToolCallback() {
      return (tool, args, context) -> call(context.invocationContext(), tool, args, context);
    }
  }

  /**
   * An {@link AfterToolCallback} in ADK for Java's shape, which also receives the invocation and
   * takes the tool's response as an {@code Object} (it is the response map).
   */
  @FunctionalInterface
  public interface AfterToolCallbackWithInvocation {
    Maybe<Map<String, Object>> call(
        InvocationContext invocation,
        BaseTool tool,
        Map<String, Object> args,
        ToolContext context,
        Object response);

    /** This callback as an {@link AfterToolCallback}. */
    default AfterToolCallback toAfterToolCallback() {
      return (tool, args, context, response) ->
          call(context.invocationContext(), tool, args, context, response);
    }
  }

  /**
   * ADK for Java's on-model-error callback of an agent: asked when its model call failed, after the
   * plugins' {@code onModelErrorCallback} hooks answered nothing; a response is used in place of
   * the failed call and the invocation goes on. Empty lets the failure end the invocation.
   */
  @FunctionalInterface
  public interface OnModelErrorCallback {
    Maybe<LlmResponse> call(CallbackContext context, LlmRequest request, Exception error);
  }

  /** The synchronous form of {@link OnModelErrorCallback}. */
  @FunctionalInterface
  public interface OnModelErrorCallbackSync {
    Optional<LlmResponse> call(CallbackContext context, LlmRequest request, Exception error);

    /** This callback as an {@link OnModelErrorCallback}. */
    default OnModelErrorCallback toAsync() {
      return (context, request, error) -> Maybe.fromOptional(call(context, request, error));
    }
  }

  /**
   * ADK for Java's on-tool-error callback of an agent: asked when one of its tool calls failed (the
   * tool, or a before-tool hook or callback), after the plugins' {@code onToolErrorCallback} hooks
   * answered nothing; a map answers the call instead of the error response (the failed call's state
   * writes are discarded first), then the after-tool hooks and callbacks run on it.
   */
  @FunctionalInterface
  public interface OnToolErrorCallback {
    Maybe<Map<String, Object>> call(
        InvocationContext invocation,
        BaseTool tool,
        Map<String, Object> args,
        ToolContext context,
        Exception error);
  }

  /** The synchronous form of {@link OnToolErrorCallback}. */
  @FunctionalInterface
  public interface OnToolErrorCallbackSync {
    Optional<Map<String, Object>> call(
        InvocationContext invocation,
        BaseTool tool,
        Map<String, Object> args,
        ToolContext context,
        Exception error);

    /** This callback as an {@link OnToolErrorCallback}. */
    default OnToolErrorCallback toAsync() {
      return (invocation, tool, args, context, error) ->
          Maybe.fromOptional(call(invocation, tool, args, context, error));
    }
  }
}
