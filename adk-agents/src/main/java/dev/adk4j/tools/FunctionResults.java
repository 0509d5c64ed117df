package dev.adk4j.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.adk4j.internal.Json;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link FunctionTool}'s method returns becomes its function response: asynchronous results
 * awaited, then the value's JSON round trip, as an object or wrapped as {@code {"result": value}}.
 */
final class FunctionResults {
  private FunctionResults() {}

  /**
   * The value {@code result} stands for: awaited if it is a Single, Maybe, Completable or
   * CompletionStage.
   */
  static Single<Optional<Object>> await(@Nullable Object result) {
    if (result instanceof Single<?> single) {
      return single.map(Optional::<Object>of);
    }
    if (result instanceof Maybe<?> maybe) {
      return maybe.map(Optional::<Object>of).defaultIfEmpty(Optional.empty());
    }
    if (result instanceof Completable completable) {
      return completable.toSingleDefault(Optional.empty());
    }
    if (result instanceof CompletionStage<?> stage) {
      return Single.fromCompletionStage(stage.thenApply(Optional::<Object>ofNullable));
    }
    return Single.just(Optional.ofNullable(result));
  }

  /**
   * The function response for the method's result: its JSON round trip (the same values a stored
   * event gives back), as an object or wrapped as {@code {"result": value}}.
   */
  static Map<String, Object> toResponse(Optional<Object> result) {
    if (result.isEmpty()) {
      // As ADK for Java: null, void, an empty Maybe or Optional, a Completable answer {}.
      return new LinkedHashMap<>();
    }
    Object value = result.get();
    if (value instanceof Optional<?> optional) {
      if (optional.isEmpty()) {
        return new LinkedHashMap<>();
      }
      value = optional.get();
    }
    Object json = plain(value, 0);
    if (json == NOT_PLAIN) {
      json = roundTrip(value);
    }
    if (json == null) {
      // A value whose JSON is null (a Jackson NullNode): {} as for null itself, as in ADK.
      return new LinkedHashMap<>();
    }
    if (json instanceof Map<?, ?> map) {
      Map<String, Object> response = new LinkedHashMap<>();
      map.forEach((k, v) -> response.put((String) k, v));
      return response;
    }
    Map<String, Object> wrapped = new HashMap<>(2);
    wrapped.put("result", json);
    return wrapped;
  }

  /** The result of {@link #plain} for a value that needs Jackson's round trip. */
  private static final Object NOT_PLAIN = new Object();

  /**
   * The JSON round trip of a value made only of string-keyed maps, lists, strings, booleans, ints,
   * longs and finite doubles, copied without writing JSON (what most tools return, on every tool
   * call); {@link #NOT_PLAIN} for anything else, which {@link #roundTrip} handles.
   */
  @SuppressWarnings("unchecked")
  private static @Nullable Object plain(@Nullable Object value, int depth) {
    if (value == null || value instanceof String || value instanceof Boolean) {
      return value;
    }
    if (value instanceof Integer) {
      return value;
    }
    if (value instanceof Long l) {
      // Not a conditional expression: that would unbox both branches to long.
      if (l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
        return Integer.valueOf(l.intValue());
      }
      return l;
    }
    if (value instanceof Double d) {
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        return NOT_PLAIN;
      }
      return d;
    }
    if (depth > 100) {
      return NOT_PLAIN;
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, @Nullable Object> copy = new LinkedHashMap<>(Math.max(4, map.size() * 2));
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String key)) {
          return NOT_PLAIN;
        }
        Object v = plain(e.getValue(), depth + 1);
        if (v == NOT_PLAIN) {
          return NOT_PLAIN;
        }
        copy.put(key, v);
      }
      return copy;
    }
    if (value instanceof List<?> list) {
      List<@Nullable Object> copy = new ArrayList<>(list.size());
      for (Object o : list) {
        Object v = plain(o, depth + 1);
        if (v == NOT_PLAIN) {
          return NOT_PLAIN;
        }
        copy.add(v);
      }
      return copy;
    }
    return NOT_PLAIN;
  }

  /** The JSON round trip of {@code value} through Jackson. */
  private static @Nullable Object roundTrip(@Nullable Object value) {
    try {
      return Json.reader().forType(Object.class).readValue(Json.writer().writeValueAsBytes(value));
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(
          "returned a "
              + (value == null ? "null" : value.getClass().getName())
              + " that cannot be converted to JSON ("
              + (e instanceof JsonProcessingException jpe ? jpe.getOriginalMessage() : e)
              + ")",
          e);
    }
  }
}
