package dev.adk4j.tools;

import com.google.genai.types.FunctionDeclaration;
import java.lang.reflect.Method;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@link FunctionTool} whose work finishes outside the invocation: a job that runs for minutes, a
 * ticket a person must approve. The method starts the work and returns a status (or nothing); the
 * invocation then pauses, and the client sends the result later.
 *
 * <p>When the model calls it:
 *
 * <ol>
 *   <li>the model's event lists the call's id in {@link
 *       dev.adk4j.events.Event#longRunningToolIds()};
 *   <li>the method runs as for a {@link FunctionTool}; what it returns is stored as the call's
 *       function response (a status the client can show), unless it returns nothing ({@code null},
 *       {@code void}, an empty map or an empty {@code Maybe}): then no response is stored;
 *   <li>the invocation pauses after this step: the model is not called again, and enclosing
 *       sequential and loop agents stop.
 * </ol>
 *
 * <p>The client resumes it by running the session with a message holding a function response with
 * the call's id and name (an intermediate status or the final result). The runner appends it to the
 * same invocation and runs the agent that made the call; that agent's model sees the call and the
 * latest response to it. Everything the invocation stored before it paused is in the session store,
 * so any runner on the same store can resume it; only {@code temp:} keys are gone, as they never
 * outlive one run.
 *
 * <p>The model is told, in the tool's description, that the tool runs long and must not be called
 * again while it is pending.
 */
public final class LongRunningFunctionTool extends FunctionTool {

  private LongRunningFunctionTool(FunctionTool tool, boolean requireConfirmation) {
    super(tool, true, requireConfirmation);
  }

  /** A long-running tool calling {@code tool}'s method, asking for confirmation as it does. */
  public static LongRunningFunctionTool create(FunctionTool tool) {
    Objects.requireNonNull(tool, "tool");
    if (tool instanceof LongRunningFunctionTool longRunning) {
      return longRunning;
    }
    return new LongRunningFunctionTool(tool, tool.requireConfirmation());
  }

  /** See {@link FunctionTool#create(Object, String)}. */
  public static LongRunningFunctionTool create(Object instance, String methodName) {
    return create(FunctionTool.create(instance, methodName));
  }

  /** See {@link FunctionTool#create(Object, String, boolean)}. */
  public static LongRunningFunctionTool create(
      Object instance, String methodName, boolean requireConfirmation) {
    return create(FunctionTool.create(instance, methodName, requireConfirmation));
  }

  /** See {@link FunctionTool#create(Class, String)}. */
  public static LongRunningFunctionTool create(Class<?> clazz, String methodName) {
    return create(FunctionTool.create(clazz, methodName));
  }

  /** See {@link FunctionTool#create(Class, String, boolean)}. */
  public static LongRunningFunctionTool create(
      Class<?> clazz, String methodName, boolean requireConfirmation) {
    return create(FunctionTool.create(clazz, methodName, requireConfirmation));
  }

  /** See {@link FunctionTool#create(Method)}. */
  public static LongRunningFunctionTool create(Method method) {
    return create(FunctionTool.create(method));
  }

  /** See {@link FunctionTool#create(Method, boolean)}. */
  public static LongRunningFunctionTool create(Method method, boolean requireConfirmation) {
    return create(FunctionTool.create(method, requireConfirmation));
  }

  /** See {@link FunctionTool#create(Object, Method)}. */
  public static LongRunningFunctionTool create(@Nullable Object instance, Method method) {
    return create(FunctionTool.create(instance, method));
  }

  /** See {@link FunctionTool#create(Object, Method, boolean)}. */
  public static LongRunningFunctionTool create(
      @Nullable Object instance, Method method, boolean requireConfirmation) {
    return create(FunctionTool.create(instance, method, requireConfirmation));
  }

  /** {@code declaration} with the note for the model that the tool runs long. */
  static FunctionDeclaration declared(FunctionDeclaration declaration) {
    String note =
        "This tool runs long: it may answer with a status first and its result later. Do not call"
            + " it again while a call is pending.";
    String description = declaration.description().orElse("");
    return declaration.toBuilder()
        .description(description.isEmpty() ? note : description + "\n\n" + note)
        .build();
  }
}
