package dev.adk4j.models;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import com.google.genai.types.CitationMetadata;
import com.google.genai.types.Content;
import com.google.genai.types.CustomMetadata;
import com.google.genai.types.FinishReason;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import com.google.genai.types.GroundingMetadata;
import com.google.genai.types.Transcription;
import dev.adk4j.internal.Json;
import java.util.List;
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
public final class LlmResponse {
  private final @Nullable Content content;
  private final @Nullable Boolean partial;
  private final @Nullable Boolean turnComplete;
  private final @Nullable String errorCode;
  private final @Nullable String errorMessage;
  private final @Nullable GenerateContentResponseUsageMetadata usageMetadata;
  private final @Nullable FinishReason finishReason;
  private final @Nullable GroundingMetadata groundingMetadata;
  private final @Nullable CitationMetadata citationMetadata;
  private final @Nullable Double avgLogprobs;
  private final @Nullable Boolean interrupted;
  private final @Nullable List<CustomMetadata> customMetadata;
  private final @Nullable String modelVersion;
  private final @Nullable Transcription inputTranscription;
  private final @Nullable Transcription outputTranscription;

  private LlmResponse(Builder b) {
    this.content = b.content;
    this.partial = b.partial;
    this.turnComplete = b.turnComplete;
    this.errorCode = b.errorCode;
    this.errorMessage = b.errorMessage;
    this.usageMetadata = b.usageMetadata;
    this.finishReason = b.finishReason;
    this.groundingMetadata = b.groundingMetadata;
    this.citationMetadata = b.citationMetadata;
    this.avgLogprobs = b.avgLogprobs;
    this.interrupted = b.interrupted;
    this.customMetadata = b.customMetadata == null ? null : List.copyOf(b.customMetadata);
    this.modelVersion = b.modelVersion;
    this.inputTranscription = b.inputTranscription;
    this.outputTranscription = b.outputTranscription;
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
        .usageMetadata(usageMetadata)
        .finishReason(finishReason)
        .groundingMetadata(groundingMetadata)
        .citationMetadata(citationMetadata)
        .avgLogprobs(avgLogprobs)
        .interrupted(interrupted)
        .customMetadata(customMetadata)
        .modelVersion(modelVersion)
        .inputTranscription(inputTranscription)
        .outputTranscription(outputTranscription);
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

  /**
   * Why the model stopped ({@code STOP}, {@code MAX_TOKENS}, {@code SAFETY}, ...), as the provider
   * reported it; empty for a partial chunk or a provider that does not say.
   */
  @JsonProperty("finishReason")
  public Optional<FinishReason> finishReason() {
    return Optional.ofNullable(finishReason);
  }

  /** The sources the answer was grounded on (Gemini's grounding with search or retrieval). */
  @JsonProperty("groundingMetadata")
  public Optional<GroundingMetadata> groundingMetadata() {
    return Optional.ofNullable(groundingMetadata);
  }

  /** The citations of the answer, as the model reported them. */
  @JsonProperty("citationMetadata")
  public Optional<CitationMetadata> citationMetadata() {
    return Optional.ofNullable(citationMetadata);
  }

  /** The average log probability of the answer's tokens, where the model reports it. */
  @JsonProperty("avgLogprobs")
  public Optional<Double> avgLogprobs() {
    return Optional.ofNullable(avgLogprobs);
  }

  /** In a live run: whether the person interrupted the model's answer (barge-in). */
  @JsonProperty("interrupted")
  public Optional<Boolean> interrupted() {
    return Optional.ofNullable(interrupted);
  }

  /** Key-value metadata the response carries (google-genai's {@code CustomMetadata}). */
  @JsonProperty("customMetadata")
  public Optional<List<CustomMetadata>> customMetadata() {
    return Optional.ofNullable(customMetadata);
  }

  /** The version of the model that answered, as the provider reported it. */
  @JsonProperty("modelVersion")
  public Optional<String> modelVersion() {
    return Optional.ofNullable(modelVersion);
  }

  /** In a live run: the transcription of the person's audio input. */
  @JsonProperty("inputTranscription")
  public Optional<Transcription> inputTranscription() {
    return Optional.ofNullable(inputTranscription);
  }

  /** In a live run: the transcription of the model's audio answer. */
  @JsonProperty("outputTranscription")
  public Optional<Transcription> outputTranscription() {
    return Optional.ofNullable(outputTranscription);
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
        && Objects.equals(finishReason, that.finishReason)
        && Objects.equals(groundingMetadata, that.groundingMetadata)
        && Objects.equals(citationMetadata, that.citationMetadata)
        && Objects.equals(avgLogprobs, that.avgLogprobs)
        && Objects.equals(interrupted, that.interrupted)
        && Objects.equals(customMetadata, that.customMetadata)
        && Objects.equals(modelVersion, that.modelVersion)
        && Objects.equals(inputTranscription, that.inputTranscription)
        && Objects.equals(outputTranscription, that.outputTranscription);
  }

  @Override
  public int hashCode() {
    return Objects.hash(content, partial, turnComplete, errorCode, errorMessage, finishReason);
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
        + (finishReason == null ? "" : ", finishReason=" + finishReason)
        + (interrupted == null ? "" : ", interrupted=" + interrupted)
        + "}";
  }

  /** Builds an {@link LlmResponse}. Not thread-safe. */
  @JsonPOJOBuilder(withPrefix = "")
  public static final class Builder {
    private @Nullable Content content;
    private @Nullable Boolean partial;
    private @Nullable Boolean turnComplete;
    private @Nullable String errorCode;
    private @Nullable String errorMessage;
    private @Nullable GenerateContentResponseUsageMetadata usageMetadata;
    private @Nullable FinishReason finishReason;
    private @Nullable GroundingMetadata groundingMetadata;
    private @Nullable CitationMetadata citationMetadata;
    private @Nullable Double avgLogprobs;
    private @Nullable Boolean interrupted;
    private @Nullable List<CustomMetadata> customMetadata;
    private @Nullable String modelVersion;
    private @Nullable Transcription inputTranscription;
    private @Nullable Transcription outputTranscription;

    private Builder() {}

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

    /** Why the model stopped (see the accessor). */
    @JsonProperty("finishReason")
    public Builder finishReason(@Nullable FinishReason finishReason) {
      this.finishReason = finishReason;
      return this;
    }

    @JsonProperty("groundingMetadata")
    public Builder groundingMetadata(@Nullable GroundingMetadata groundingMetadata) {
      this.groundingMetadata = groundingMetadata;
      return this;
    }

    @JsonProperty("citationMetadata")
    public Builder citationMetadata(@Nullable CitationMetadata citationMetadata) {
      this.citationMetadata = citationMetadata;
      return this;
    }

    @JsonProperty("avgLogprobs")
    public Builder avgLogprobs(@Nullable Double avgLogprobs) {
      this.avgLogprobs = avgLogprobs;
      return this;
    }

    @JsonProperty("interrupted")
    public Builder interrupted(@Nullable Boolean interrupted) {
      this.interrupted = interrupted;
      return this;
    }

    @JsonProperty("customMetadata")
    public Builder customMetadata(@Nullable List<CustomMetadata> customMetadata) {
      this.customMetadata = customMetadata;
      return this;
    }

    @JsonProperty("modelVersion")
    public Builder modelVersion(@Nullable String modelVersion) {
      this.modelVersion = modelVersion;
      return this;
    }

    @JsonProperty("inputTranscription")
    public Builder inputTranscription(@Nullable Transcription inputTranscription) {
      this.inputTranscription = inputTranscription;
      return this;
    }

    @JsonProperty("outputTranscription")
    public Builder outputTranscription(@Nullable Transcription outputTranscription) {
      this.outputTranscription = outputTranscription;
      return this;
    }

    public LlmResponse build() {
      return new LlmResponse(this);
    }
  }
}
