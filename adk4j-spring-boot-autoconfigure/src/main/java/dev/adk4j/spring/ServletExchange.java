package dev.adk4j.spring;

import com.sun.net.httpserver.HttpExchange;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Enumeration;
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
final class ServletExchange extends BridgedExchange {
  private final HttpServletRequest request;
  private final HttpServletResponse response;
  private @Nullable OutputStream out;

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
    super(uri, prefix, body, "the servlet container");
    this.request = request;
    this.response = response;
    for (Enumeration<String> names = request.getHeaderNames(); names.hasMoreElements(); ) {
      String name = names.nextElement();
      for (Enumeration<String> values = request.getHeaders(name); values.hasMoreElements(); ) {
        getRequestHeaders().add(name, values.nextElement());
      }
    }
  }

  @Override
  public String getRequestMethod() {
    return request.getMethod();
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
  protected void setResponseBody(OutputStream o) {
    out = o;
  }

  @Override
  public void sendResponseHeaders(int rCode, long responseLength) throws IOException {
    if (status >= 0) {
      throw new IOException("headers already sent");
    }
    status = rCode;
    response.setStatus(rCode);
    for (Map.Entry<String, List<String>> h : getResponseHeaders().entrySet()) {
      boolean first = true;
      for (String v : h.getValue()) {
        String value = sentValue(h.getKey(), v);
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
  public InetSocketAddress getLocalAddress() {
    return InetSocketAddress.createUnresolved(request.getLocalAddr(), request.getLocalPort());
  }

  @Override
  public String getProtocol() {
    return request.getProtocol();
  }
}
