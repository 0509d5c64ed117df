package dev.adk4j.a2a;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * JSON-RPC 2.0 over HTTP to one A2A endpoint, on the JDK's {@link HttpClient} (HTTP/1.1): one POST
 * per request, answered as JSON, or for {@code message/stream} as server-sent events whose {@code
 * data} lines each hold one JSON-RPC response. Every failure becomes an {@link A2aException} that
 * names {@link #who} (the agent and URL); headers (credentials) go with every request and are never
 * logged or named.
 *
 * <p>Calls take a deadline; {@link Call#abort()} stops one from another thread (the local
 * invocation was disposed). Thread-safe.
 */
final class A2aClient {
  private static final int MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

  private final HttpClient http;
  private final Map<String, String> headers;
  private final String who;
  private final AtomicLong ids = new AtomicLong();

  A2aClient(HttpClient http, Map<String, String> headers, String who) {
    this.http = http;
    this.headers = Map.copyOf(headers);
    this.who = who;
  }

  static HttpClient newHttpClient(Duration connectTimeout) {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(connectTimeout)
        .followRedirects(HttpClient.Redirect.NORMAL)
        .build();
  }

  /** One request in flight; {@link #abort()} ends it from another thread. */
  static final class Call {
    private volatile @Nullable CompletableFuture<?> pending;
    private volatile @Nullable InputStream body;
    private volatile boolean aborted;
    private volatile @Nullable Thread reader;

    void abort() {
      aborted = true;
      CompletableFuture<?> f = pending;
      if (f != null) {
        f.cancel(true);
      }
      stopReading();
    }

    /** Closes the event stream and wakes the thread blocked reading it. */
    synchronized void stopReading() {
      closeQuietly(body);
      Thread t = reader;
      if (t != null) {
        t.interrupt();
      }
    }

    synchronized void readingOn(@Nullable Thread t) {
      reader = t;
    }

    boolean aborted() {
      return aborted;
    }
  }

  /** GETs a JSON document (the agent card). */
  JsonNode getJson(URI url, Duration timeout) {
    HttpRequest.Builder req = HttpRequest.newBuilder(url).timeout(timeout).GET();
    req.header("Accept", "application/json");
    headers.forEach(req::header);
    HttpResponse<byte[]> response = await(new Call(), req.build(), timeout, url);
    if (response.statusCode() != 200) {
      throw new A2aException(
          who + ": GET " + url + " answered HTTP " + response.statusCode() + ", not an agent card");
    }
    try {
      JsonNode card = A2aWire.JSON.readTree(response.body());
      if (card == null || !card.isObject()) {
        throw new A2aException(who + ": " + url + " did not answer a JSON object (an agent card)");
      }
      return card;
    } catch (IOException e) {
      throw new A2aException(who + ": " + url + " did not answer JSON (an agent card)", e);
    }
  }

  /**
   * Sends one JSON-RPC request and returns its {@code result}.
   *
   * @throws A2aException on a transport failure, an HTTP status other than 200, a body that is not
   *     a JSON-RPC response to this request, a JSON-RPC error, or no answer by {@code deadline}
   */
  JsonNode call(URI endpoint, String method, JsonNode params, long deadlineNanos, Call call) {
    long id = ids.incrementAndGet();
    HttpRequest request = post(endpoint, method, params, id, "application/json", deadlineNanos);
    HttpResponse<byte[]> response =
        await(call, request, remaining(deadlineNanos, method), endpoint);
    if (response.statusCode() != 200) {
      throw new A2aException(
          who + " answered " + method + " with HTTP " + response.statusCode() + httpHint(response));
    }
    JsonNode json;
    try {
      json = A2aWire.JSON.readTree(response.body());
    } catch (IOException e) {
      throw malformed(method, "a body that is not JSON", e);
    }
    return resultOf(json, method, id);
  }

  /**
   * Sends one streaming JSON-RPC request and hands each event's {@code result} to {@code onResult},
   * in order, until the stream ends, {@code onResult} returns false, the deadline passes ({@link
   * TimeoutException} wrapped in an {@link A2aException}) or the call is aborted.
   */
  void stream(
      URI endpoint,
      String method,
      JsonNode params,
      long deadlineNanos,
      Call call,
      java.util.function.Predicate<JsonNode> onResult) {
    long id = ids.incrementAndGet();
    HttpRequest request = post(endpoint, method, params, id, "text/event-stream", deadlineNanos);
    CompletableFuture<HttpResponse<InputStream>> f =
        http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
    call.pending = f;
    HttpResponse<InputStream> response;
    try {
      response = f.get(remainingNanos(deadlineNanos, method), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      throw timedOut(method, e);
    } catch (ExecutionException e) {
      throw unreachable(endpoint, e.getCause() == null ? e : e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new A2aException(who + ": interrupted during " + method, e);
    } catch (java.util.concurrent.CancellationException e) {
      throw new A2aException(who + ": " + method + " was abandoned", e);
    }
    InputStream body = response.body();
    call.body = body;
    if (call.aborted()) {
      closeQuietly(body);
      throw new A2aException(who + ": " + method + " was abandoned");
    }
    String type = response.headers().firstValue("Content-Type").orElse("");
    if (response.statusCode() != 200) {
      closeQuietly(body);
      throw new A2aException(
          who + " answered " + method + " with HTTP " + response.statusCode() + httpHint(response));
    }
    if (!type.startsWith("text/event-stream")) {
      // A server may answer a streaming request with one JSON-RPC response (an error, mostly).
      JsonNode json;
      try (InputStream in = body) {
        json = A2aWire.JSON.readTree(in.readNBytes(MAX_RESPONSE_BYTES));
      } catch (IOException e) {
        throw malformed(method, "a body that is neither an event stream nor JSON", e);
      }
      onResult.test(resultOf(json, method, id));
      return;
    }
    Disposable watchdog =
        Schedulers.computation()
            .scheduleDirect(
                call::stopReading,
                Math.max(0, deadlineNanos - System.nanoTime()),
                TimeUnit.NANOSECONDS);
    call.readingOn(Thread.currentThread());
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
      StringBuilder data = new StringBuilder();
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.isEmpty()) {
          if (data.length() > 0) {
            JsonNode json;
            try {
              json = A2aWire.JSON.readTree(data.toString());
            } catch (JsonProcessingException e) {
              throw malformed(method, "a stream event that is not JSON", e);
            }
            data.setLength(0);
            if (!onResult.test(resultOf(json, method, id))) {
              return;
            }
          }
        } else if (line.startsWith("data:")) {
          if (data.length() > 0) {
            data.append('\n');
          }
          data.append(line.substring(line.startsWith("data: ") ? 6 : 5));
          if (data.length() > MAX_RESPONSE_BYTES) {
            throw malformed(method, "a stream event over " + MAX_RESPONSE_BYTES + " bytes", null);
          }
        }
        // event:, id:, retry: and comments carry nothing A2A uses.
      }
      if (System.nanoTime() - deadlineNanos >= 0) {
        throw timedOut(method, null);
      }
    } catch (IOException e) {
      if (call.aborted()) {
        throw new A2aException(who + ": " + method + " was abandoned", e);
      }
      if (System.nanoTime() - deadlineNanos >= 0) {
        throw timedOut(method, e);
      }
      throw new A2aException(who + ": the event stream of " + method + " broke: " + e, e);
    } finally {
      watchdog.dispose();
      call.readingOn(null);
      // An interrupt meant for the read (abort, deadline) must not outlive it on a pooled thread.
      Thread.interrupted();
      closeQuietly(body);
    }
  }

  private HttpRequest post(
      URI endpoint, String method, JsonNode params, long id, String accept, long deadlineNanos) {
    ObjectNode body = A2aWire.NODES.objectNode();
    body.put("jsonrpc", "2.0");
    body.put("id", id);
    body.put("method", method);
    body.set("params", params);
    HttpRequest.Builder req =
        HttpRequest.newBuilder(endpoint)
            .timeout(remaining(deadlineNanos, method))
            .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
    req.header("Content-Type", "application/json");
    req.header("Accept", accept);
    headers.forEach(req::header);
    return req.build();
  }

  private HttpResponse<byte[]> await(Call call, HttpRequest request, Duration timeout, URI url) {
    CompletableFuture<HttpResponse<byte[]>> f =
        http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
    call.pending = f;
    try {
      return f.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      throw new A2aException(who + ": " + url + " did not answer within " + timeout, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof java.net.http.HttpTimeoutException) {
        throw new A2aException(who + ": " + url + " did not answer within " + timeout, cause);
      }
      throw unreachable(url, cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new A2aException(who + ": interrupted waiting for " + url, e);
    } catch (java.util.concurrent.CancellationException e) {
      throw new A2aException(who + ": the request to " + url + " was abandoned", e);
    }
  }

  private JsonNode resultOf(@Nullable JsonNode json, String method, long id) {
    if (json == null || !json.isObject()) {
      throw malformed(method, "a body that is not a JSON-RPC response object", null);
    }
    if (!"2.0".equals(json.path("jsonrpc").asText(null))) {
      throw malformed(method, "a response without \"jsonrpc\": \"2.0\"", null);
    }
    JsonNode error = json.get("error");
    if (error != null && !error.isNull()) {
      throw new A2aException(
          who
              + " answered "
              + method
              + " with JSON-RPC error "
              + error.path("code").asText("?")
              + ": "
              + error.path("message").asText(""));
    }
    JsonNode result = json.get("result");
    if (result == null || result.isNull()) {
      throw malformed(method, "a response with neither result nor error", null);
    }
    JsonNode answeredId = json.path("id");
    if (!answeredId.isNull() && !answeredId.isMissingNode() && answeredId.asLong(-1) != id) {
      throw malformed(method, "a response to another request (id " + answeredId + ")", null);
    }
    return result;
  }

  A2aException malformed(String method, String what, @Nullable Throwable cause) {
    return new A2aException(
        who + " answered " + method + " with a malformed A2A message: " + what, cause);
  }

  private A2aException timedOut(String method, @Nullable Throwable cause) {
    return new A2aException(who + ": " + method + " did not finish in time", cause);
  }

  private A2aException unreachable(URI url, Throwable cause) {
    String why =
        cause instanceof ConnectException
            ? "nothing answers there (connection refused)"
            : cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    return new A2aException(who + ": cannot reach " + url + ": " + why, cause);
  }

  private static String httpHint(HttpResponse<?> response) {
    return response.statusCode() == 401 || response.statusCode() == 403
        ? " (give the agent's credentials with RemoteA2aAgent.Builder.header)"
        : "";
  }

  private Duration remaining(long deadlineNanos, String method) {
    return Duration.ofNanos(remainingNanos(deadlineNanos, method));
  }

  private long remainingNanos(long deadlineNanos, String method) {
    long left = deadlineNanos - System.nanoTime();
    if (left <= 0) {
      throw timedOut(method, null);
    }
    return left;
  }

  private static void closeQuietly(@Nullable InputStream in) {
    if (in != null) {
      try {
        in.close();
      } catch (IOException ignored) {
        // Closing is how a stream is abandoned; a failure to close changes nothing.
      }
    }
  }
}
