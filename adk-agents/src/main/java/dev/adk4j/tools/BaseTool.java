package dev.adk4j.tools;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.genai.types.FunctionDeclaration;
import dev.adk4j.internal.Json;
import dev.adk4j.models.LlmRequest;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

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
  /** Converts the arguments of ADK's typed {@code runAsync} overloads; never handed out. */
  private static final ObjectMapper ARGS_MAPPER = Json.newMapper();

  private final String name;
  private final String description;
  private final boolean longRunning;

  protected BaseTool(String name, String description) {
    this(name, description, false);
  }

  /**
   * A tool named {@code name}; a {@code longRunning} one pauses the invocation that calls it (see
   * {@link #longRunning()}).
   */
  protected BaseTool(String name, String description, boolean longRunning) {
    this.name = Objects.requireNonNull(name, "name");
    this.description = description == null ? "" : description;
    this.longRunning = longRunning;
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

  /**
   * Whether calls of this tool finish outside the invocation (a job, an approval by a person): the
   * model's call is marked in {@link dev.adk4j.events.Event#longRunningToolIds()}, the tool's first
   * answer (if it gives one) is stored as a status, and the invocation pauses after the step
   * without calling the model again. The client later sends the call's result as a function
   * response with the same id, which resumes the invocation, on any instance that shares the
   * session store. See {@link LongRunningFunctionTool}.
   */
  public boolean longRunning() {
    return longRunning;
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
   * ADK for Java's typed call: {@code args} (a record, a bean, a map) converted to a JSON object,
   * then {@link #runAsync(Map, ToolContext)}.
   */
  public final <T> Single<Map<String, Object>> runAsync(T args, ToolContext toolContext) {
    return runAsync(args, toolContext, ARGS_MAPPER);
  }

  /** {@link #runAsync(Object, ToolContext)} converting {@code args} with {@code objectMapper}. */
  public final <T> Single<Map<String, Object>> runAsync(
      T args, ToolContext toolContext, ObjectMapper objectMapper) {
    return typed(args, toolContext, objectMapper, out -> out);
  }

  /** A typed call whose response is converted to {@code type}. */
  public final <I, O> Single<O> runAsync(I args, ToolContext toolContext, Class<? extends O> type) {
    return runAsync(args, toolContext, ARGS_MAPPER, type);
  }

  /** A typed call whose response is converted to {@code type}. */
  public final <I, O> Single<O> runAsync(
      I args, ToolContext toolContext, TypeReference<? extends O> type) {
    return runAsync(args, toolContext, ARGS_MAPPER, type);
  }

  /** A typed call converting both ways with {@code objectMapper}. */
  public final <I, O> Single<O> runAsync(
      I args, ToolContext toolContext, ObjectMapper objectMapper, Class<? extends O> type) {
    return typed(args, toolContext, objectMapper, out -> objectMapper.convertValue(out, type));
  }

  /** A typed call converting both ways with {@code objectMapper}. */
  public final <I, O> Single<O> runAsync(
      I args, ToolContext toolContext, ObjectMapper objectMapper, TypeReference<? extends O> type) {
    return typed(args, toolContext, objectMapper, out -> objectMapper.convertValue(out, type));
  }

  private <I, O> Single<O> typed(
      I args,
      ToolContext toolContext,
      ObjectMapper objectMapper,
      Function<Map<String, Object>, O> convert) {
    return Single.defer(
            () ->
                Single.just(
                    objectMapper.convertValue(args, new TypeReference<Map<String, Object>>() {})))
        .flatMap(map -> runAsync(map, toolContext))
        .map(convert::apply);
  }

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
