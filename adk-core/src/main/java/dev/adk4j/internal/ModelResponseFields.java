package dev.adk4j.internal;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.types.CitationMetadata;
import com.google.genai.types.CustomMetadata;
import com.google.genai.types.FinishReason;
import com.google.genai.types.GroundingMetadata;
import com.google.genai.types.Transcription;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a model reported about one response, beyond its content, under ADK for Java's names: the
 * fields {@code LlmResponse} and {@code Event} both have (an event holds those of the response it
 * was stored for). Written once here, as their common base class and the base of their builders, so
 * that the two keep the same accessors, builder methods, equality and flat JSON properties ({@code
 * finishReason}, {@code groundingMetadata}, ...: camelCase, absent values left out).
 *
 * <p>The nine values sit in one immutable holder, shared by every object that has none (most
 * events), and copied by reference by {@code toBuilder()}. Not API: use the accessors of {@code
 * Event} and {@code LlmResponse}.
 */
public abstract class ModelResponseFields {

  private final Values values;

  protected ModelResponseFields(Builder<?> builder) {
    this.values = builder.values == null ? Values.NONE : builder.values.build();
  }

  /**
   * Why the model stopped ({@code STOP}, {@code MAX_TOKENS}, {@code SAFETY}, ...), as the provider
   * reported it; empty for a partial chunk, a provider that does not say, or an event no model
   * produced.
   */
  @JsonProperty("finishReason")
  public final Optional<FinishReason> finishReason() {
    return Optional.ofNullable(values.finishReason);
  }

  /** The sources the answer was grounded on (Gemini's grounding with search or retrieval). */
  @JsonProperty("groundingMetadata")
  public final Optional<GroundingMetadata> groundingMetadata() {
    return Optional.ofNullable(values.groundingMetadata);
  }

  /** The citations of the answer, as the model reported them. */
  @JsonProperty("citationMetadata")
  public final Optional<CitationMetadata> citationMetadata() {
    return Optional.ofNullable(values.citationMetadata);
  }

  /** The average log probability of the answer's tokens, where the model reports it. */
  @JsonProperty("avgLogprobs")
  public final Optional<Double> avgLogprobs() {
    return Optional.ofNullable(values.avgLogprobs);
  }

  /** In a live run: whether the person interrupted the model's answer (barge-in). */
  @JsonProperty("interrupted")
  public final Optional<Boolean> interrupted() {
    return Optional.ofNullable(values.interrupted);
  }

  /**
   * Key-value metadata (google-genai's {@code CustomMetadata}, as ADK for Java holds it): the model
   * response's; on an event, a run's {@code RunConfig.customMetadata} after them.
   */
  @JsonProperty("customMetadata")
  public final Optional<List<CustomMetadata>> customMetadata() {
    return Optional.ofNullable(values.customMetadata);
  }

  /** The version of the model that answered, as the provider reported it. */
  @JsonProperty("modelVersion")
  public final Optional<String> modelVersion() {
    return Optional.ofNullable(values.modelVersion);
  }

  /** In a live run: the transcription of the person's audio input. */
  @JsonProperty("inputTranscription")
  public final Optional<Transcription> inputTranscription() {
    return Optional.ofNullable(values.inputTranscription);
  }

  /** In a live run: the transcription of the model's audio answer. */
  @JsonProperty("outputTranscription")
  public final Optional<Transcription> outputTranscription() {
    return Optional.ofNullable(values.outputTranscription);
  }

  /** Gives {@code builder} this object's nine values (for the subclasses' {@code toBuilder()}). */
  protected final <B extends Builder<B>> B copyModelFieldsTo(B builder) {
    Builder<?> target = builder; // private members are not reachable through a type variable
    if (values != Values.NONE || target.values != null) {
      target.values().set(values);
    }
    return builder;
  }

  /** Whether {@code other} holds the same nine values (for the subclasses' {@code equals}). */
  protected final boolean sameModelFields(ModelResponseFields other) {
    return values.equals(other.values);
  }

  /**
   * The base of {@code Event.Builder} and {@code LlmResponse.Builder}: the nine values' builder
   * methods, each answering the builder itself ({@code B}). The values' holder is created on the
   * first write: most events carry none.
   *
   * @param <B> the builder's own type
   */
  public abstract static class Builder<B extends Builder<B>> {
    private Values.@Nullable Builder values;

    protected Builder() {}

    /** This builder, as its own type. */
    protected abstract B self();

    private Values.Builder values() {
      Values.Builder v = values;
      if (v == null) {
        v = new Values.Builder();
        values = v;
      }
      return v;
    }

    /** Why the model stopped (see the accessor). */
    @JsonProperty("finishReason")
    public final B finishReason(@Nullable FinishReason finishReason) {
      values().finishReason = finishReason;
      return self();
    }

    @JsonProperty("groundingMetadata")
    public final B groundingMetadata(@Nullable GroundingMetadata groundingMetadata) {
      values().groundingMetadata = groundingMetadata;
      return self();
    }

    @JsonProperty("citationMetadata")
    public final B citationMetadata(@Nullable CitationMetadata citationMetadata) {
      values().citationMetadata = citationMetadata;
      return self();
    }

    @JsonProperty("avgLogprobs")
    public final B avgLogprobs(@Nullable Double avgLogprobs) {
      values().avgLogprobs = avgLogprobs;
      return self();
    }

    @JsonProperty("interrupted")
    public final B interrupted(@Nullable Boolean interrupted) {
      values().interrupted = interrupted;
      return self();
    }

    /** The metadata entries, copied. */
    @JsonIgnore
    public final B customMetadata(@Nullable List<CustomMetadata> customMetadata) {
      values().customMetadata = customMetadata == null ? null : List.copyOf(customMetadata);
      return self();
    }

    /**
     * Reads {@code customMetadata} as ADK for Java writes it (a list of {@code CustomMetadata}) or
     * as ADK for Python does (an object of keys and values, converted as {@link
     * CustomMetadataEntries} says).
     */
    @JsonProperty("customMetadata")
    private B customMetadataJson(@Nullable JsonNode node) {
      if (node == null || node.isNull()) {
        return customMetadata(null);
      }
      List<CustomMetadata> list = new ArrayList<>();
      if (node.isArray()) {
        for (JsonNode item : node) {
          list.add(CustomMetadata.fromJson(item.toString()));
        }
      } else if (node.isObject()) {
        list.addAll(CustomMetadataEntries.of(node));
      } else {
        throw new IllegalArgumentException(
            "customMetadata must be a list or an object, got " + node.getNodeType());
      }
      return customMetadata(list);
    }

    @JsonProperty("modelVersion")
    public final B modelVersion(@Nullable String modelVersion) {
      values().modelVersion = modelVersion;
      return self();
    }

    @JsonProperty("inputTranscription")
    public final B inputTranscription(@Nullable Transcription inputTranscription) {
      values().inputTranscription = inputTranscription;
      return self();
    }

    @JsonProperty("outputTranscription")
    public final B outputTranscription(@Nullable Transcription outputTranscription) {
      values().outputTranscription = outputTranscription;
      return self();
    }
  }

  /**
   * The nine values (a record: compared component by component); {@link #NONE} when a model
   * reported none of them.
   */
  private record Values(
      @Nullable FinishReason finishReason,
      @Nullable GroundingMetadata groundingMetadata,
      @Nullable CitationMetadata citationMetadata,
      @Nullable Double avgLogprobs,
      @Nullable Boolean interrupted,
      @Nullable List<CustomMetadata> customMetadata,
      @Nullable String modelVersion,
      @Nullable Transcription inputTranscription,
      @Nullable Transcription outputTranscription) {

    static final Values NONE = new Values(null, null, null, null, null, null, null, null, null);

    /** Mutable; {@link #build()} answers {@link #NONE} while nothing is set. */
    static final class Builder {
      @Nullable FinishReason finishReason;
      @Nullable GroundingMetadata groundingMetadata;
      @Nullable CitationMetadata citationMetadata;
      @Nullable Double avgLogprobs;
      @Nullable Boolean interrupted;
      @Nullable List<CustomMetadata> customMetadata;
      @Nullable String modelVersion;
      @Nullable Transcription inputTranscription;
      @Nullable Transcription outputTranscription;

      void set(Values v) {
        finishReason = v.finishReason();
        groundingMetadata = v.groundingMetadata();
        citationMetadata = v.citationMetadata();
        avgLogprobs = v.avgLogprobs();
        interrupted = v.interrupted();
        customMetadata = v.customMetadata();
        modelVersion = v.modelVersion();
        inputTranscription = v.inputTranscription();
        outputTranscription = v.outputTranscription();
      }

      Values build() {
        Values v =
            new Values(
                finishReason,
                groundingMetadata,
                citationMetadata,
                avgLogprobs,
                interrupted,
                customMetadata,
                modelVersion,
                inputTranscription,
                outputTranscription);
        return v.equals(NONE) ? NONE : v;
      }
    }
  }
}
