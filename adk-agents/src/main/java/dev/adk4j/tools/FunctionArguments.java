package dev.adk4j.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.adk4j.internal.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The parameters of a {@link FunctionTool}'s method, and how the model's JSON arguments become
 * their values: each argument is converted to its parameter's generic type with Jackson (adk4j's
 * JSON settings, except that a number with a fraction is never truncated into an integer), an
 * optional argument left out gets its empty value, and the call's {@link ToolContext} is passed to
 * the context parameter. A missing required argument or a value of the wrong type is an {@link
 * InvalidArgumentException} whose message names the tool, the argument and what was expected.
 * Immutable.
 */
final class FunctionArguments {

  /**
   * The shared mapper, except that a fractional number is refused for an integer type instead of
   * being truncated; integral floating-point arguments are turned into integers first (see {@link
   * #integral}), so {@code 3.0} still reads as {@code 3}.
   */
  private static final ObjectMapper MAPPER =
      Json.newMapper().disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);

  /** One parameter of the method: an argument the model gives, or the injected context. */
  record Param(String name, @Nullable JavaType javaType, boolean context, boolean optional) {

    /** The parameter that receives the call's {@link ToolContext}. */
    static Param context(String name) {
      return new Param(name, null, true, true);
    }

    /** The parameter for the argument {@code name}, of the generic type {@code type}. */
    static Param argument(String name, java.lang.reflect.Type type, boolean optional) {
      return new Param(name, MAPPER.constructType(type), false, optional);
    }
  }

  /** A call's arguments do not fit the method; the message is the function's error response. */
  static final class InvalidArgumentException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String reason;

    InvalidArgumentException(String message) {
      super(message);
      this.reason = message;
    }

    /** Never null: every one is thrown with a message. */
    @Override
    public String getMessage() {
      return reason;
    }
  }

  private final String tool;
  private final List<Param> params;

  /** The parameters of the method of the tool named {@code tool}, in declaration order. */
  FunctionArguments(String tool, List<Param> params) {
    this.tool = tool;
    this.params = List.copyOf(params);
  }

  /**
   * The values to invoke the method with, in parameter order, for the model's {@code args} (an
   * argument the model sent as null counts as left out) and the call's {@code context}.
   *
   * @throws InvalidArgumentException if a required argument is missing or a value cannot be
   *     converted to its parameter's type
   */
  Object[] bind(Map<String, Object> args, @Nullable ToolContext context)
      throws InvalidArgumentException {
    Object[] values = new Object[params.size()];
    for (int i = 0; i < values.length; i++) {
      Param p = params.get(i);
      if (p.context()) {
        values[i] = context;
        continue;
      }
      JavaType type =
          Objects.requireNonNull(p.javaType(), "every parameter but the ToolContext has a type");
      Object raw = args.get(p.name());
      if (raw == null) {
        if (!p.optional()) {
          throw new InvalidArgumentException(
              "Tool '"
                  + tool
                  + "' was called without its required argument '"
                  + p.name()
                  + "' ("
                  + describe(type)
                  + ")");
        }
        values[i] = absent(type.getRawClass());
        continue;
      }
      try {
        values[i] = MAPPER.convertValue(integral(raw), type);
      } catch (IllegalArgumentException e) {
        throw new InvalidArgumentException(
            "Tool '"
                + tool
                + "' got an invalid value for argument '"
                + p.name()
                + "': expected "
                + describe(type)
                + ", got "
                + abbreviate(Json.toJson(raw))
                + " ("
                + jacksonMessage(e)
                + ")");
      }
    }
    return values;
  }

  /** The value of an optional parameter the model left out. */
  private static @Nullable Object absent(Class<?> type) {
    if (type == Optional.class) {
      return Optional.empty();
    }
    if (type == OptionalInt.class) {
      return OptionalInt.empty();
    }
    if (type == OptionalLong.class) {
      return OptionalLong.empty();
    }
    if (type == OptionalDouble.class) {
      return OptionalDouble.empty();
    }
    if (type.isPrimitive()) {
      return java.lang.reflect.Array.get(java.lang.reflect.Array.newInstance(type, 1), 0);
    }
    return null;
  }

  /**
   * {@code value} with every floating-point number that has no fraction turned into an integer, so
   * that the strict {@link #MAPPER} reads {@code 3.0} into an {@code int} but refuses {@code 3.5}.
   * Models often send integers as floating-point numbers.
   */
  private static @Nullable Object integral(@Nullable Object value) {
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (d == Math.rint(d) && Math.abs(d) < 0x1p53) {
        return (long) d;
      }
      return value;
    }
    if (value instanceof BigDecimal b) {
      BigDecimal stripped = b.stripTrailingZeros();
      // Bounded, so that a number like 1e1000000 is not expanded into a million digits.
      boolean integral = stripped.scale() <= 0 && stripped.precision() - stripped.scale() <= 40;
      return integral ? stripped.toBigIntegerExact() : b;
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> copy = new LinkedHashMap<>();
      map.forEach((k, v) -> copy.put(k, integral(v)));
      return copy;
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      for (Object o : list) {
        copy.add(integral(o));
      }
      return copy;
    }
    return value;
  }

  /** The expected type as the error names it: the enum's values, or the (generic) type. */
  private static String describe(JavaType type) {
    Class<?> raw = type.getRawClass();
    if (raw.isEnum()) {
      return "one of "
          + java.util.Arrays.stream(raw.getEnumConstants())
              .map(c -> MAPPER.convertValue(c, String.class))
              .collect(Collectors.joining(", "));
    }
    return type.isContainerType() || type.hasGenericTypes()
        ? type.toCanonical()
        : raw.getSimpleName();
  }

  private static String jacksonMessage(IllegalArgumentException e) {
    Throwable cause = e.getCause();
    String message =
        cause instanceof JsonProcessingException jpe ? jpe.getOriginalMessage() : e.getMessage();
    return abbreviate(String.valueOf(message).lines().findFirst().orElse(""));
  }

  private static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "…";
  }
}
