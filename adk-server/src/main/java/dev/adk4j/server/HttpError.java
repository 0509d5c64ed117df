package dev.adk4j.server;

/** A request that ends with an error status and a message for the client. */
final class HttpError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  final int status;

  HttpError(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  static HttpError badRequest(String message) {
    return new HttpError(400, message);
  }

  static HttpError notFound(String message) {
    return new HttpError(404, message);
  }
}
