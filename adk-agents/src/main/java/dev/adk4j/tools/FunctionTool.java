package dev.adk4j.tools;

import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Schema;
import com.google.genai.types.Type;
import dev.adk4j.agents.ReadonlyContext;
import dev.adk4j.events.ToolConfirmation;
import dev.adk4j.internal.Json;
import dev.adk4j.internal.tools.ToolFailures;
import io.reactivex.rxjava3.core.Single;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A tool that calls a Java method.
 *
 * <h2>Declaration</h2>
 *
 * The tool's name is the method's name, or {@link Annotations.Schema#name()} on the method; its
 * description is {@link Annotations.Schema#description()} on the method (none by default). Each
 * parameter becomes an argument named by its {@code @Schema(name)} or its Java name (compile with
 * {@code -parameters}), described by its {@code @Schema(description)}, with a schema derived from
 * its generic type: booleans, integers, numbers, strings, enums, arrays and collections, maps,
 * records and classes (nested, cycles cut). Every argument is required unless annotated
 * {@code @Schema(optional = true)} or of type {@code Optional}. A parameter of type {@link
 * ToolContext} (or its supertypes {@code CallbackContext} and {@code ReadonlyContext}) receives the
 * call's context, whatever its name, and is not an argument.
 *
 * <h2>Calls</h2>
 *
 * {@link #runAsync} converts each argument of the model's JSON to its parameter's generic type with
 * Jackson (adk4j's JSON settings ({@link Json}), except that a number with a fraction is never
 * truncated into an integer), invokes the method, and maps what it returns to the function
 * response:
 *
 * <ul>
 *   <li>a {@code Single}, {@code Maybe}, {@code Completable} or {@code CompletionStage} is awaited
 *       and its value mapped as below;
 *   <li>{@code null}, nothing ({@code void}, a {@code Completable}, an empty {@code Maybe} or
 *       {@code Optional}) is the empty object {@code {}}, as in ADK for Java;
 *   <li>a {@link Map}, record or other object Jackson writes as a JSON object becomes that object,
 *       as a {@code Map<String, Object>} of JSON values;
 *   <li>anything else (a string, number, boolean, list) is wrapped as {@code {"result": value}}.
 * </ul>
 *
 * <p>The model sees every failure as an error response, never as a failed invocation: a missing
 * required argument, an argument of the wrong type (the method is then not called), an exception
 * thrown by the method (or an error of its returned {@code Single}), or a result that is not JSON
 * gives {@code {"error": "<message naming the tool and the argument or exception>"}}, logged at
 * WARN; the state writes the failed call made through its {@link ToolContext} are discarded. The
 * returned {@link Single} only fails on fatal JVM errors.
 *
 * <h2>Confirmation</h2>
 *
 * A tool created with {@code requireConfirmation} asks a person before each call: valid arguments
 * first get the answer {@code {"error": "...waits for a person..."}} and a confirmation request
 * ({@link ToolContext#requestConfirmation(String)}), which pauses the invocation. When the person
 * approves, the method runs with the same arguments; when they reject, the answer is {@code
 * {"error": "...rejected..."}} and the method does not run. A tool that decides for itself when to
 * ask calls {@link ToolContext#requestConfirmation} in its method instead.
 *
 * <p>Immutable and thread-safe if the method is. The method runs on the thread that subscribes.
 */
public sealed class FunctionTool extends BaseTool permits LongRunningFunctionTool {

  /** Gemini's rule for function names. */
  private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.:-]{0,63}");

  private final @Nullable Object instance;
  private final Method method;
  private final FunctionArguments arguments;
  private final FunctionDeclaration declaration;
  private final boolean requireConfirmation;

  private FunctionTool(
      @Nullable Object instance,
      Method method,
      String name,
      String description,
      FunctionArguments arguments,
      FunctionDeclaration declaration) {
    super(name, description);
    this.instance = instance;
    this.method = method;
    this.arguments = arguments;
    this.declaration = declaration;
    this.requireConfirmation = false;
  }

  /** {@code tool}'s method, long-running or not, asking for confirmation or not. */
  FunctionTool(FunctionTool tool, boolean longRunning, boolean requireConfirmation) {
    super(tool.name(), tool.description(), longRunning);
    this.instance = tool.instance;
    this.method = tool.method;
    this.arguments = tool.arguments;
    this.declaration =
        longRunning ? LongRunningFunctionTool.declared(tool.declaration) : tool.declaration;
    this.requireConfirmation = requireConfirmation;
  }

  /**
   * ADK for Java's constructor shape: a tool calling {@code method} (on {@code instance} unless it
   * is static), long-running and asking for confirmation as given. {@code FunctionTool} is sealed,
   * so only this package and {@link LongRunningFunctionTool} reach it; use {@code create(..)}.
   */
  protected FunctionTool(
      @Nullable Object instance,
      Method method,
      boolean isLongRunning,
      boolean requireConfirmation) {
    this(create(instance, method), isLongRunning, requireConfirmation);
  }

  /** Whether each call waits for a person's approval (see the class comment). */
  boolean requireConfirmation() {
    return requireConfirmation;
  }

  /** {@code tool}, asking for confirmation if {@code requireConfirmation}. */
  private static FunctionTool confirming(FunctionTool tool, boolean requireConfirmation) {
    return requireConfirmation ? new FunctionTool(tool, tool.longRunning(), true) : tool;
  }

  /**
   * {@link #create(Object, String)}, asking a person to approve each call if {@code
   * requireConfirmation} (see the class comment).
   */
  public static FunctionTool create(
      Object instance, String methodName, boolean requireConfirmation) {
    return confirming(create(instance, methodName), requireConfirmation);
  }

  /**
   * {@link #create(Class, String)}, asking a person to approve each call if {@code
   * requireConfirmation} (see the class comment).
   */
  public static FunctionTool create(
      Class<?> clazz, String methodName, boolean requireConfirmation) {
    return confirming(create(clazz, methodName), requireConfirmation);
  }

  /**
   * {@link #create(Method)}, asking a person to approve each call if {@code requireConfirmation}
   * (see the class comment).
   */
  public static FunctionTool create(Method method, boolean requireConfirmation) {
    return confirming(create(method), requireConfirmation);
  }

  /**
   * {@link #create(Object, Method)}, asking a person to approve each call if {@code
   * requireConfirmation} (see the class comment).
   */
  public static FunctionTool create(
      @Nullable Object instance, Method method, boolean requireConfirmation) {
    return confirming(create(instance, method), requireConfirmation);
  }

  /**
   * ADK for Java's form: {@link #create(Object, String, boolean)}, long-running (a {@link
   * LongRunningFunctionTool}) if {@code isLongRunning}.
   */
  public static FunctionTool create(
      Object instance, String methodName, boolean requireConfirmation, boolean isLongRunning) {
    return longRunning(create(instance, methodName, requireConfirmation), isLongRunning);
  }

  /** ADK for Java's form of {@link #create(Class, String, boolean)} (see above). */
  public static FunctionTool create(
      Class<?> clazz, String methodName, boolean requireConfirmation, boolean isLongRunning) {
    return longRunning(create(clazz, methodName, requireConfirmation), isLongRunning);
  }

  /** ADK for Java's form of {@link #create(Method, boolean)} (see above). */
  public static FunctionTool create(
      Method method, boolean requireConfirmation, boolean isLongRunning) {
    return longRunning(create(method, requireConfirmation), isLongRunning);
  }

  /** ADK for Java's form of {@link #create(Object, Method, boolean)} (see above). */
  public static FunctionTool create(
      @Nullable Object instance,
      Method method,
      boolean requireConfirmation,
      boolean isLongRunning) {
    return longRunning(create(instance, method, requireConfirmation), isLongRunning);
  }

  private static FunctionTool longRunning(FunctionTool tool, boolean isLongRunning) {
    return isLongRunning ? LongRunningFunctionTool.create(tool) : tool;
  }

  /**
   * A tool calling the method named {@code methodName} of {@code instance} (an instance method or a
   * static one) declared by its class or a superclass, whatever its visibility, or inherited from
   * an interface.
   *
   * @throws IllegalArgumentException if there is no such method, several (overloads), or its
   *     parameters or return type cannot be described to the model
   * @throws NullPointerException if an argument is null
   */
  public static FunctionTool create(Object instance, String methodName) {
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(methodName, "methodName");
    if (instance instanceof Class<?> clazz) {
      return create(clazz, methodName);
    }
    List<Method> found = methodsNamed(instance.getClass(), methodName);
    if (found.isEmpty()) {
      throw new IllegalArgumentException(
          "Class " + instance.getClass().getName() + " has no method named '" + methodName + "'");
    }
    return create(instance, single(instance.getClass(), methodName, found));
  }

  /**
   * A tool calling the static method named {@code methodName} of {@code clazz} (declared by it or a
   * superclass, whatever its visibility).
   *
   * @throws IllegalArgumentException if there is no such static method (naming an instance method
   *     of that name if there is one), several, or its parameters or return type cannot be
   *     described to the model
   * @throws NullPointerException if an argument is null
   */
  public static FunctionTool create(Class<?> clazz, String methodName) {
    Objects.requireNonNull(clazz, "clazz");
    Objects.requireNonNull(methodName, "methodName");
    List<Method> found = methodsNamed(clazz, methodName);
    List<Method> statics = found.stream().filter(m -> Modifier.isStatic(m.getModifiers())).toList();
    if (statics.isEmpty()) {
      if (!found.isEmpty()) {
        throw new IllegalArgumentException(
            "Method "
                + clazz.getName()
                + "."
                + methodName
                + " is an instance method: use FunctionTool.create(instance, \""
                + methodName
                + "\")");
      }
      throw new IllegalArgumentException(
          "Class " + clazz.getName() + " has no method named '" + methodName + "'");
    }
    return create(single(clazz, methodName, statics));
  }

  /**
   * A tool calling the static {@code method}.
   *
   * @throws IllegalArgumentException if the method is not static, or its parameters or return type
   *     cannot be described to the model
   */
  public static FunctionTool create(Method method) {
    return create(null, method);
  }

  /**
   * A tool calling {@code method} on {@code instance}; {@code instance} is ignored (and may be
   * null) if the method is static.
   *
   * @throws IllegalArgumentException if the method is an instance method and {@code instance} is
   *     null or not of its class, the method cannot be made accessible, or its parameters or return
   *     type cannot be described to the model
   */
  public static FunctionTool create(@Nullable Object instance, Method method) {
    Objects.requireNonNull(method, "method");
    String where = method.getDeclaringClass().getName() + "." + method.getName();
    boolean isStatic = Modifier.isStatic(method.getModifiers());
    if (!isStatic) {
      if (instance == null) {
        throw new IllegalArgumentException(
            "Method "
                + where
                + " is an instance method: pass the instance to FunctionTool.create(instance, ...)");
      }
      if (!method.getDeclaringClass().isInstance(instance)) {
        throw new IllegalArgumentException(
            "Method " + where + " cannot be called on a " + instance.getClass().getName());
      }
    }
    Class<?> returnType = method.getReturnType();
    if (org.reactivestreams.Publisher.class.isAssignableFrom(returnType)
        || io.reactivex.rxjava3.core.Observable.class.isAssignableFrom(returnType)) {
      throw new IllegalArgumentException(
          "Method "
              + where
              + " returns a stream ("
              + returnType.getSimpleName()
              + "); a tool returns one value: use Single, Maybe or a plain value");
    }
    if (!method.trySetAccessible()) {
      throw new IllegalArgumentException(
          "Method " + where + " is not accessible: make it public or open its package");
    }

    Annotations.Schema methodSchema = method.getAnnotation(Annotations.Schema.class);
    String name =
        methodSchema != null && !methodSchema.name().isEmpty()
            ? methodSchema.name()
            : method.getName();
    if (!TOOL_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "Tool name '"
              + name
              + "' of method "
              + where
              + " is not a valid function name: letters, digits, '_', '.', ':' and '-',"
              + " starting with a letter or '_', at most 64 characters");
    }
    String description = methodSchema != null ? methodSchema.description() : "";

    List<FunctionArguments.Param> params = new ArrayList<>();
    Map<String, Schema> properties = new LinkedHashMap<>();
    List<String> required = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Parameter p : method.getParameters()) {
      if (isContext(p.getType())) {
        params.add(FunctionArguments.Param.context(p.getName()));
        continue;
      }
      Annotations.Schema ps = p.getAnnotation(Annotations.Schema.class);
      String argName;
      if (ps != null && !ps.name().isEmpty()) {
        argName = ps.name();
      } else if (p.isNamePresent()) {
        argName = p.getName();
      } else {
        throw new IllegalArgumentException(
            "Parameter names of "
                + where
                + " are not available: compile with -parameters or name each parameter with"
                + " @Schema(name = ...)");
      }
      if (!names.add(argName)) {
        throw new IllegalArgumentException(
            "Method " + where + " has two arguments named '" + argName + "'");
      }
      boolean optional =
          (ps != null && ps.optional()) || FunctionSchemas.isOptionalType(p.getType());
      Schema schema =
          FunctionSchemas.of(p.getParameterizedType(), "argument '" + argName + "' of " + where);
      if (ps != null && !ps.description().isEmpty()) {
        schema = schema.toBuilder().description(ps.description()).build();
      }
      properties.put(argName, schema);
      if (!optional) {
        required.add(argName);
      }
      params.add(FunctionArguments.Param.argument(argName, p.getParameterizedType(), optional));
    }

    FunctionDeclaration.Builder d = FunctionDeclaration.builder().name(name);
    if (!description.isEmpty()) {
      d.description(description);
    }
    if (!properties.isEmpty()) {
      Schema.Builder parameters = Schema.builder().type(Type.Known.OBJECT).properties(properties);
      if (!required.isEmpty()) {
        parameters.required(required);
      }
      d.parameters(parameters.build());
    }
    return new FunctionTool(
        isStatic ? null : instance,
        method,
        name,
        description,
        new FunctionArguments(name, params),
        d.build());
  }

  /** The function declaration derived from the method; always present. */
  @Override
  public Optional<FunctionDeclaration> declaration() {
    return Optional.of(declaration);
  }

  /**
   * Calls the method with the model's {@code args} (null means none) and {@code context} injected.
   * Lazy: the method runs on subscription, on the subscribing thread.
   *
   * @return the function response (see the class comment); failures are error responses {@code
   *     {"error": message}}, never errors of the Single
   */
  @Override
  public Single<Map<String, Object>> runAsync(
      @Nullable Map<String, Object> args, @Nullable ToolContext context) {
    Map<String, Object> given = args == null ? Map.of() : args;
    return Single.defer(
            () -> {
              Object[] values;
              try {
                values = arguments.bind(given, context);
              } catch (FunctionArguments.InvalidArgumentException e) {
                return Single.just(ToolFailures.invalidArguments(e.getMessage()));
              }
              if (requireConfirmation) {
                Map<String, Object> refused = unconfirmed(context);
                if (refused != null) {
                  return Single.just(refused);
                }
              }
              Object result;
              try {
                result = method.invoke(instance, values);
              } catch (InvocationTargetException e) {
                return Single.error(e.getCause() != null ? e.getCause() : e);
              }
              // A long-running tool that returned nothing has no answer yet: none is stored.
              return FunctionResults.await(result)
                  .map(
                      r ->
                          r.isEmpty() && longRunning()
                              ? Map.<String, Object>of()
                              : FunctionResults.toResponse(r));
            })
        // The same rule as for a tool that throws to its agent: the failed call's state writes
        // are dropped, so only its error response is stored.
        .onErrorReturn(error -> ToolFailures.threw(name(), error, context));
  }

  /**
   * The answer in place of the method's while no person approved this call: a confirmation request
   * on a first run, a refusal after a rejection; null once approved.
   */
  private @Nullable Map<String, Object> unconfirmed(@Nullable ToolContext context) {
    ToolConfirmation answer = context == null ? null : context.toolConfirmation().orElse(null);
    if (answer == null) {
      if (context != null) {
        context.requestConfirmation(
            "Approve or reject this call of tool '"
                + name()
                + "' by answering with {\"confirmed\": true} or {\"confirmed\": false}.");
      }
      return Map.of(
          "error",
          "Tool '"
              + name()
              + "' waits for a person to approve or reject this call; it did not run");
    }
    if (!answer.confirmed()) {
      return Map.of(
          "error", "A person rejected this call of tool '" + name() + "'; it did not run");
    }
    return null;
  }

  // ---- reflection ----

  private static boolean isContext(Class<?> type) {
    return ReadonlyContext.class.isAssignableFrom(type) && type.isAssignableFrom(ToolContext.class);
  }

  /**
   * Methods named {@code name} of {@code clazz}: declared by it or a superclass (most derived
   * first), then public ones from interfaces; an overridden method counts once.
   */
  private static List<Method> methodsNamed(Class<?> clazz, String name) {
    Map<String, Method> bySignature = new LinkedHashMap<>();
    for (Class<?> c = clazz; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Method m : c.getDeclaredMethods()) {
        if (m.getName().equals(name) && !m.isBridge() && !m.isSynthetic()) {
          bySignature.putIfAbsent(signature(m), m);
        }
      }
    }
    for (Method m : clazz.getMethods()) {
      if (m.getName().equals(name) && !m.isBridge() && !m.isSynthetic()) {
        bySignature.putIfAbsent(signature(m), m);
      }
    }
    return new ArrayList<>(bySignature.values());
  }

  private static String signature(Method m) {
    return m.getName() + java.util.Arrays.toString(m.getParameterTypes());
  }

  private static Method single(Class<?> clazz, String name, List<Method> found) {
    if (found.size() > 1) {
      throw new IllegalArgumentException(
          "Class "
              + clazz.getName()
              + " has "
              + found.size()
              + " methods named '"
              + name
              + "' ("
              + found.stream().map(Method::toGenericString).collect(Collectors.joining("; "))
              + "): rename one, or pass the Method to FunctionTool.create");
    }
    return found.get(0);
  }
}
