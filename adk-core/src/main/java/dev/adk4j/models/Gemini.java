package dev.adk4j.models;

import com.google.genai.Client;
import com.google.genai.ResponseStream;
import com.google.genai.types.HttpOptions;
import com.google.genai.types.HttpRetryOptions;
import dev.adk4j.internal.JulToSlf4j;
import io.reactivex.rxjava3.core.BackpressureStrategy;
import io.reactivex.rxjava3.core.Flowable;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A Gemini model served by the Gemini Developer API, called through the google-genai {@link
 * Client}.
 *
 * <pre>{@code
 * Gemini gemini = Gemini.builder().modelName("gemini-2.5-flash").apiKey(key).build();
 * Gemini fromEnv = Gemini.create("gemini-2.5-flash"); // GOOGLE_API_KEY or GEMINI_API_KEY
 * }</pre>
 *
 * <p><b>Requests.</b> The request's contents are sent as they are (genai types, so function calls
 * and function responses round-trip unchanged) with {@link LlmRequest#config()}, which carries the
 * system instruction and the function declarations as tools. The model called is {@link
 * LlmRequest#model()} when present, otherwise {@link #model()}.
 *
 * <p><b>Responses.</b> Without streaming, one {@link LlmResponse} whose content is the first
 * candidate's content, as received. With streaming, one {@link LlmResponse#partial() partial}
 * response per received chunk that holds text, carrying that chunk's text parts, then one final
 * response (not partial) whose content aggregates the whole answer: consecutive text parts merged
 * into one part (thought text separately from answer text, the merged part keeping {@code
 * thought=true}), function calls and other parts in the order received. Both carry the usage
 * metadata last reported by the API.
 *
 * <p><b>Errors.</b> A model that answers without content (a blocked prompt, a safety or other
 * abnormal stop with no content) yields an {@link LlmResponse} with {@link LlmResponse#errorCode()}
 * (the block or finish reason, such as {@code SAFETY}, or {@code UNKNOWN_ERROR}) and {@link
 * LlmResponse#errorMessage()}. An HTTP error from the API, a failure to reach it (or {@link
 * Builder#timeout} passing), or an answer the client cannot read (a body that is not JSON, or JSON
 * of another shape) is signalled as the Flowable's error: an {@link LlmException} naming the model
 * and carrying the HTTP status code when there was one, with the google-genai exception as its
 * cause. Other exceptions pass through unchanged.
 *
 * <p><b>Threading.</b> Thread-safe. {@link #generateContent} is lazy: nothing is sent until
 * subscription, and each subscription sends its own request. The HTTP call blocks the subscribing
 * thread (and, when streaming, the thread requesting items); use {@code subscribeOn} to move it. A
 * streamed response is closed when the Flowable terminates or is cancelled.
 */
public final class Gemini extends BaseLlm implements AutoCloseable {

  /** Environment variable read for the API key first. */
  public static final String GOOGLE_API_KEY = "GOOGLE_API_KEY";

  /** Environment variable read for the API key when {@value #GOOGLE_API_KEY} is not set. */
  public static final String GEMINI_API_KEY = "GEMINI_API_KEY";

  /** Environment variable read for the base URL when none is given to the builder. */
  public static final String GOOGLE_GEMINI_BASE_URL = "GOOGLE_GEMINI_BASE_URL";

  private final Client client;
  private final boolean ownsClient;

  private Gemini(String model, Client client, boolean ownsClient) {
    super(model);
    this.client = client;
    this.ownsClient = ownsClient;
  }

  static {
    // The client logs through java.util.logging (its warnings would go to stderr).
    JulToSlf4j.route("com.google.genai");
  }

  /**
   * A Gemini model configured from the environment: the API key from {@value #GOOGLE_API_KEY} or
   * else {@value #GEMINI_API_KEY}, the base URL from {@value #GOOGLE_GEMINI_BASE_URL} if set.
   *
   * @throws NullPointerException if {@code modelName} is null
   * @throws IllegalArgumentException if {@code modelName} is blank
   * @throws IllegalStateException if neither API key variable is set
   */
  public static Gemini create(String modelName) {
    return builder().modelName(modelName).build();
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Generates content; see the class documentation for the responses, errors and threading.
   *
   * @throws NullPointerException if {@code request} is null (at call time, not at subscription)
   */
  @Override
  public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
    Objects.requireNonNull(request, "request");
    String modelName = request.model().filter(m -> !m.isBlank()).orElse(model());
    Flowable<LlmResponse> responses =
        stream
            ? generateStream(request, modelName)
            : Flowable.create(
                emitter -> {
                  LlmResponse response;
                  try {
                    response =
                        GeminiResponses.toLlmResponse(
                            client.models.generateContent(
                                modelName, request.contents(), request.config()));
                  } catch (RuntimeException e) {
                    // A call abandoned meanwhile (cancelled, timed out) fails into the void:
                    // tryOnError drops its error instead of sending it to RxJava's global
                    // handler, which would print it as undeliverable.
                    emitter.tryOnError(e);
                    return;
                  }
                  emitter.onNext(response);
                  emitter.onComplete();
                },
                BackpressureStrategy.BUFFER);
    return responses.onErrorResumeNext(e -> Flowable.error(GeminiErrors.translate(e, modelName)));
  }

  /**
   * Opens a session of the Gemini Live API for {@code request}'s model (else {@link #model()}),
   * with its system instruction, tools and generation settings (response modalities and speech
   * config included) as the session's setup; its contents are not sent. Blocks until the server
   * confirms the setup (at most a minute). See {@link BaseLlmConnection} for what the connection
   * emits; a websocket the server closes, or that fails, fails its {@link
   * BaseLlmConnection#receive()} with an {@link LlmException} carrying the close code and reason.
   *
   * @throws LlmException if the connection or its setup fails, or the setup is not confirmed in
   *     time
   */
  @Override
  public BaseLlmConnection connect(LlmRequest request) {
    Objects.requireNonNull(request, "request");
    String modelName = request.model().filter(m -> !m.isBlank()).orElse(model());
    return GeminiLlmConnection.open(client, modelName, GeminiLlmConnection.liveConfig(request));
  }

  private Flowable<LlmResponse> generateStream(LlmRequest request, String modelName) {
    return Flowable.using(
        () -> client.models.generateContentStream(modelName, request.contents(), request.config()),
        responseStream -> {
          StreamAggregator aggregator = new StreamAggregator();
          return Flowable.fromIterable(responseStream)
              .concatMapIterable(aggregator::add)
              .concatWith(Flowable.defer(() -> Flowable.just(aggregator.finish())));
        },
        ResponseStream::close);
  }

  /**
   * Closes the {@link Client} this model created. A client passed to {@link Builder#client(Client)}
   * belongs to the caller and is left open. Idempotent.
   */
  @Override
  public void close() {
    if (ownsClient) {
      client.close();
    }
  }

  @Override
  public String toString() {
    return "Gemini{model=" + model() + "}";
  }

  /**
   * Builds a {@link Gemini}. Give either an API key (and optionally a base URL and retry attempts),
   * or a ready {@link Client}; with neither, the API key is read from the environment. Not
   * thread-safe.
   */
  public static final class Builder {
    private @Nullable String modelName;
    private @Nullable String apiKey;
    private @Nullable String baseUrl;
    private @Nullable Integer retryAttempts;
    private java.time.@Nullable Duration timeout;
    private @Nullable Client client;
    private Function<String, @Nullable String> environment = System::getenv;

    private Builder() {}

    /** The model name, such as {@code gemini-2.5-flash}. Required. */
    public Builder modelName(String modelName) {
      Objects.requireNonNull(modelName, "modelName");
      if (modelName.isBlank()) {
        throw new IllegalArgumentException("modelName is blank");
      }
      this.modelName = modelName;
      return this;
    }

    /**
     * The Gemini API key. Default: the environment variable {@value #GOOGLE_API_KEY}, else {@value
     * #GEMINI_API_KEY}. A blank key counts as not given (the environment is read).
     */
    public Builder apiKey(String apiKey) {
      this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
      return this;
    }

    /**
     * The API's base URL, such as {@code http://127.0.0.1:8080} for a local proxy or fake (the
     * client appends {@code /v1beta/models/...}). Default: the environment variable {@value
     * #GOOGLE_GEMINI_BASE_URL}, else the client's default endpoint.
     */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
      return this;
    }

    /**
     * How many times in total the client attempts a request that fails with a retryable status
     * (408, 429, 5xx) or an I/O error, with exponential backoff between attempts; 1 means no retry.
     * Default: the google-genai client's default.
     *
     * @throws IllegalArgumentException if {@code attempts < 1}
     */
    public Builder retryAttempts(int attempts) {
      if (attempts < 1) {
        throw new IllegalArgumentException("retryAttempts must be >= 1, was " + attempts);
      }
      this.retryAttempts = attempts;
      return this;
    }

    /**
     * The longest an HTTP request to the API may take, whole (a streamed answer included); past it
     * the request is cancelled and the call fails with an {@link LlmException}. Default: no limit
     * (the google-genai client's). {@code RunConfig.llmCallTimeout} bounds how long an invocation
     * waits for a model whatever its client; this setting also frees the thread that waits on the
     * connection.
     *
     * @throws IllegalArgumentException if {@code timeout} is not positive or over {@code
     *     Integer.MAX_VALUE} milliseconds
     */
    public Builder timeout(java.time.Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "timeout must be between 1 ms and " + Integer.MAX_VALUE + " ms, was " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /**
     * A ready client (for Vertex AI, custom credentials or HTTP settings). It stays the caller's:
     * {@link Gemini#close()} does not close it. Cannot be combined with {@link #apiKey}, {@link
     * #baseUrl}, {@link #retryAttempts} or {@link #timeout}.
     */
    public Builder client(Client client) {
      this.client = Objects.requireNonNull(client, "client");
      return this;
    }

    /**
     * Where environment variables are read; default {@link System#getenv(String)}. Tests pass a map
     * lookup, such as {@code Map.of()::get}, to be independent of the real environment.
     */
    public Builder environment(Function<String, @Nullable String> environment) {
      this.environment = Objects.requireNonNull(environment, "environment");
      return this;
    }

    /**
     * Builds the model, creating its {@link Client} unless one was given.
     *
     * @throws IllegalStateException if no model name was set; if a client was combined with an API
     *     key, base URL, retry attempts or timeout; or if no API key was given and neither {@value
     *     #GOOGLE_API_KEY} nor {@value #GEMINI_API_KEY} is set
     */
    public Gemini build() {
      if (modelName == null) {
        throw new IllegalStateException("Gemini.builder(): modelName is required");
      }
      if (client != null) {
        if (apiKey != null || baseUrl != null || retryAttempts != null || timeout != null) {
          throw new IllegalStateException(
              "Gemini '"
                  + modelName
                  + "': client(...) cannot be combined with apiKey, baseUrl, retryAttempts or"
                  + " timeout; configure them on the Client");
        }
        return new Gemini(modelName, client, false);
      }
      String key = firstNonBlank(apiKey, env(GOOGLE_API_KEY), env(GEMINI_API_KEY));
      if (key == null) {
        throw new IllegalStateException(
            "No API key for Gemini model '"
                + modelName
                + "': call apiKey(...) or set the environment variable "
                + GOOGLE_API_KEY
                + " or "
                + GEMINI_API_KEY);
      }
      String url = firstNonBlank(baseUrl, env(GOOGLE_GEMINI_BASE_URL));
      Client.Builder clientBuilder = Client.builder().apiKey(key).vertexAI(false);
      if (url != null || retryAttempts != null || timeout != null) {
        HttpOptions.Builder http = HttpOptions.builder();
        if (url != null) {
          http.baseUrl(url);
        }
        if (timeout != null) {
          http.timeout((int) timeout.toMillis());
        }
        if (retryAttempts != null) {
          HttpRetryOptions.Builder retry = HttpRetryOptions.builder().attempts(retryAttempts);
          if (retryAttempts == 1) {
            // google-genai 1.70 sleeps a backoff delay even after its last attempt when the
            // status is retryable; with no retryable status a single attempt returns at once.
            retry.httpStatusCodes(List.of());
          }
          http.retryOptions(retry.build());
        }
        clientBuilder.httpOptions(http.build());
      }
      return new Gemini(modelName, clientBuilder.build(), true);
    }

    private @Nullable String env(String name) {
      return environment.apply(name);
    }

    private static @Nullable String firstNonBlank(@Nullable String... values) {
      for (String value : values) {
        if (value != null && !value.isBlank()) {
          return value;
        }
      }
      return null;
    }
  }
}
