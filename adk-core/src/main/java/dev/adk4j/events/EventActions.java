package dev.adk4j.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import dev.adk4j.state.State;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What an event does besides carrying content: the state changes it makes ({@link #stateDelta()}),
 * the artifact versions it saved, and control flow (transfer to another agent, escalation out of a
 * loop, skipping summarization of a tool result).
 *
 * <p>Immutable; use {@link #toBuilder()} to derive a changed copy. In {@link #stateDelta()} a
 * {@code null} value means the key is removed; builders also accept {@link State#REMOVED} for maps
 * that cannot hold {@code null}.
 */
@JsonDeserialize(builder = EventActions.Builder.class)
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public final class EventActions {

  private static final EventActions EMPTY = builder().build();

  private final Map<String, @Nullable Object> stateDelta;
  private final Map<String, Integer> artifactDelta;
  private final @Nullable String transferToAgent;
  private final @Nullable Boolean escalate;
  private final @Nullable Boolean skipSummarization;

  private EventActions(Builder b) {
    this.stateDelta = Collections.unmodifiableMap(new LinkedHashMap<>(b.stateDelta));
    this.artifactDelta = Collections.unmodifiableMap(new LinkedHashMap<>(b.artifactDelta));
    this.transferToAgent = b.transferToAgent;
    this.escalate = b.escalate;
    this.skipSummarization = b.skipSummarization;
  }

  /** Actions that do nothing. */
  public static EventActions empty() {
    return EMPTY;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder()
        .stateDelta(stateDelta)
        .artifactDelta(artifactDelta)
        .transferToAgent(transferToAgent)
        .escalate(escalate)
        .skipSummarization(skipSummarization);
  }

  /** The state changes, unmodifiable: key to new value, or to {@code null} for a removal. */
  @JsonProperty("stateDelta")
  @JsonInclude(value = JsonInclude.Include.ALWAYS, content = JsonInclude.Include.ALWAYS)
  public Map<String, @Nullable Object> stateDelta() {
    return stateDelta;
  }

  /** Artifacts saved by the event: file name to the version saved. */
  @JsonProperty("artifactDelta")
  public Map<String, Integer> artifactDelta() {
    return artifactDelta;
  }

  /** The agent to transfer control to, if any. */
  @JsonProperty("transferToAgent")
  public Optional<String> transferToAgent() {
    return Optional.ofNullable(transferToAgent);
  }

  /** Whether the event asks the enclosing loop to stop. */
  @JsonProperty("escalate")
  public Optional<Boolean> escalate() {
    return Optional.ofNullable(escalate);
  }

  /** Whether a tool's result is final, so the model is not called to summarize it. */
  @JsonProperty("skipSummarization")
  public Optional<Boolean> skipSummarization() {
    return Optional.ofNullable(skipSummarization);
  }

  /** Whether these actions do nothing at all. */
  @JsonIgnore
  public boolean isEmpty() {
    return stateDelta.isEmpty()
        && artifactDelta.isEmpty()
        && transferToAgent == null
        && escalate == null
        && skipSummarization == null;
  }

  /**
   * These actions with {@code other}'s applied on top: deltas merged (other wins on a shared key),
   * flags taken from {@code other} where it sets them.
   */
  public EventActions merge(EventActions other) {
    Builder b = toBuilder();
    b.stateDelta.putAll(other.stateDelta);
    b.artifactDelta.putAll(other.artifactDelta);
    if (other.transferToAgent != null) {
      b.transferToAgent = other.transferToAgent;
    }
    if (other.escalate != null) {
      b.escalate = other.escalate;
    }
    if (other.skipSummarization != null) {
      b.skipSummarization = other.skipSummarization;
    }
    return b.build();
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof EventActions)) {
      return false;
    }
    EventActions that = (EventActions) o;
    return stateDelta.equals(that.stateDelta)
        && artifactDelta.equals(that.artifactDelta)
        && Objects.equals(transferToAgent, that.transferToAgent)
        && Objects.equals(escalate, that.escalate)
        && Objects.equals(skipSummarization, that.skipSummarization);
  }

  @Override
  public int hashCode() {
    return Objects.hash(stateDelta, artifactDelta, transferToAgent, escalate, skipSummarization);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("EventActions{stateDelta=").append(stateDelta);
    if (!artifactDelta.isEmpty()) {
      sb.append(", artifactDelta=").append(artifactDelta);
    }
    if (transferToAgent != null) {
      sb.append(", transferToAgent=").append(transferToAgent);
    }
    if (escalate != null) {
      sb.append(", escalate=").append(escalate);
    }
    if (skipSummarization != null) {
      sb.append(", skipSummarization=").append(skipSummarization);
    }
    return sb.append('}').toString();
  }

  /** Builds {@link EventActions}. Not thread-safe. */
  @JsonPOJOBuilder(withPrefix = "")
  public static final class Builder {
    private final Map<String, @Nullable Object> stateDelta = new LinkedHashMap<>();
    private final Map<String, Integer> artifactDelta = new LinkedHashMap<>();
    private @Nullable String transferToAgent;
    private @Nullable Boolean escalate;
    private @Nullable Boolean skipSummarization;

    private Builder() {}

    /**
     * Replaces the state delta with a copy of {@code delta}; {@code null} or {@link State#REMOVED}
     * values mean removal.
     */
    @JsonProperty("stateDelta")
    public Builder stateDelta(@Nullable Map<String, ? extends @Nullable Object> delta) {
      stateDelta.clear();
      if (delta != null) {
        delta.forEach((k, v) -> stateDelta.put(k, v == State.REMOVED ? null : v));
      }
      return this;
    }

    /** Adds one entry to the state delta; {@code null} means removal. */
    public Builder putState(String key, @Nullable Object value) {
      stateDelta.put(Objects.requireNonNull(key, "key"), value == State.REMOVED ? null : value);
      return this;
    }

    /** Records a removal of {@code key} in the state delta. */
    public Builder removeState(String key) {
      return putState(key, null);
    }

    @JsonProperty("artifactDelta")
    public Builder artifactDelta(@Nullable Map<String, Integer> delta) {
      artifactDelta.clear();
      if (delta != null) {
        artifactDelta.putAll(delta);
      }
      return this;
    }

    @JsonProperty("transferToAgent")
    public Builder transferToAgent(@Nullable String agentName) {
      this.transferToAgent = agentName;
      return this;
    }

    @JsonProperty("escalate")
    public Builder escalate(@Nullable Boolean escalate) {
      this.escalate = escalate;
      return this;
    }

    @JsonProperty("skipSummarization")
    public Builder skipSummarization(@Nullable Boolean skipSummarization) {
      this.skipSummarization = skipSummarization;
      return this;
    }

    public EventActions build() {
      return new EventActions(this);
    }
  }
}
