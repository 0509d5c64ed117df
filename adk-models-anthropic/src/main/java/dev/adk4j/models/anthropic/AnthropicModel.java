package dev.adk4j.models.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
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
 * A Claude model served by the Anthropic Messages API, called through the official Anthropic Java
 * SDK.
 *
 * <pre>{@code
 * AnthropicModel claude = AnthropicModel.builder().modelName("claude-sonnet-4-5").apiKey(key).build();
 * AnthropicModel fromEnv = AnthropicModel.create("claude-sonnet-4-5"); // ANTHROPIC_API_KEY
 * }</pre>
 *
 * <p><b>Requests.</b> The system instruction is {@code system}; contents become alternating user
 * and assistant messages (consecutive contents of one role are merged, as the API wants turns to
 * alternate): text blocks, {@code tool_use} blocks for function calls (ids kept), {@code
 * tool_result} blocks for function responses (first in their message; a response that is only
 * {@code {"error": ...}} is marked {@code is_error}), and signed {@code thinking} blocks for the
 * thoughts the API returned. Function declarations are tools (standard JSON Schema); a response
 * schema is {@code output_config.format} (structured output); {@code max_tokens}, which the API
 * requires, is the config's {@code maxOutputTokens} or {@link Builder#maxTokens} (default 4096);
 * temperature, top-p, top-k, stop sequences and a thinking budget ({@code
 * thinkingConfig.thinkingBudget}) are sent. Images, documents and other parts fail the call with an
 * {@link IllegalArgumentException} naming the part. See {@code docs/models.md}.
 *
 * <p><b>Responses.</b> Text and tool uses (several per response, ids kept) as one content with role
 * {@code model}; thinking as thought parts; a refusal or a {@code max_tokens} stop without content
 * as an error response ({@code REFUSAL}, {@code MAX_TOKENS}); usage as usage metadata (the prompt
 * count includes cache reads and writes; cache reads also as the cached count). Streaming emits
 * text and thinking deltas as partial responses, then the whole message.
 *
 * <p><b>Errors.</b> As {@code OpenAiModel}: {@link dev.adk4j.models.LlmException}s with the status
 * and the API's message; 429, 503 and 529 ({@code overloaded_error}) retried by the {@link
 * RetryPolicy}, honouring {@code Retry-After}; the SDK's own retries are off.
 *
 * <p><b>Threading.</b> Thread-safe; {@link #generateContent} is lazy and blocks the subscribing
 * thread during the HTTP call.
 */
public final class AnthropicModel extends BaseLlm implements AutoCloseable {

  /** Environment variable read for the API key. */
  public static final String ANTHROPIC_API_KEY = "ANTHROPIC_API_KEY";

  /** Environment variable read for the base URL (a proxy or gateway). */
  public static final String ANTHROPIC_BASE_URL = "ANTHROPIC_BASE_URL";

  private final AnthropicClient client;
  private final boolean ownsClient;
  private final RetryPolicy retry;
  private final long maxTokens;

  private AnthropicModel(
      String model, AnthropicClient client, boolean ownsClient, RetryPolicy retry, long maxTokens) {
    super(model);
    this.client = client;
    this.ownsClient = ownsClient;
    this.retry = retry;
    this.maxTokens = maxTokens;
  }

  /**
   * A model configured from the environment: {@value #ANTHROPIC_API_KEY}, {@value
   * #ANTHROPIC_BASE_URL}.
   *
   * @throws IllegalStateException if neither is set
   */
  public static AnthropicModel create(String modelName) {
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
              MessageCreateParams params =
                  AnthropicRequests.toParams(modelName, request, maxTokens);
              return stream ? streamed(params) : once(params);
            });
    return retry.apply(
        call.onErrorResumeNext(e -> Flowable.error(AnthropicErrors.translate(e, modelName))));
  }

  private Flowable<LlmResponse> once(MessageCreateParams params) {
    return Flowable.create(
        emitter -> {
          LlmResponse response;
          try {
            response = AnthropicResponses.toLlmResponse(client.messages().create(params));
          } catch (RuntimeException e) {
            emitter.tryOnError(e);
            return;
          }
          emitter.onNext(response);
          emitter.onComplete();
        },
        BackpressureStrategy.BUFFER);
  }

  private Flowable<LlmResponse> streamed(MessageCreateParams params) {
    return Flowable.using(
        () -> client.messages().createStreaming(params),
        (StreamResponse<RawMessageStreamEvent> response) -> {
          AnthropicResponses.Stream aggregator = new AnthropicResponses.Stream();
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
    return "AnthropicModel{model=" + model() + "}";
  }

  /** Builds an {@link AnthropicModel}. Not thread-safe. */
  public static final class Builder {
    private @Nullable String modelName;
    private @Nullable String apiKey;
    private @Nullable String baseUrl;
    private @Nullable Duration timeout;
    private @Nullable AnthropicClient client;
    private RetryPolicy retry = RetryPolicy.defaults();
    private long maxTokens = 4096;
    private Function<String, @Nullable String> environment = System::getenv;

    private Builder() {}

    /** The model name, such as {@code claude-sonnet-4-5}. Required. */
    public Builder modelName(String modelName) {
      Objects.requireNonNull(modelName, "modelName");
      if (modelName.isBlank()) {
        throw new IllegalArgumentException("modelName is blank");
      }
      this.modelName = modelName;
      return this;
    }

    /** The API key. Default: {@value #ANTHROPIC_API_KEY}. */
    public Builder apiKey(String apiKey) {
      this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
      return this;
    }

    /**
     * The API's base URL, without {@code /v1} (the SDK appends {@code /v1/messages}). Default:
     * {@value #ANTHROPIC_BASE_URL}, else Anthropic's.
     */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
      return this;
    }

    /** The longest one HTTP request may take (a stream included). Default: the SDK's. */
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
     * The {@code max_tokens} of a request whose config sets no {@code maxOutputTokens}; default
     * 4096.
     */
    public Builder maxTokens(long maxTokens) {
      if (maxTokens < 1) {
        throw new IllegalArgumentException("maxTokens must be >= 1, was " + maxTokens);
      }
      this.maxTokens = maxTokens;
      return this;
    }

    /**
     * A ready client (Bedrock, Vertex AI, custom HTTP settings). It stays the caller's and should
     * have its own retries off ({@code maxRetries(0)}). Cannot be combined with {@link #apiKey},
     * {@link #baseUrl} or {@link #timeout}.
     */
    public Builder client(AnthropicClient client) {
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
     *     settings, or no API key was given or set in {@value #ANTHROPIC_API_KEY} (a base URL
     *     alone, a gateway that needs no key, is enough)
     */
    public AnthropicModel build() {
      if (modelName == null) {
        throw new IllegalStateException("AnthropicModel.builder(): modelName is required");
      }
      if (client != null) {
        if (apiKey != null || baseUrl != null || timeout != null) {
          throw new IllegalStateException(
              "AnthropicModel '"
                  + modelName
                  + "': client(...) cannot be combined with apiKey, baseUrl or timeout;"
                  + " configure them on the client");
        }
        return new AnthropicModel(modelName, client, false, retry, maxTokens);
      }
      String key = firstNonBlank(apiKey, environment.apply(ANTHROPIC_API_KEY));
      String url = firstNonBlank(baseUrl, environment.apply(ANTHROPIC_BASE_URL));
      if (key == null && url == null) {
        throw new IllegalStateException(
            "No API key for Anthropic model '"
                + modelName
                + "': call apiKey(...) or set the environment variable "
                + ANTHROPIC_API_KEY);
      }
      AnthropicOkHttpClient.Builder b =
          AnthropicOkHttpClient.builder().apiKey(key == null ? "no-key" : key).maxRetries(0);
      if (url != null) {
        b.baseUrl(url);
      }
      if (timeout != null) {
        b.timeout(timeout);
      }
      return new AnthropicModel(modelName, b.build(), true, retry, maxTokens);
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
