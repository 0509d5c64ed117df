package dev.adk4j.models.anthropic;

import com.anthropic.errors.AnthropicInvalidDataException;
import com.anthropic.errors.AnthropicIoException;
import com.anthropic.errors.AnthropicServiceException;
import dev.adk4j.internal.RetryAfter;
import dev.adk4j.models.LlmException;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The Anthropic SDK's failures as {@link LlmException}s naming the model, with the HTTP status (529
 * when the API is overloaded), the API's own error message and its {@code Retry-After}.
 */
final class AnthropicErrors {
  private AnthropicErrors() {}

  static Throwable translate(Throwable e, String model) {
    if (e instanceof LlmException) {
      return e;
    }
    String prefix = "Anthropic model '" + model + "'";
    if (e instanceof AnthropicServiceException) {
      AnthropicServiceException s = (AnthropicServiceException) e;
      String message = s.apiMessage().orElse(String.valueOf(s.getMessage()));
      String type = s.errorType().map(Object::toString).orElse(null);
      return new LlmException(
          model,
          s.statusCode(),
          prefix
              + " answered HTTP "
              + s.statusCode()
              + (type == null ? "" : " " + type)
              + ": "
              + message,
          RetryAfter.parse(
              first(s.headers().values("retry-after-ms")),
              first(s.headers().values("retry-after")),
              Instant.now()),
          e);
    }
    if (e instanceof AnthropicInvalidDataException) {
      return new LlmException(
          model,
          0,
          prefix + " answered a malformed response that could not be read (" + firstLine(e) + ")",
          e);
    }
    if (e instanceof AnthropicIoException) {
      return new LlmException(model, 0, prefix + " could not be reached: " + firstLine(e), e);
    }
    return e;
  }

  private static @Nullable String first(List<String> values) {
    return values.isEmpty() ? null : values.get(0);
  }

  private static String firstLine(Throwable e) {
    StringBuilder b = new StringBuilder(String.valueOf(e.getMessage()));
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
      b.append("; ").append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
    }
    String s = b.toString();
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
