package dev.adk4j.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A local stand-in for the Gemini Developer API, for driving the real google-genai client (and
 * {@link dev.adk4j.models.Gemini}) in tests without a network.
 *
 * <p>Listens on {@code 127.0.0.1} on an ephemeral port and answers:
 *
 * <ul>
 *   <li>{@code POST /v1beta/models/{model}:generateContent} with the next scripted reply as one
 *       JSON {@code GenerateContentResponse};
 *   <li>{@code POST /v1beta/models/{model}:streamGenerateContent?alt=sse} with the next scripted
 *       reply as server-sent events, one {@code data: {json}} event per chunk.
 * </ul>
 *
 * Replies are consumed in order, whichever endpoint asks. A scripted HTTP error is answered with
 * its status and a Google API error body on either endpoint. A multi-chunk reply asked for by the
 * non-streaming endpoint, or a call with nothing left in the script, is answered with HTTP 500 and
 * a message saying so. Other paths get 404. Every request is recorded (method, path, model, query,
 * headers, JSON body), answered or not.
 *
 * <pre>{@code
 * try (FakeGeminiServer server = FakeGeminiServer.start()) {
 *   server.enqueueText("Hello");
 *   Gemini gemini = Gemini.builder().modelName("gemini-2.5-flash").apiKey("test-key")
 *       .baseUrl(server.baseUrl()).retryAttempts(1).build();
 *   ...
 *   assertThat(server.lastRequest().body().at("/contents/0/parts/0/text").asText()).isEqualTo("Hi");
 * }
 * }</pre>
 *
 * <p>Thread-safe: scripting, recording and serving may happen from any thread; requests are served
 * concurrently.
 */
public final class FakeGeminiServer implements AutoCloseable {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Pattern MODEL_PATH =
      Pattern.compile("^/v1beta/models/([^/:]+):(generateContent|streamGenerateContent)$");

  private final HttpServer server;
  private final ExecutorService executor;
  private final Object lock = new Object();
  private final Deque<Reply> replies = new ArrayDeque<>();
  private final List<RecordedRequest> requests = new ArrayList<>();

  private FakeGeminiServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Starts a server on {@code 127.0.0.1} and an ephemeral port.
   *
   * @throws UncheckedIOException if the port cannot be bound
   */
  public static FakeGeminiServer start() {
    HttpServer http;
    try {
      http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("FakeGeminiServer: cannot bind 127.0.0.1", e);
    }
    ExecutorService executor =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "fake-gemini-server");
              t.setDaemon(true);
              return t;
            });
    FakeGeminiServer fake = new FakeGeminiServer(http, executor);
    http.createContext("/", fake::handle);
    http.setExecutor(executor);
    http.start();
    return fake;
  }

  /** The server's base URL, {@code http://127.0.0.1:PORT}, without a trailing slash. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  // ---------------------------------------------------------------- scripting

  /**
   * Queues a reply whose chunks are the given {@code GenerateContentResponse} JSON objects: the
   * non-streaming endpoint answers a one-chunk reply with that object; the streaming endpoint
   * answers with one server-sent event per chunk.
   *
   * @throws IllegalArgumentException if {@code chunks} is empty
   */
  public FakeGeminiServer enqueue(List<? extends JsonNode> chunks) {
    if (chunks.isEmpty()) {
      throw new IllegalArgumentException("a reply needs at least one chunk");
    }
    return add(new Reply(200, List.copyOf(chunks)));
  }

  /** Queues a one-chunk reply; see {@link #enqueue(List)}. */
  public FakeGeminiServer enqueue(JsonNode response) {
    return enqueue(List.of(Objects.requireNonNull(response, "response")));
  }

  /** Queues a reply with the model's text; see {@link #textResponse(String)}. */
  public FakeGeminiServer enqueueText(String text) {
    return enqueue(textResponse(text));
  }

  /** Queues a reply with one function call; see {@link #functionCallResponse(String, Map)}. */
  public FakeGeminiServer enqueueFunctionCall(String name, Map<String, ?> args) {
    return enqueue(functionCallResponse(name, args));
  }

  /** Queues a streamed reply of text chunks; see {@link #textChunks(String...)}. */
  public FakeGeminiServer enqueueTextChunks(String... texts) {
    return enqueue(textChunks(texts));
  }

  /**
   * Queues an HTTP error: status {@code status} with the body {@code {"error": {"code", "message",
   * "status"}}} that the Google APIs send.
   *
   * @throws IllegalArgumentException if {@code status} is not an error status (400-599)
   */
  public FakeGeminiServer enqueueError(int status, String message) {
    if (status < 400 || status > 599) {
      throw new IllegalArgumentException("not an HTTP error status: " + status);
    }
    return add(new Reply(status, List.of(errorBody(status, message))));
  }

  private FakeGeminiServer add(Reply reply) {
    synchronized (lock) {
      replies.add(reply);
    }
    return this;
  }

  /** How many scripted replies have not been served yet. */
  public int pendingReplies() {
    synchronized (lock) {
      return replies.size();
    }
  }

  // ---------------------------------------------------------------- recording

  /** Every request received so far, in arrival order. A snapshot. */
  public List<RecordedRequest> requests() {
    synchronized (lock) {
      return List.copyOf(requests);
    }
  }

  /**
   * The request received last.
   *
   * @throws IllegalStateException if none was received
   */
  public RecordedRequest lastRequest() {
    synchronized (lock) {
      if (requests.isEmpty()) {
        throw new IllegalStateException("FakeGeminiServer has received no request");
      }
      return requests.get(requests.size() - 1);
    }
  }

  /**
   * A request received, as seen by the server.
   *
   * @param method the HTTP method, such as {@code POST}
   * @param path the request path, such as {@code /v1beta/models/gemini-2.5-flash:generateContent}
   * @param query the raw query string, such as {@code alt=sse}; null when there is none
   * @param model the model named in the path; null for a path that is not a model method
   * @param streaming whether the streaming method was called
   * @param headers request headers, names in lower case, the first value of each
   * @param body the JSON body; a {@code MissingNode} when the body was empty, a text node holding
   *     the raw text when it was not JSON
   */
  public record RecordedRequest(
      String method,
      String path,
      @Nullable String query,
      @Nullable String model,
      boolean streaming,
      Map<String, String> headers,
      JsonNode body) {

    /** The first value of header {@code name} (case-insensitive), or null. */
    public @Nullable String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  // ---------------------------------------------------------------- response builders

  /**
   * A {@code GenerateContentResponse} whose only candidate holds {@code parts} (as {@code Part}
   * JSON objects), with finish reason {@code STOP} and usage metadata.
   */
  public static ObjectNode response(JsonNode... parts) {
    ObjectNode response = NODES.objectNode();
    ObjectNode candidate = response.putArray("candidates").addObject();
    ObjectNode content = candidate.putObject("content");
    content.put("role", "model");
    ArrayNode partArray = content.putArray("parts");
    Arrays.stream(parts).forEach(partArray::add);
    candidate.put("finishReason", "STOP");
    candidate.put("index", 0);
    ObjectNode usage = response.putObject("usageMetadata");
    usage.put("promptTokenCount", 10);
    usage.put("candidatesTokenCount", 5);
    usage.put("totalTokenCount", 15);
    response.put("modelVersion", "fake-gemini");
    return response;
  }

  /** A response with one text part. */
  public static ObjectNode textResponse(String text) {
    return response(textPart(text));
  }

  /** A response with one function call part ({@code args} serialized with Jackson). */
  public static ObjectNode functionCallResponse(String name, Map<String, ?> args) {
    return response(functionCallPart(name, args));
  }

  /** A {@code Part} JSON object with {@code text}. */
  public static ObjectNode textPart(String text) {
    return NODES.objectNode().put("text", text);
  }

  /** A {@code Part} JSON object with thought text ({@code "thought": true}). */
  public static ObjectNode thoughtPart(String text) {
    return NODES.objectNode().put("text", text).put("thought", true);
  }

  /** A {@code Part} JSON object with a function call. */
  public static ObjectNode functionCallPart(String name, Map<String, ?> args) {
    ObjectNode part = NODES.objectNode();
    ObjectNode call = part.putObject("functionCall");
    call.put("name", name);
    call.set("args", MAPPER.valueToTree(args));
    return part;
  }

  /**
   * Streamed chunks, one per text: every chunk is a response with one text part; only the last has
   * a finish reason ({@code STOP}) and usage metadata, as the API does.
   *
   * @throws IllegalArgumentException if {@code texts} is empty
   */
  public static List<ObjectNode> textChunks(String... texts) {
    if (texts.length == 0) {
      throw new IllegalArgumentException("at least one chunk");
    }
    List<ObjectNode> chunks = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      ObjectNode chunk = textResponse(texts[i]);
      if (i < texts.length - 1) {
        asMidStreamChunk(chunk);
      }
      chunks.add(chunk);
    }
    return chunks;
  }

  /**
   * Removes the finish reason and usage metadata from {@code response}, making it a chunk that is
   * not the last of a stream. Returns the same object.
   */
  public static ObjectNode asMidStreamChunk(ObjectNode response) {
    response.remove("usageMetadata");
    JsonNode candidates = response.path("candidates");
    for (JsonNode candidate : candidates) {
      ((ObjectNode) candidate).remove("finishReason");
    }
    return response;
  }

  /** A response without candidates whose prompt was blocked for {@code reason} (e.g. SAFETY). */
  public static ObjectNode blockedPromptResponse(String reason) {
    ObjectNode response = NODES.objectNode();
    response.putObject("promptFeedback").put("blockReason", reason);
    response.putObject("usageMetadata").put("promptTokenCount", 10).put("totalTokenCount", 10);
    return response;
  }

  /** The Google API error body {@code {"error": {"code", "message", "status"}}}. */
  public static ObjectNode errorBody(int status, String message) {
    ObjectNode body = NODES.objectNode();
    body.putObject("error")
        .put("code", status)
        .put("message", message)
        .put("status", statusName(status));
    return body;
  }

  private static String statusName(int status) {
    switch (status) {
      case 400:
        return "INVALID_ARGUMENT";
      case 401:
        return "UNAUTHENTICATED";
      case 403:
        return "PERMISSION_DENIED";
      case 404:
        return "NOT_FOUND";
      case 429:
        return "RESOURCE_EXHAUSTED";
      case 503:
        return "UNAVAILABLE";
      case 504:
        return "DEADLINE_EXCEEDED";
      default:
        return status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
    }
  }

  // ---------------------------------------------------------------- serving

  /** Stops the server at once. Idempotent. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      Matcher m = MODEL_PATH.matcher(path);
      boolean modelMethod = m.matches();
      boolean streaming = modelMethod && m.group(2).equals("streamGenerateContent");
      RecordedRequest recorded =
          new RecordedRequest(
              exchange.getRequestMethod(),
              path,
              exchange.getRequestURI().getRawQuery(),
              modelMethod ? m.group(1) : null,
              streaming,
              headers(exchange),
              readBody(exchange.getRequestBody()));
      Reply reply;
      synchronized (lock) {
        requests.add(recorded);
        reply = modelMethod && recorded.method().equals("POST") ? replies.poll() : null;
      }
      if (!modelMethod || !recorded.method().equals("POST")) {
        sendJson(exchange, 404, errorBody(404, "FakeGeminiServer: no such method: " + path));
      } else if (reply == null) {
        sendJson(
            exchange,
            500,
            errorBody(500, "FakeGeminiServer: no scripted reply left for POST " + path));
      } else if (reply.status() != 200) {
        sendJson(exchange, reply.status(), reply.chunks().get(0));
      } else if (streaming) {
        sendEvents(exchange, reply.chunks());
      } else if (reply.chunks().size() == 1) {
        sendJson(exchange, 200, reply.chunks().get(0));
      } else {
        sendJson(
            exchange,
            500,
            errorBody(
                500,
                "FakeGeminiServer: a "
                    + reply.chunks().size()
                    + "-chunk streamed reply was scripted, but "
                    + path
                    + " is not streaming"));
      }
    }
  }

  private static Map<String, String> headers(HttpExchange exchange) {
    Map<String, String> headers = new LinkedHashMap<>();
    exchange
        .getRequestHeaders()
        .forEach(
            (name, values) -> {
              if (!values.isEmpty()) {
                headers.put(name.toLowerCase(Locale.ROOT), values.get(0));
              }
            });
    return Map.copyOf(headers);
  }

  private static JsonNode readBody(InputStream in) throws IOException {
    byte[] bytes = in.readAllBytes();
    if (bytes.length == 0) {
      return MAPPER.missingNode();
    }
    try {
      return MAPPER.readTree(bytes);
    } catch (IOException e) {
      return NODES.textNode(new String(bytes, StandardCharsets.UTF_8));
    }
  }

  private static void sendJson(HttpExchange exchange, int status, JsonNode body)
      throws IOException {
    byte[] bytes = MAPPER.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static void sendEvents(HttpExchange exchange, List<JsonNode> chunks) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream out = exchange.getResponseBody()) {
      for (JsonNode chunk : chunks) {
        out.write(
            ("data: " + MAPPER.writeValueAsString(chunk) + "\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
    }
  }

  /** A scripted reply: HTTP status and body chunks (one for JSON and errors, n for SSE). */
  private record Reply(int status, List<JsonNode> chunks) {}
}
