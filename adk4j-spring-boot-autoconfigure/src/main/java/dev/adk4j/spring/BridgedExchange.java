package dev.adk4j.spring;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the servlet ({@link ServletExchange}) and the WebFlux ({@link ReactiveExchange}) bridges to
 * the JDK server's {@link HttpExchange} share: the request URI as adk-server's routes expect it,
 * the headers both ways, the request body, the status once sent, attributes, and the prefix a
 * redirect to an absolute path gets. Not thread-safe, as the JDK's exchange.
 */
abstract class BridgedExchange extends HttpExchange {
  private final URI uri;
  private final String prefix;
  private final String servedBy;
  private final Headers requestHeaders = new Headers();
  private final Headers responseHeaders = new Headers();
  private final Map<String, Object> attributes = new HashMap<>();

  /** The request body (replaced by {@link #setStreams}). */
  protected InputStream in;

  /** The status sent with {@link #sendResponseHeaders}; -1 before. */
  protected int status = -1;

  /**
   * @param uri the request URI as adk-server's routes expect it (the prefix stripped)
   * @param prefix the context path and base path the API is served under
   * @param body the request body
   * @param servedBy who serves the request, for the error of {@link #getHttpContext}
   */
  BridgedExchange(URI uri, String prefix, InputStream body, String servedBy) {
    this.uri = uri;
    this.prefix = prefix;
    this.in = body;
    this.servedBy = servedBy;
  }

  /** A response header's value as sent: a redirect to an absolute path gets the prefix. */
  protected final String sentValue(String header, String value) {
    return header.equalsIgnoreCase("Location") && value.startsWith("/") ? prefix + value : value;
  }

  /** Replaces the response body stream ({@link #setStreams}). */
  protected abstract void setResponseBody(OutputStream out);

  @Override
  public final Headers getRequestHeaders() {
    return requestHeaders;
  }

  @Override
  public final Headers getResponseHeaders() {
    return responseHeaders;
  }

  @Override
  public final URI getRequestURI() {
    return uri;
  }

  @Override
  public final HttpContext getHttpContext() {
    throw new UnsupportedOperationException("no HttpContext: served by " + servedBy);
  }

  @Override
  public final InputStream getRequestBody() {
    return in;
  }

  @Override
  public final int getResponseCode() {
    return status;
  }

  @Override
  public final @Nullable Object getAttribute(String name) {
    return attributes.get(name);
  }

  @Override
  public final void setAttribute(String name, @Nullable Object value) {
    if (value == null) {
      attributes.remove(name);
    } else {
      attributes.put(name, value);
    }
  }

  @Override
  public final void setStreams(@Nullable InputStream i, @Nullable OutputStream o) {
    if (i != null) {
      in = i;
    }
    if (o != null) {
      setResponseBody(o);
    }
  }

  @Override
  public final @Nullable HttpPrincipal getPrincipal() {
    return null;
  }
}
