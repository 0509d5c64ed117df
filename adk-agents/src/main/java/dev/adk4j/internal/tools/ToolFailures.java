package dev.adk4j.internal.tools;

import dev.adk4j.tools.ToolContext;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one rule by which a tool call that went wrong becomes the function response the model sees,
 * never a failed invocation. Every such response is {@code {"error": message}}, its message names
 * the tool and what went wrong, and it is logged once at WARN:
 *
 * <ul>
 *   <li>a tool that threw, or whose result failed, or a tool callback that threw ({@link #threw}):
 *       the state writes made through the call's {@link ToolContext} are discarded, so only the
 *       error response is stored;
 *   <li>arguments the tool refused before running ({@link #invalidArguments}: a missing or wrongly
 *       typed argument);
 *   <li>a tool name the agent does not have ({@link #unknownTool}).
 * </ul>
 *
 * <p>Used by {@code FunctionTool} and by {@code LlmAgent}'s tool calls. Internal to adk4j: not part
 * of its API, may change in any release.
 */
public final class ToolFailures {
  private static final Logger log = LoggerFactory.getLogger(ToolFailures.class);

  private ToolFailures() {}

  /**
   * The response for a call of {@code toolName} that failed with {@code error}: {@code "Tool 'x'
   * failed: <exception class>: <message>"}. Discards the writes made through {@code context}, if
   * given. The {@code RuntimeException} in which RxJava's blocking calls wrap a checked exception
   * is looked through, so a tool's failure reads the same however it was awaited.
   *
   * @throws VirtualMachineError {@code error} itself, if it is one: that is no tool failure
   */
  public static Map<String, Object> threw(
      String toolName, Throwable error, @Nullable ToolContext context) {
    if (error instanceof VirtualMachineError vme) {
      throw vme;
    }
    if (context != null) {
      context.state().discard();
    }
    Throwable cause = unwrapped(error);
    String message =
        "Tool '"
            + toolName
            + "' failed: "
            + cause.getClass().getSimpleName()
            + (cause.getMessage() != null ? ": " + cause.getMessage() : "");
    log.warn(
        "Tool '{}' of agent '{}' failed",
        toolName,
        context != null ? context.agentName() : "(none)",
        cause);
    return response(message);
  }

  /**
   * The response for a call the tool refused before running, its arguments being wrong; {@code
   * message} names the tool, the argument and what was wrong with it.
   */
  public static Map<String, Object> invalidArguments(String message) {
    log.warn("{}", message);
    return response(message);
  }

  /**
   * The response for a call of a tool named {@code toolName} that agent {@code agentName} lacks.
   */
  public static Map<String, Object> unknownTool(
      String toolName, String agentName, List<String> available) {
    String message =
        "Tool '"
            + toolName
            + "' is not available to agent '"
            + agentName
            + "'; available: "
            + available;
    log.warn("{}", message);
    return response(message);
  }

  private static Map<String, Object> response(String message) {
    return Map.of("error", message);
  }

  /** {@code error}, or the checked exception RxJava wrapped in it when a blocking call threw. */
  private static Throwable unwrapped(Throwable error) {
    Throwable cause = error.getCause();
    if (error.getClass() == RuntimeException.class
        && cause != null
        && !(cause instanceof RuntimeException)
        && !(cause instanceof Error)
        && cause.toString().equals(error.getMessage())) {
      return cause;
    }
    return error;
  }
}
