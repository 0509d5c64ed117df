package dev.adk4j.spring;

import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * A WebFlux exchange seen as the JDK server's {@link HttpExchange}, for adk-server's blocking
 * handler on a worker thread: the request body (read whole beforehand) in; the status and headers
 * out when {@link #sendResponseHeaders} is called ({@link #headersSent()}), then the body as
 * chunks, one per flush (each SSE event), which the response writes and flushes in order ({@link
 * #body()}). A redirect to an absolute path gets the prefix the API is served under. A write after
 * the client went away fails with an {@link IOException}, which ends the handler's work (a run
 * stops). Not thread-safe, as the JDK's exchange: one worker thread writes.
 */
final class ReactiveExchange extends BridgedExchange {
  private final ServerWebExchange exchange;
  private final Sinks.One<Void> headers = Sinks.one();
  private final Sinks.Many<DataBuffer> chunks = Sinks.many().unicast().onBackpressureBuffer();
  private final DataBufferFactory buffers;
  private OutputStream out;
  private boolean closed;

  ReactiveExchange(ServerWebExchange exchange, URI uri, String prefix, byte[] body) {
    super(uri, prefix, new ByteArrayInputStream(body), "WebFlux");
    this.exchange = exchange;
    this.buffers = exchange.getResponse().bufferFactory();
    this.out = new ChunkStream();
    exchange
        .getRequest()
        .getHeaders()
        .forEach((name, values) -> values.forEach(v -> getRequestHeaders().add(name, v)));
  }

  /** Completes when the status and headers are set on the response (or fails with the handler). */
  Mono<Void> headersSent() {
    return headers.asMono();
  }

  /** The body's chunks, each to be flushed as it comes. */
  Flux<DataBuffer> body() {
    return chunks.asFlux();
  }

  /** The handler failed: before the headers, the response fails; after, the body ends early. */
  void fail(Throwable t) {
    if (status < 0) {
      status = 500;
      headers.tryEmitError(t);
    } else {
      chunks.tryEmitError(t);
    }
  }

  @Override
  public String getRequestMethod() {
    return exchange.getRequest().getMethod().name();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      in.close();
      out.close();
    } catch (IOException e) {
      // the client went away; nothing to tell it
    }
    if (status < 0) {
      status = 200;
      headers.tryEmitEmpty();
    }
    chunks.tryEmitComplete();
  }

  @Override
  public OutputStream getResponseBody() {
    return out;
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
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(HttpStatusCode.valueOf(rCode));
    for (Map.Entry<String, List<String>> h : getResponseHeaders().entrySet()) {
      for (String v : h.getValue()) {
        response.getHeaders().add(h.getKey(), sentValue(h.getKey(), v));
      }
    }
    if (responseLength > 0) {
      response.getHeaders().setContentLength(responseLength);
    } else if (responseLength < 0) {
      response.getHeaders().setContentLength(0);
    }
    headers.tryEmitEmpty();
  }

  @Override
  public InetSocketAddress getRemoteAddress() {
    InetSocketAddress a = exchange.getRequest().getRemoteAddress();
    return a != null ? a : InetSocketAddress.createUnresolved("unknown", 0);
  }

  @Override
  public InetSocketAddress getLocalAddress() {
    ServerHttpRequest r = exchange.getRequest();
    InetSocketAddress a = r.getLocalAddress();
    return a != null ? a : InetSocketAddress.createUnresolved("unknown", 0);
  }

  @Override
  public String getProtocol() {
    return "HTTP/1.1";
  }

  /** Collects writes; each flush (and the close) hands what was written to the response. */
  private final class ChunkStream extends OutputStream {
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private boolean done;

    @Override
    public void write(int b) throws IOException {
      open();
      pending.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      open();
      pending.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      open();
      if (pending.size() == 0) {
        return;
      }
      byte[] bytes = pending.toByteArray();
      pending.reset();
      Sinks.EmitResult r = chunks.tryEmitNext(buffers.wrap(bytes));
      if (r.isFailure()) {
        done = true;
        throw new IOException("the client went away (" + r + ")");
      }
    }

    @Override
    public void close() throws IOException {
      if (!done) {
        flush();
        done = true;
      }
    }

    private void open() throws IOException {
      if (done) {
        throw new IOException("the response body is closed");
      }
    }
  }
}
