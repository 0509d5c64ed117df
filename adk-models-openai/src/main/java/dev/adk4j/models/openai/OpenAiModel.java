package dev.adk4j.models.openai;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.models.RetryPolicy;
import io.reactivex.rxjava3.core.BackpressureStrategy;
import io.reactivex.rxjava3.core.Flowable;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A model served over the OpenAI Chat Completions API, called through the official OpenAI Java SDK:
 * OpenAI itself, Azure OpenAI, and any server speaking the same API (vLLM, Ollama, LM Studio,
 * llama.cpp server), chosen by base URL and key.
 *
 * <pre>{@code
 * OpenAiModel gpt = OpenAiModel.builder().modelName("gpt-4o-mini").apiKey(key).build();
 * OpenAiModel local = OpenAiModel.builder().modelName("llama3.2")
 *     .baseUrl("http://localhost:11434/v1").build();          // Ollama, no key
 * OpenAiModel fromEnv = OpenAiModel.create("gpt-4o-mini");       // OPENAI_API_KEY, OPENAI_BASE_URL
 * }</pre>
 *
 * <p><b>Requests.</b> The system instruction is a system message; user contents are user messages
 * (text) and one tool message per function response (its call id as {@code tool_call_id}, the
 * response as JSON); model contents are assistant messages with their text and tool calls (ids
 * kept); function declarations are function tools (their schema as standard JSON Schema); a
 * response schema is a {@code json_schema} response format (not strict), a JSON MIME type without
 * schema {@code json_object}; temperature, top-p, max output tokens (as {@code
 * max_completion_tokens}), seed, penalties and stop sequences are sent. Other parts (images, audio,
 * files, code execution) fail the call with an {@link IllegalArgumentException} naming the part;
 * thoughts are not sent back. See {@code docs/models.md}.
 *
 * <p><b>Responses.</b> The first choice: its text and its tool calls (several in one response, with
 * their ids) as one content with role {@code model}; a refusal or an abnormal finish ({@code
 * length}, {@code content_filter}) without content as an error response ({@code REFUSAL}, {@code
 * MAX_TOKENS}, {@code SAFETY}); the usage as usage metadata (prompt, completion, total, reasoning
 * and cached tokens). Streaming emits each text delta as a partial response and then one final
 * response with the whole text, the tool calls assembled from their deltas, and the usage ({@code
 * stream_options.include_usage} is asked for).
 *
 * <p><b>Errors.</b> An HTTP error is an {@link LlmException} with the status, the API's error
 * message and its {@code Retry-After}; an unreadable answer and an unreachable server too (status
 * 0). Rate limits and overload (429, 503, 529) are retried by the model's {@link RetryPolicy}
 * (default {@link RetryPolicy#defaults()}), which waits what {@code Retry-After} says; the SDK's
 * own retries are off. {@code RunConfig.llmCallTimeout} bounds the whole call, retries included.
 *
 * <p><b>Threading.</b> Thread-safe. {@link #generateContent} is lazy; the HTTP call blocks the
 * subscribing thread (the agents subscribe on their model-call pool). A stream is closed when the
 * Flowable ends or is cancelled.
 */
public final class OpenAiModel extends BaseLlm implements AutoCloseable {

  /** Environment variable read for the API key. */
  public static final String OPENAI_API_KEY = "OPENAI_API_KEY";

  /** Environment variable read for the base URL. */
  public static final String OPENAI_BASE_URL = "OPENAI_BASE_URL";

  /** The key sent to a server that needs none (a local one), as the SDK insists on one. */
  static final String NO_KEY = "no-key";

  private final OpenAIClient client;
  private final boolean ownsClient;
  private final RetryPolicy retry;

  private OpenAiModel(String model, OpenAIClient client, boolean ownsClient, RetryPolicy retry) {
    super(model);
    this.client = client;
    this.ownsClient = ownsClient;
    this.retry = retry;
  }

  /**
   * A model configured from the environment: {@value #OPENAI_API_KEY} and {@value
   * #OPENAI_BASE_URL}.
   *
   * @throws IllegalStateException if neither is set
   */
  public static OpenAiModel create(String modelName) {
    return builder().modelName(modelName).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
    Objects.requireNonNull(request, "request");
    String modelName = request.model().filter(m -> !m.isBlank()).orElse(model());
    Flowable<LlmResponse> call =
        Flowable.defer(
            () -> {
              ChatCompletionCreateParams params =
                  OpenAiRequests.toParams(modelName, request, stream);
              return stream ? streamed(params, modelName) : once(params, modelName);
            });
    return retry.apply(
        call.onErrorResumeNext(e -> Flowable.error(OpenAiErrors.translate(e, modelName))));
  }

  private Flowable<LlmResponse> once(ChatCompletionCreateParams params, String modelName) {
    return Flowable.create(
        emitter -> {
          LlmResponse response;
          try {
            response =
                OpenAiResponses.toLlmResponse(
                    client.chat().completions().create(params), modelName);
          } catch (RuntimeException e) {
            // A call abandoned meanwhile (cancelled, timed out) fails into the void.
            emitter.tryOnError(e);
            return;
          }
          emitter.onNext(response);
          emitter.onComplete();
        },
        BackpressureStrategy.BUFFER);
  }

  private Flowable<LlmResponse> streamed(ChatCompletionCreateParams params, String modelName) {
    return Flowable.using(
        () -> client.chat().completions().createStreaming(params),
        (StreamResponse<ChatCompletionChunk> response) -> {
          OpenAiResponses.Stream aggregator = new OpenAiResponses.Stream(modelName);
          return Flowable.fromStream(response.stream())
              .concatMapIterable(aggregator::add)
              .concatWith(Flowable.defer(() -> Flowable.just(aggregator.finish())));
        },
        StreamResponse::close);
  }

  /** Closes the client this model created; a client given to the builder stays open. */
  @Override
  public void close() {
    if (ownsClient) {
      client.close();
    }
  }

  @Override
  public String toString() {
    return "OpenAiModel{model=" + model() + "}";
  }

  /**
   * Builds an {@link OpenAiModel}: a base URL and key (each from the environment when not given),
   * or a ready {@link OpenAIClient}. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable String modelName;
    private @Nullable String apiKey;
    private @Nullable String baseUrl;
    private @Nullable Duration timeout;
    private @Nullable OpenAIClient client;
    private RetryPolicy retry = RetryPolicy.defaults();
    private Function<String, @Nullable String> environment = System::getenv;

    private Builder() {}

    /** The model name the API knows, such as {@code gpt-4o-mini} or {@code llama3.2}. Required. */
    public Builder modelName(String modelName) {
      Objects.requireNonNull(modelName, "modelName");
      if (modelName.isBlank()) {
        throw new IllegalArgumentException("modelName is blank");
      }
      this.modelName = modelName;
      return this;
    }

    /** The API key. Default: {@value #OPENAI_API_KEY}; none is needed with a base URL. */
    public Builder apiKey(String apiKey) {
      this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
      return this;
    }

    /**
     * The API's base URL, up to and including its version path: {@code http://localhost:11434/v1}
     * for Ollama, {@code http://localhost:8000/v1} for vLLM, an Azure OpenAI resource's {@code
     * .../openai/v1}. Default: {@value #OPENAI_BASE_URL}, else OpenAI's.
     */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
      return this;
    }

    /** The longest one HTTP request may take (a stream included). Default: the SDK's (10 min). */
    public Builder timeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive, was " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /** When to retry; default {@link RetryPolicy#defaults()}. */
    public Builder retry(RetryPolicy retry) {
      this.retry = Objects.requireNonNull(retry, "retry");
      return this;
    }

    /**
     * A ready client (custom HTTP settings, credentials, Azure options). It stays the caller's and
     * should have its own retries off ({@code maxRetries(0)}) so that {@link #retry} alone decides.
     * Cannot be combined with {@link #apiKey}, {@link #baseUrl} or {@link #timeout}.
     */
    public Builder client(OpenAIClient client) {
      this.client = Objects.requireNonNull(client, "client");
      return this;
    }

    /** Where environment variables are read; default {@link System#getenv(String)}. */
    public Builder environment(Function<String, @Nullable String> environment) {
      this.environment = Objects.requireNonNull(environment, "environment");
      return this;
    }

    /**
     * @throws IllegalStateException if no model name was set, a client was combined with other
     *     settings, or neither a key nor a base URL was given or set in the environment
     */
    public OpenAiModel build() {
      if (modelName == null) {
        throw new IllegalStateException("OpenAiModel.builder(): modelName is required");
      }
      if (client != null) {
        if (apiKey != null || baseUrl != null || timeout != null) {
          throw new IllegalStateException(
              "OpenAiModel '"
                  + modelName
                  + "': client(...) cannot be combined with apiKey, baseUrl or timeout;"
                  + " configure them on the client");
        }
        return new OpenAiModel(modelName, client, false, retry);
      }
      String key = firstNonBlank(apiKey, environment.apply(OPENAI_API_KEY));
      String url = firstNonBlank(baseUrl, environment.apply(OPENAI_BASE_URL));
      if (key == null && url == null) {
        throw new IllegalStateException(
            "No API key for OpenAI model '"
                + modelName
                + "': call apiKey(...) or set the environment variable "
                + OPENAI_API_KEY
                + " (or "
                + OPENAI_BASE_URL
                + " for a server that needs no key)");
      }
      OpenAIOkHttpClient.Builder b =
          OpenAIOkHttpClient.builder().apiKey(key == null ? NO_KEY : key).maxRetries(0);
      if (url != null) {
        b.baseUrl(url);
      }
      if (timeout != null) {
        b.timeout(timeout);
      }
      return new OpenAiModel(modelName, b.build(), true, retry);
    }

    private static @Nullable String firstNonBlank(@Nullable String... values) {
      for (String v : values) {
        if (v != null && !v.isBlank()) {
          return v;
        }
      }
      return null;
    }
  }
}
