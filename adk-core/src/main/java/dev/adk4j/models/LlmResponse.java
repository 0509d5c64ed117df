package dev.adk4j.models;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import com.google.genai.types.Content;
import com.google.genai.types.FinishReason;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import dev.adk4j.internal.Json;
import dev.adk4j.internal.ModelResponseFields;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One response (or, when streaming, one chunk) from a model. Immutable.
 *
 * <p>An error from the model is a response with {@link #errorCode()} and {@link #errorMessage()}
 * and usually no content.
 *
 * <p>Besides the content, a response carries what the model reported about it, under ADK for Java's
 * names: {@link #finishReason()}, {@link #groundingMetadata()}, {@link #citationMetadata()}, {@link
 * #avgLogprobs()}, {@link #modelVersion()}, {@link #customMetadata()}, and in a live run {@link
 * #interrupted()} and the audio transcriptions. The agent copies them into the event it stores for
 * the response. As JSON ({@link #toJson()}) the names are ADK for Java's camelCase ones; absent
 * values are left out.
 */
@JsonDeserialize(builder = LlmResponse.Builder.class)
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public final class LlmResponse extends ModelResponseFields {
  private final @Nullable Content content;
  private final @Nullable Boolean partial;
  private final @Nullable Boolean turnComplete;
  private final @Nullable String errorCode;
  private final @Nullable String errorMessage;
  private final @Nullable GenerateContentResponseUsageMetadata usageMetadata;

  private LlmResponse(Builder b) {
    super(b);
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
    return copyModelFieldsTo(
        new Builder()
            .content(content)
            .partial(partial)
            .turnComplete(turnComplete)
            .errorCode(errorCode)
            .errorMessage(errorMessage)
            .usageMetadata(usageMetadata));
  }

  @JsonProperty("content")
  public Optional<Content> content() {
    return Optional.ofNullable(content);
  }

  @JsonProperty("partial")
  public Optional<Boolean> partial() {
    return Optional.ofNullable(partial);
  }

  @JsonProperty("turnComplete")
  public Optional<Boolean> turnComplete() {
    return Optional.ofNullable(turnComplete);
  }

  @JsonProperty("errorCode")
  public Optional<String> errorCode() {
    return Optional.ofNullable(errorCode);
  }

  @JsonProperty("errorMessage")
  public Optional<String> errorMessage() {
    return Optional.ofNullable(errorMessage);
  }

  @JsonProperty("usageMetadata")
  public Optional<GenerateContentResponseUsageMetadata> usageMetadata() {
    return Optional.ofNullable(usageMetadata);
  }

  /** ADK's {@code toJson()}: this response as JSON, with ADK for Java's camelCase names. */
  public String toJson() {
    return Json.toJson(this);
  }

  /**
   * ADK's {@code LlmResponse.fromJsonString(json, LlmResponse.class)}: reads what {@link #toJson()}
   * wrote ({@code null} values read as absent).
   *
   * @throws IllegalArgumentException if {@code json} is not such JSON
   */
  public static LlmResponse fromJsonString(String json, Class<LlmResponse> type) {
    return Json.fromJson(json, type);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof LlmResponse)) {
      return false;
    }
    LlmResponse that = (LlmResponse) o;
    return Objects.equals(content, that.content)
        && Objects.equals(partial, that.partial)
        && Objects.equals(turnComplete, that.turnComplete)
        && Objects.equals(errorCode, that.errorCode)
        && Objects.equals(errorMessage, that.errorMessage)
        && Objects.equals(usageMetadata, that.usageMetadata)
        && sameModelFields(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(content, partial, turnComplete, errorCode, errorMessage, finishReason());
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
        + finishReason().map(f -> ", finishReason=" + f).orElse("")
        + interrupted().map(i -> ", interrupted=" + i).orElse("")
        + "}";
  }

  /** Builds an {@link LlmResponse}. Not thread-safe. */
  @JsonPOJOBuilder(withPrefix = "")
  public static final class Builder extends ModelResponseFields.Builder<Builder> {
    private @Nullable Content content;
    private @Nullable Boolean partial;
    private @Nullable Boolean turnComplete;
    private @Nullable String errorCode;
    private @Nullable String errorMessage;
    private @Nullable GenerateContentResponseUsageMetadata usageMetadata;

    private Builder() {}

    @Override
    protected Builder self() {
      return this;
    }

    @JsonProperty("content")
    public Builder content(@Nullable Content content) {
      this.content = content;
      return this;
    }

    @JsonProperty("partial")
    public Builder partial(@Nullable Boolean partial) {
      this.partial = partial;
      return this;
    }

    @JsonProperty("turnComplete")
    public Builder turnComplete(@Nullable Boolean turnComplete) {
      this.turnComplete = turnComplete;
      return this;
    }

    @JsonProperty("errorCode")
    public Builder errorCode(@Nullable String errorCode) {
      this.errorCode = errorCode;
      return this;
    }

    /**
     * ADK for Java's spelling: the error code is the finish reason's name ({@code "SAFETY"}, {@code
     * "MAX_TOKENS"}, ...); {@code errorCode()} answers it as a {@code String}.
     */
    @JsonIgnore
    public Builder errorCode(@Nullable FinishReason finishReason) {
      return errorCode(finishReason == null ? (String) null : finishReason.toString());
    }

    @JsonProperty("errorMessage")
    public Builder errorMessage(@Nullable String errorMessage) {
      this.errorMessage = errorMessage;
      return this;
    }

    @JsonProperty("usageMetadata")
    public Builder usageMetadata(@Nullable GenerateContentResponseUsageMetadata usageMetadata) {
      this.usageMetadata = usageMetadata;
      return this;
    }

    public LlmResponse build() {
      return new LlmResponse(this);
    }
  }
}
