package dev.adk4j.spring;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A servlet request and response seen as the JDK server's {@link HttpExchange}, so that
 * adk-server's handler serves Spring MVC requests unchanged: request headers and body in, status,
 * headers and body out. The JDK server's length convention holds ({@link #sendResponseHeaders}: a
 * positive length is the Content-Length, 0 streams, -1 sends no body); the body stream goes
 * straight to the servlet's, so a flush (each SSE event) reaches the client at once. A redirect to
 * an absolute path gets the prefix the API is served under. Not thread-safe, as the JDK's exchange.
 */
final class ServletExchange extends HttpExchange {
  private final HttpServletRequest request;
  private final HttpServletResponse response;
  private final URI uri;
  private final String prefix;
  private final Headers requestHeaders = new Headers();
  private final Headers responseHeaders = new Headers();
  private final Map<String, Object> attributes = new HashMap<>();
  private InputStream in;
  private @Nullable OutputStream out;
  private int status = -1;

  /**
   * @param uri the request URI as adk-server's routes expect it (the prefix stripped)
   * @param prefix the context path and base path the API is served under
   * @param body the request body (possibly already partly read and replayed)
   */
  ServletExchange(
      HttpServletRequest request,
      HttpServletResponse response,
      URI uri,
      String prefix,
      InputStream body) {
    this.request = request;
    this.response = response;
    this.uri = uri;
    this.prefix = prefix;
    this.in = body;
    for (Enumeration<String> names = request.getHeaderNames(); names.hasMoreElements(); ) {
      String name = names.nextElement();
      for (Enumeration<String> values = request.getHeaders(name); values.hasMoreElements(); ) {
        requestHeaders.add(name, values.nextElement());
      }
    }
  }

  @Override
  public Headers getRequestHeaders() {
    return requestHeaders;
  }

  @Override
  public Headers getResponseHeaders() {
    return responseHeaders;
  }

  @Override
  public URI getRequestURI() {
    return uri;
  }

  @Override
  public String getRequestMethod() {
    return request.getMethod();
  }

  @Override
  public HttpContext getHttpContext() {
    throw new UnsupportedOperationException("no HttpContext: served by the servlet container");
  }

  @Override
  public void close() {
    try {
      in.close();
      OutputStream o = out;
      if (o != null) {
        o.close();
      } else if (status < 0) {
        response.flushBuffer();
      }
    } catch (IOException e) {
      // the client went away; nothing to tell it
    }
  }

  @Override
  public InputStream getRequestBody() {
    return in;
  }

  @Override
  public OutputStream getResponseBody() {
    OutputStream o = out;
    if (o == null) {
      try {
        o = response.getOutputStream();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      out = o;
    }
    return o;
  }

  @Override
  public void sendResponseHeaders(int rCode, long responseLength) throws IOException {
    if (status >= 0) {
      throw new IOException("headers already sent");
    }
    status = rCode;
    response.setStatus(rCode);
    for (Map.Entry<String, List<String>> h : responseHeaders.entrySet()) {
      boolean first = true;
      for (String v : h.getValue()) {
        String value = v;
        if (h.getKey().equalsIgnoreCase("Location") && value.startsWith("/")) {
          value = prefix + value;
        }
        if (first) {
          response.setHeader(h.getKey(), value);
          first = false;
        } else {
          response.addHeader(h.getKey(), value);
        }
      }
    }
    if (responseLength > 0) {
      response.setContentLengthLong(responseLength);
    } else if (responseLength < 0) {
      response.setContentLength(0);
      response.flushBuffer();
    } else {
      response.flushBuffer(); // streaming: the status and headers go out now
    }
  }

  @Override
  public InetSocketAddress getRemoteAddress() {
    return InetSocketAddress.createUnresolved(request.getRemoteAddr(), request.getRemotePort());
  }

  @Override
  public int getResponseCode() {
    return status;
  }

  @Override
  public InetSocketAddress getLocalAddress() {
    return InetSocketAddress.createUnresolved(request.getLocalAddr(), request.getLocalPort());
  }

  @Override
  public String getProtocol() {
    return request.getProtocol();
  }

  @Override
  public @Nullable Object getAttribute(String name) {
    return attributes.get(name);
  }

  @Override
  public void setAttribute(String name, @Nullable Object value) {
    if (value == null) {
      attributes.remove(name);
    } else {
      attributes.put(name, value);
    }
  }

  @Override
  public void setStreams(@Nullable InputStream i, @Nullable OutputStream o) {
    if (i != null) {
      in = i;
    }
    if (o != null) {
      out = o;
    }
  }

  @Override
  public @Nullable HttpPrincipal getPrincipal() {
    return null;
  }
}
