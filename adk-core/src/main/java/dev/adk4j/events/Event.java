package dev.adk4j.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.internal.Json;
import dev.adk4j.internal.ModelResponseFields;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * One entry of a session's history: a user message, a model response, a tool call or result, or an
 * internal action. Its {@link #actions()} carry the state changes that appending it applies.
 *
 * <p>An event stored for a model's response also holds what the model reported about it ({@link
 * #finishReason()}, {@link #groundingMetadata()}, ...: the fields it shares with {@code
 * LlmResponse}, under the same names, in JSON too).
 *
 * <p>Immutable; {@link #toBuilder()} derives a changed copy. An event built without an id gets
 * {@link #generateEventId()}, without a timestamp the current time (epoch milliseconds).
 */
@JsonDeserialize(builder = Event.Builder.class)
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public final class Event extends ModelResponseFields {

  private final String id;
  private final @Nullable String invocationId;
  private final @Nullable String author;
  private final @Nullable Content content;
  private final EventActions actions;
  private final @Nullable Boolean partial;
  private final @Nullable String branch;
  private final long timestamp;
  private final @Nullable Boolean turnComplete;
  private final @Nullable String errorCode;
  private final @Nullable String errorMessage;
  private final @Nullable Set<String> longRunningToolIds;
  private final com.google.genai.types.@Nullable GenerateContentResponseUsageMetadata usageMetadata;
  private final @Nullable Object output;
  private final @Nullable NodeInfo nodeInfo;

  private Event(Builder b) {
    super(b);
    this.id = b.id != null ? b.id : generateEventId();
    this.invocationId = b.invocationId;
    this.author = b.author;
    this.content = b.content;
    this.actions = b.actions != null ? b.actions : EventActions.empty();
    this.partial = b.partial;
    this.branch = b.branch;
    this.timestamp = b.timestamp != null ? b.timestamp : System.currentTimeMillis();
    this.turnComplete = b.turnComplete;
    this.errorCode = b.errorCode;
    this.errorMessage = b.errorMessage;
    this.usageMetadata = b.usageMetadata;
    this.output = b.output;
    this.nodeInfo = b.nodeInfo;
    this.longRunningToolIds =
        b.longRunningToolIds == null || b.longRunningToolIds.isEmpty()
            ? null
            : Collections.unmodifiableSet(new LinkedHashSet<>(b.longRunningToolIds));
  }

  /**
   * A new random event id: a version 4 UUID drawn from {@link ThreadLocalRandom}. Event ids must be
   * unique, not unguessable (they grant nothing), so they skip {@link UUID#randomUUID()}'s secure
   * random source, which costs more than the rest of an in-memory append.
   */
  public static String generateEventId() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long high = (random.nextLong() & ~0xF000L) | 0x4000L;
    long low = (random.nextLong() & ~(0xC000L << 48)) | (0x8000L << 48);
    return new UUID(high, low).toString();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return copyModelFieldsTo(
        new Builder()
            .id(id)
            .invocationId(invocationId)
            .author(author)
            .content(content)
            .actions(actions)
            .partial(partial)
            .branch(branch)
            .timestamp(timestamp)
            .turnComplete(turnComplete)
            .errorCode(errorCode)
            .errorMessage(errorMessage)
            .usageMetadata(usageMetadata)
            .longRunningToolIds(longRunningToolIds)
            .output(output)
            .nodeInfo(nodeInfo));
  }

  @JsonProperty("id")
  public String id() {
    return id;
  }

  /** The invocation that produced this event. */
  @JsonProperty("invocationId")
  public @Nullable String invocationId() {
    return invocationId;
  }

  /** {@code "user"} for the user's messages, otherwise the name of the agent (or system). */
  @JsonProperty("author")
  public @Nullable String author() {
    return author;
  }

  @JsonProperty("content")
  public Optional<Content> content() {
    return Optional.ofNullable(content);
  }

  /** Never null; {@link EventActions#empty()} when the event does nothing besides its content. */
  @JsonProperty("actions")
  public EventActions actions() {
    return actions;
  }

  /** Whether this is a streamed chunk; partial events are never stored. */
  @JsonProperty("partial")
  public Optional<Boolean> partial() {
    return Optional.ofNullable(partial);
  }

  /** The agent path, {@code parent.child}, of the branch that produced the event. */
  @JsonProperty("branch")
  public Optional<String> branch() {
    return Optional.ofNullable(branch);
  }

  /** Epoch milliseconds. */
  @JsonProperty("timestamp")
  public long timestamp() {
    return timestamp;
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

  /**
   * The tokens the model call that produced this event used (prompt, answer, total, and where the
   * provider reports them thoughts and cached tokens), as its {@code LlmResponse} reported them;
   * empty for events no model produced.
   */
  @JsonProperty("usageMetadata")
  public Optional<com.google.genai.types.GenerateContentResponseUsageMetadata> usageMetadata() {
    return Optional.ofNullable(usageMetadata);
  }

  /**
   * The ids of this event's function calls that are long-running (calls of a {@code
   * LongRunningFunctionTool}, or an {@code adk_request_confirmation} call asking a person): the
   * invocation paused on them, and a function response from the client, sent as a new message,
   * resumes it. Empty when there are none.
   */
  @JsonProperty("longRunningToolIds")
  public Optional<Set<String>> longRunningToolIds() {
    return Optional.ofNullable(longRunningToolIds);
  }

  /**
   * The output of the workflow node that produced this event (ADK 2.0's {@code Event.output}): JSON
   * data (a string, number, boolean, list or map), set on a node's completion event; empty for
   * other events.
   */
  @JsonProperty("output")
  public Optional<Object> output() {
    return Optional.ofNullable(output);
  }

  /**
   * The workflow node that produced this event (ADK 2.0's {@code Event.node_info}): its path from
   * the root workflow and the run it belongs to; empty for events outside a workflow node.
   */
  @JsonProperty("nodeInfo")
  public Optional<NodeInfo> nodeInfo() {
    return Optional.ofNullable(nodeInfo);
  }

  /**
   * Whether this event names a long-running call ({@link #longRunningToolIds()} is present and not
   * empty), so the invocation paused on it. As in ADK for Java, the ids are not checked against the
   * event's own function calls: an event the flow builds names only its own calls.
   */
  @JsonIgnore
  public boolean hasPendingLongRunningToolCall() {
    return longRunningToolIds != null && !longRunningToolIds.isEmpty();
  }

  /** The function calls in the content, in order. */
  @JsonIgnore
  public List<FunctionCall> functionCalls() {
    List<FunctionCall> calls = new ArrayList<>();
    for (Part part : parts()) {
      part.functionCall().ifPresent(calls::add);
    }
    return calls;
  }

  /** The function responses in the content, in order. */
  @JsonIgnore
  public List<FunctionResponse> functionResponses() {
    List<FunctionResponse> responses = new ArrayList<>();
    for (Part part : parts()) {
      part.functionResponse().ifPresent(responses::add);
    }
    return responses;
  }

  /** Whether the last part of the content is a code execution result. */
  @JsonIgnore
  public boolean hasTrailingCodeExecutionResult() {
    List<Part> parts = parts();
    return !parts.isEmpty() && parts.get(parts.size() - 1).codeExecutionResult().isPresent();
  }

  /**
   * Whether this event is a final response of its agent, as in ADK: a tool result that skips
   * summarization, a call the invocation paused on ({@link #hasPendingLongRunningToolCall()}), or
   * an event that is not partial and holds no function call, no function response and no trailing
   * code execution result.
   */
  @JsonIgnore
  public boolean finalResponse() {
    if (actions.skipSummarization().orElse(false) || hasPendingLongRunningToolCall()) {
      return true;
    }
    return functionCalls().isEmpty()
        && functionResponses().isEmpty()
        && !partial().orElse(false)
        && !hasTrailingCodeExecutionResult();
  }

  /** The joined text of the content's non-thought text parts; empty if there is none. */
  @JsonIgnore
  public String stringifyContent() {
    StringBuilder sb = new StringBuilder();
    for (Part part : parts()) {
      if (part.thought().orElse(false)) {
        continue;
      }
      part.text().ifPresent(sb::append);
    }
    return sb.toString();
  }

  private List<Part> parts() {
    return content == null ? List.of() : content.parts().orElse(List.of());
  }

  /** The event as JSON, with camelCase field names. */
  public String toJson() {
    return Json.toJson(this);
  }

  /** Reads an event written by {@link #toJson()}. */
  public static Event fromJson(String json) {
    return Json.fromJson(json, Event.class);
  }

  /** ADK's {@code Event.fromJsonString(json, Event.class)}: the same as {@link #fromJson}. */
  public static Event fromJsonString(String json, Class<Event> type) {
    return Json.fromJson(json, type);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Event)) {
      return false;
    }
    Event that = (Event) o;
    return timestamp == that.timestamp
        && id.equals(that.id)
        && Objects.equals(invocationId, that.invocationId)
        && Objects.equals(author, that.author)
        && Objects.equals(content, that.content)
        && actions.equals(that.actions)
        && Objects.equals(partial, that.partial)
        && Objects.equals(branch, that.branch)
        && Objects.equals(turnComplete, that.turnComplete)
        && Objects.equals(errorCode, that.errorCode)
        && Objects.equals(errorMessage, that.errorMessage)
        && Objects.equals(usageMetadata, that.usageMetadata)
        && Objects.equals(output, that.output)
        && Objects.equals(nodeInfo, that.nodeInfo)
        && sameModelFields(that)
        && Objects.equals(longRunningToolIds, that.longRunningToolIds);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, invocationId, author, content, actions, branch, timestamp);
  }

  /**
   * The event as JSON ({@link #toJson()}), except that the value of every {@code secret:} key of
   * its delta is shown as {@link dev.adk4j.state.State#REDACTED}: safe to log.
   */
  @Override
  public String toString() {
    return actions.hasSecrets()
        ? toBuilder().actions(actions.redacted()).build().toJson()
        : toJson();
  }

  /** Builds an {@link Event}. Not thread-safe. */
  @JsonPOJOBuilder(withPrefix = "")
  public static final class Builder extends ModelResponseFields.Builder<Builder> {
    private @Nullable String id;
    private @Nullable String invocationId;
    private @Nullable String author;
    private @Nullable Content content;
    private @Nullable EventActions actions;
    private @Nullable Boolean partial;
    private @Nullable String branch;
    private @Nullable Long timestamp;
    private @Nullable Boolean turnComplete;
    private @Nullable String errorCode;
    private @Nullable String errorMessage;
    private com.google.genai.types.@Nullable GenerateContentResponseUsageMetadata usageMetadata;
    private @Nullable Set<String> longRunningToolIds;
    private @Nullable Object output;
    private @Nullable NodeInfo nodeInfo;

    private Builder() {}

    @Override
    protected Builder self() {
      return this;
    }

    @JsonProperty("id")
    public Builder id(@Nullable String id) {
      this.id = id;
      return this;
    }

    @JsonProperty("invocationId")
    public Builder invocationId(@Nullable String invocationId) {
      this.invocationId = invocationId;
      return this;
    }

    @JsonProperty("author")
    public Builder author(@Nullable String author) {
      this.author = author;
      return this;
    }

    @JsonProperty("content")
    public Builder content(@Nullable Content content) {
      this.content = content;
      return this;
    }

    @JsonProperty("actions")
    public Builder actions(@Nullable EventActions actions) {
      this.actions = actions;
      return this;
    }

    @JsonProperty("partial")
    public Builder partial(@Nullable Boolean partial) {
      this.partial = partial;
      return this;
    }

    @JsonProperty("branch")
    public Builder branch(@Nullable String branch) {
      this.branch = branch;
      return this;
    }

    /** Epoch milliseconds. */
    @JsonProperty("timestamp")
    public Builder timestamp(long timestamp) {
      this.timestamp = timestamp;
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
    public Builder errorCode(com.google.genai.types.@Nullable FinishReason finishReason) {
      return errorCode(finishReason == null ? (String) null : finishReason.toString());
    }

    @JsonProperty("errorMessage")
    public Builder errorMessage(@Nullable String errorMessage) {
      this.errorMessage = errorMessage;
      return this;
    }

    /** The model call's token usage (see the accessor). */
    @JsonProperty("usageMetadata")
    public Builder usageMetadata(
        com.google.genai.types.@Nullable GenerateContentResponseUsageMetadata usageMetadata) {
      this.usageMetadata = usageMetadata;
      return this;
    }

    /** The ids of the long-running function calls of the content (see the accessor). */
    @JsonProperty("longRunningToolIds")
    public Builder longRunningToolIds(@Nullable Set<String> longRunningToolIds) {
      this.longRunningToolIds = longRunningToolIds;
      return this;
    }

    /** The output of the workflow node that produced the event (see the accessor). */
    @JsonProperty("output")
    public Builder output(@Nullable Object output) {
      this.output = output;
      return this;
    }

    /** The workflow node that produced the event (see the accessor). */
    @JsonProperty("nodeInfo")
    public Builder nodeInfo(@Nullable NodeInfo nodeInfo) {
      this.nodeInfo = nodeInfo;
      return this;
    }

    public Event build() {
      return new Event(this);
    }
  }
}
