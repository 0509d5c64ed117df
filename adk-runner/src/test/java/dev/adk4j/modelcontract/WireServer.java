package dev.adk4j.modelcontract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A local HTTP server that answers every request with the next scripted {@link Reply}, whatever its
 * path, and records every request. Model adapters' tests point a real provider client at it; what
 * the replies say is written by the provider's test in that provider's wire format.
 *
 * <p>A reply is a status, headers and a body sent in pieces (each piece flushed on its own, so a
 * server-sent event stream arrives event by event), or no answer at all until the server closes. A
 * request with nothing scripted gets the {@linkplain #always sticky reply} if one was set, else
 * HTTP 500 with the body {@code nothing scripted}. Thread-safe.
 */
public final class WireServer implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What to answer one request with. */
  public static final class Reply {
    final int status;
    final Map<String, String> headers = new LinkedHashMap<>();
    final List<String> pieces;
    final boolean hang;

    private Reply(int status, String contentType, List<String> pieces, boolean hang) {
      this.status = status;
      this.pieces = List.copyOf(pieces);
      this.hang = hang;
      headers.put("Content-Type", contentType);
    }

    /** A JSON body (or any text sent as {@code application/json}). */
    public static Reply json(int status, String body) {
      return new Reply(status, "application/json", List.of(body), false);
    }

    /** A {@code text/event-stream} body whose events are sent one by one, as written. */
    public static Reply sse(List<String> events) {
      return new Reply(200, "text/event-stream", events, false);
    }

    /** No answer: the request waits until the server closes. */
    public static Reply silence() {
      return new Reply(0, "application/json", List.of(), true);
    }

    /** This reply with one more header. */
    public Reply header(String name, String value) {
      headers.put(name, value);
      return this;
    }
  }

  /** A request as received. */
  public record Request(
      String method, String path, Map<String, String> headers, String body, long receivedNanos) {

    /** The body parsed as JSON. */
    public JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException("request body is not JSON: " + body, e);
      }
    }

    /** A header's first value, by its lower-case name; null if absent. */
    public String header(String lowerCaseName) {
      return headers.get(lowerCaseName);
    }
  }

  private final HttpServer http;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final Deque<Reply> replies = new ArrayDeque<>();
  private final List<Request> requests = new ArrayList<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private Reply always;

  public WireServer() {
    try {
      http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    http.createContext("/", this::handle);
    http.setExecutor(executor);
    http.start();
  }

  /** {@code http://127.0.0.1:PORT}, no trailing slash. */
  public String baseUrl() {
    return "http://127.0.0.1:" + http.getAddress().getPort();
  }

  /** Queues replies, answered in order. */
  public WireServer enqueue(Reply... next) {
    synchronized (replies) {
      replies.addAll(List.of(next));
    }
    return this;
  }

  /** The reply of every request that finds the queue empty. */
  public WireServer always(Reply reply) {
    synchronized (replies) {
      always = reply;
    }
    return this;
  }

  /** The requests received so far, in order. */
  public List<Request> requests() {
    synchronized (replies) {
      return List.copyOf(requests);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    long now = System.nanoTime();
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    Map<String, String> headers = new LinkedHashMap<>();
    exchange
        .getRequestHeaders()
        .forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v.isEmpty() ? "" : v.get(0)));
    Reply reply;
    synchronized (replies) {
      requests.add(
          new Request(
              exchange.getRequestMethod(),
              exchange.getRequestURI().toString(),
              headers,
              body,
              now));
      reply = replies.poll();
      if (reply == null) {
        reply = always;
      }
    }
    if (reply == null) {
      reply = Reply.json(500, "nothing scripted");
    }
    if (reply.hang) {
      try {
        closed.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      exchange.close();
      return;
    }
    reply.headers.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
    boolean streamed =
        reply.pieces.size() > 1 || reply.headers.get("Content-Type").contains("event");
    try (OutputStream out = exchange.getResponseBody()) {
      if (streamed) {
        exchange.sendResponseHeaders(reply.status, 0);
        for (String piece : reply.pieces) {
          out.write(piece.getBytes(StandardCharsets.UTF_8));
          out.flush();
        }
      } else {
        byte[] bytes = String.join("", reply.pieces).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(reply.status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
          out.write(bytes);
        }
      }
    } catch (IOException e) {
      // the client went away (a cancelled call)
    }
  }

  @Override
  public void close() {
    closed.countDown();
    http.stop(0);
    executor.shutdownNow();
  }
}
