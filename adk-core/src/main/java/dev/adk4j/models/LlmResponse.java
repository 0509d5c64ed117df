package dev.adk4j.models;

import com.google.genai.types.Content;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One response (or, when streaming, one chunk) from a model. Immutable.
 *
 * <p>An error from the model is a response with {@link #errorCode()} and {@link #errorMessage()}
 * and usually no content.
 */
public final class LlmResponse {
  private final @Nullable Content content;
  private final @Nullable Boolean partial;
  private final @Nullable Boolean turnComplete;
  private final @Nullable String errorCode;
  private final @Nullable String errorMessage;
  private final @Nullable GenerateContentResponseUsageMetadata usageMetadata;

  private LlmResponse(Builder b) {
    this.content = b.content;
    this.partial = b.partial;
    this.turnComplete = b.turnComplete;
    this.errorCode = b.errorCode;
    this.errorMessage = b.errorMessage;
    this.usageMetadata = b.usageMetadata;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder()
        .content(content)
        .partial(partial)
        .turnComplete(turnComplete)
        .errorCode(errorCode)
        .errorMessage(errorMessage)
        .usageMetadata(usageMetadata);
  }

  public Optional<Content> content() {
    return Optional.ofNullable(content);
  }

  public Optional<Boolean> partial() {
    return Optional.ofNullable(partial);
  }

  public Optional<Boolean> turnComplete() {
    return Optional.ofNullable(turnComplete);
  }

  public Optional<String> errorCode() {
    return Optional.ofNullable(errorCode);
  }

  public Optional<String> errorMessage() {
    return Optional.ofNullable(errorMessage);
  }

  public Optional<GenerateContentResponseUsageMetadata> usageMetadata() {
    return Optional.ofNullable(usageMetadata);
  }

  @Override
  public String toString() {
    return "LlmResponse{content="
        + content
        + ", partial="
        + partial
        + ", errorCode="
        + errorCode
        + ", errorMessage="
        + errorMessage
        + "}";
  }

  /** Builds an {@link LlmResponse}. Not thread-safe. */
  public static final class Builder {
    private @Nullable Content content;
    private @Nullable Boolean partial;
    private @Nullable Boolean turnComplete;
    private @Nullable String errorCode;
    private @Nullable String errorMessage;
    private @Nullable GenerateContentResponseUsageMetadata usageMetadata;

    private Builder() {}

    public Builder content(@Nullable Content content) {
      this.content = content;
      return this;
    }

    public Builder partial(@Nullable Boolean partial) {
      this.partial = partial;
      return this;
    }

    public Builder turnComplete(@Nullable Boolean turnComplete) {
      this.turnComplete = turnComplete;
      return this;
    }

    public Builder errorCode(@Nullable String errorCode) {
      this.errorCode = errorCode;
      return this;
    }

    /**
     * ADK for Java's spelling: the error code is the finish reason's name ({@code "SAFETY"}, {@code
     * "MAX_TOKENS"}, ...); {@code errorCode()} answers it as a {@code String}.
     */
    public Builder errorCode(com.google.genai.types.@Nullable FinishReason finishReason) {
      return errorCode(finishReason == null ? (String) null : finishReason.toString());
    }

    public Builder errorMessage(@Nullable String errorMessage) {
      this.errorMessage = errorMessage;
      return this;
    }

    public Builder usageMetadata(@Nullable GenerateContentResponseUsageMetadata usageMetadata) {
      this.usageMetadata = usageMetadata;
      return this;
    }

    public LlmResponse build() {
      return new LlmResponse(this);
    }
  }
}
