package dev.adk4j.models;

import com.google.genai.errors.ApiException;
import com.google.genai.errors.GenAiIOException;

/**
 * Translates the google-genai client's failures into {@link Gemini}'s {@link LlmException}s, which
 * name the model and carry the HTTP status code when there was one, with the client's exception as
 * their cause.
 */
final class GeminiErrors {

  private GeminiErrors() {}

  /**
   * What {@code e}, a failure of a call to {@code modelName}, is signalled as: an {@link
   * LlmException} for an HTTP error, an unreachable API or an unreadable answer; {@code e} itself
   * otherwise.
   */
  static Throwable translate(Throwable e, String modelName) {
    if (e instanceof ApiException) {
      ApiException api = (ApiException) e;
      String status = api.status() == null || api.status().isEmpty() ? "" : " " + api.status();
      return new LlmException(
          modelName,
          api.code(),
          "Gemini model '"
              + modelName
              + "' answered HTTP "
              + api.code()
              + status
              + ": "
              + api.message(),
          e);
    }
    if (e instanceof GenAiIOException
        && e.getCause() instanceof com.fasterxml.jackson.core.JsonProcessingException) {
      return malformed(modelName, e);
    }
    if (e instanceof GenAiIOException) {
      return new LlmException(
          modelName,
          0,
          "Gemini model '"
              + modelName
              + "' could not be reached: "
              + e.getMessage()
              + (e.getCause() == null
                  ? ""
                  : " ("
                      + e.getCause().getClass().getSimpleName()
                      + ": "
                      + e.getCause().getMessage()
                      + ")"),
          e);
    }
    if (e instanceof ClassCastException
        || e instanceof IllegalStateException
        || e instanceof NullPointerException) {
      // How the client fails on JSON of another shape than a response (a string where it reads
      // a list, a missing object): the call failed, as for an HTTP error.
      return malformed(modelName, e);
    }
    return e;
  }

  private static LlmException malformed(String modelName, Throwable e) {
    Throwable detail = e.getCause() != null ? e.getCause() : e;
    String what =
        detail.getMessage() == null
            ? ""
            : ": " + detail.getMessage().lines().findFirst().orElse("");
    return new LlmException(
        modelName,
        0,
        "Gemini model '"
            + modelName
            + "' answered a malformed response that could not be read ("
            + detail.getClass().getSimpleName()
            + what
            + ")",
        e);
  }
}
