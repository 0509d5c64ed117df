package dev.adk4j.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.adk4j.internal.Json;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
    Object value = result.orElse(null);
    Object json;
    try {
      json = Json.reader().forType(Object.class).readValue(Json.writer().writeValueAsBytes(value));
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(
          "returned a "
              + (value == null ? "null" : value.getClass().getName())
              + " that cannot be converted to JSON ("
              + (e instanceof JsonProcessingException jpe ? jpe.getOriginalMessage() : e)
              + ")",
          e);
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
}
