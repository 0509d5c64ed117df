package dev.adk4j.models.openai;

import com.openai.core.JsonValue;
import com.openai.errors.OpenAIInvalidDataException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIServiceException;
import com.openai.errors.SseException;
import dev.adk4j.internal.RetryAfter;
import dev.adk4j.models.LlmException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The OpenAI SDK's failures as {@link LlmException}s naming the model, with the HTTP status, the
 * API's own error message and its {@code Retry-After}, the SDK's exception as the cause.
 */
final class OpenAiErrors {
  private OpenAiErrors() {}

  static Throwable translate(Throwable e, String model) {
    if (e instanceof LlmException) {
      return e;
    }
    String prefix = "OpenAI-compatible model '" + model + "'";
    if (e instanceof OpenAIServiceException) {
      OpenAIServiceException s = (OpenAIServiceException) e;
      Duration retryAfter =
          RetryAfter.parse(
              first(s.headers().values("retry-after-ms")),
              first(s.headers().values("retry-after")),
              Instant.now());
      return new LlmException(
          model,
          s.statusCode(),
          prefix + " answered HTTP " + s.statusCode() + ": " + message(s.body(), e),
          retryAfter,
          e);
    }
    if (e instanceof SseException) {
      SseException s = (SseException) e;
      return new LlmException(
          model,
          s.statusCode(),
          prefix + " sent an error in its stream: " + message(s.body(), e),
          e);
    }
    if (e instanceof OpenAIInvalidDataException) {
      return new LlmException(
          model,
          0,
          prefix + " answered a malformed response that could not be read (" + rootMessage(e) + ")",
          e);
    }
    if (e instanceof OpenAIIoException) {
      return new LlmException(model, 0, prefix + " could not be reached: " + rootMessage(e), e);
    }
    return e;
  }

  private static @Nullable String first(List<String> values) {
    return values.isEmpty() ? null : values.get(0);
  }

  /** The API's {@code error.message} (or the body as text), else the exception's message. */
  private static String message(JsonValue body, Throwable e) {
    try {
      Object value = body.convert(Object.class);
      if (value instanceof Map<?, ?> map) {
        Object error = map.get("error");
        if (error instanceof Map<?, ?> em && em.get("message") != null) {
          return String.valueOf(em.get("message"));
        }
        if (error instanceof String s) {
          return s;
        }
        if (map.get("message") != null) {
          return String.valueOf(map.get("message"));
        }
      }
      if (value != null) {
        return String.valueOf(value);
      }
    } catch (RuntimeException ignored) {
      // fall through
    }
    return String.valueOf(e.getMessage());
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    StringBuilder b = new StringBuilder(String.valueOf(e.getMessage()));
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
      b.append("; ").append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
    }
    String s = b.toString();
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
