package dev.adk4j.tools;

import com.google.genai.types.FunctionDeclaration;
import dev.adk4j.models.LlmRequest;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A tool a model may call. Subclass it for hand-written tools; {@link FunctionTool} wraps a Java
 * method.
 *
 * <p>{@link #runAsync} returns the function response given to the model. A failure (an exception
 * thrown, or an error from the Single) is turned by the calling agent into an error response the
 * model sees, not a failed invocation: {@code {"error": "Tool 'x' failed: <exception class>:
 * <message>"}}, the same words a {@link FunctionTool} uses, and the state writes the call made
 * through its {@link ToolContext} are discarded.
 */
public abstract class BaseTool {
  private final String name;
  private final String description;

  protected BaseTool(String name, String description) {
    this.name = Objects.requireNonNull(name, "name");
    this.description = description == null ? "" : description;
    if (name.isEmpty()) {
      throw new IllegalArgumentException("Tool names must not be empty");
    }
  }

  public String name() {
    return name;
  }

  public String description() {
    return description;
  }

  /** How the model sees this tool; empty for tools that are not function declarations. */
  public abstract Optional<FunctionDeclaration> declaration();

  /**
   * Runs the tool with the model's arguments.
   *
   * @return the function response, a JSON object
   */
  public abstract Single<Map<String, Object>> runAsync(
      Map<String, Object> args, ToolContext context);

  /**
   * Changes the request before it goes to the model, each time the agent builds one (after its
   * instructions and the tools' declarations are in): {@code LoadMemoryTool} adds an instruction,
   * {@code PreloadMemoryTool} the memories that match the user's message. The default does nothing.
   *
   * <p>{@code context} is for reading (state, the user's message, memory): no event carries what a
   * request's preparation writes, so a state write (or any action) here fails the invocation with
   * an {@link IllegalStateException} naming the tool.
   */
  public Completable processLlmRequest(LlmRequest.Builder request, ToolContext context) {
    return Completable.complete();
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "{" + name + "}";
  }
}
