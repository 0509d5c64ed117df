package dev.adk4j.server;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A request that ends with an error status and a message for the client, sent as ADK's servers do:
 * {@code {"detail": "message"}}, or for a request that fails validation (422) {@code {"detail":
 * [{"type", "loc", "msg"}]}}, the list shape of ADK's (FastAPI's) validation errors.
 */
final class HttpError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  final int status;

  /** For a validation error: the kind of failure, in the words of ADK's validator. */
  final @Nullable String type;

  /** For a validation error: where, such as {@code ["body", "appName"]}. */
  final List<Object> loc;

  HttpError(int status, String message) {
    this(status, message, null, List.of());
  }

  private HttpError(int status, String message, @Nullable String type, List<Object> loc) {
    super(message, null, false, false);
    this.status = status;
    this.type = type;
    this.loc = loc;
  }

  static HttpError badRequest(String message) {
    return new HttpError(400, message);
  }

  static HttpError notFound(String message) {
    return new HttpError(404, message);
  }

  /**
   * A request that fails validation: 422 with one entry in ADK's {@code detail} list.
   *
   * @param type the failure's kind as ADK names it ({@code missing}, {@code json_invalid}, {@code
   *     string_type}, {@code model_attributes_type}, ...)
   * @param message a clear message naming the field and the kind of value it got, never the value
   * @param loc where: {@code "body"}, {@code "path"} or {@code "query"}, then field names and list
   *     indexes
   */
  static HttpError invalid(String type, String message, Object... loc) {
    return new HttpError(422, message, type, List.of(loc));
  }

  boolean isValidation() {
    return type != null;
  }
}
