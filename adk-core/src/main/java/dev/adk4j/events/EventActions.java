package dev.adk4j.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import dev.adk4j.state.State;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What an event does besides carrying content: the state changes it makes ({@link #stateDelta()}),
 * the artifact versions it saved, and control flow (transfer to another agent, escalation out of a
 * loop, skipping summarization of a tool result).
 *
 * <p>Immutable; use {@link #toBuilder()} to derive a changed copy. In {@link #stateDelta()} a
 * {@code null} value means the key is removed; builders also accept {@link State#REMOVED} for maps
 * that cannot hold {@code null}.
 *
 * <p>Two more maps tell the session service how to apply the delta; they are not part of the stored
 * event. {@link #expectedState()} holds, for each read-modify-write in the delta, the value the key
 * had when it was read: the append fails with a conflict if the stored value differs. {@link
 * #stateIncrements()} holds keys to be incremented atomically by the store: their stored delta
 * records the value the store computed.
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
  private final @Nullable String rewindBeforeInvocationId;
  private final Map<String, @Nullable Object> expectedState;
  private final Map<String, Long> stateIncrements;
  private final @Nullable EventCompaction compaction;
  private final Map<String, ToolConfirmation> requestedToolConfirmations;
  private final @Nullable String route;
  // ADK for Java's fields (see their accessors)
  private final @Nullable Boolean endInvocation;
  private final boolean endOfAgent;
  private final Map<String, Map<String, Object>> requestedAuthConfigs;
  private final Set<String> deletedArtifactIds;
  private final @Nullable Map<String, Object> agentState;

  private EventActions(Builder b) {
    this.stateDelta = frozen(b.stateDelta);
    this.artifactDelta = frozen(b.artifactDelta);
    this.transferToAgent = b.transferToAgent;
    this.escalate = b.escalate;
    this.skipSummarization = b.skipSummarization;
    this.rewindBeforeInvocationId = b.rewindBeforeInvocationId;
    this.expectedState = frozen(b.expectedState);
    this.stateIncrements = frozen(b.stateIncrements);
    this.compaction = b.compaction;
    this.requestedToolConfirmations = frozen(b.requestedToolConfirmations);
    this.route = b.route;
    this.endInvocation = b.endInvocation;
    this.endOfAgent = b.endOfAgent;
    this.requestedAuthConfigs = b.requestedAuthConfigs;
    this.deletedArtifactIds = b.deletedArtifactIds;
    this.agentState = b.agentState;
  }

  /**
   * {@code map}, a builder's, read-only: a map the builder filled ({@link LinkedHashMap}, which the
   * builder gives up: {@link Builder#build()} makes it copy before its next write) is wrapped, not
   * copied; one it holds from {@link #toBuilder()} or an earlier build is already read-only. Not
   * {@link Map#copyOf}: a delta holds {@code null} for a removal, and the maps answer queries for a
   * null key with false.
   */
  private static <V> Map<String, V> frozen(Map<String, V> map) {
    if (map.isEmpty()) {
      return Collections.emptyMap();
    }
    return map instanceof LinkedHashMap ? Collections.unmodifiableMap(map) : map;
  }

  /** Actions that do nothing. */
  public static EventActions empty() {
    return EMPTY;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    // These read-only maps are shared until the builder writes one (then it copies it first).
    b.stateDelta = stateDelta;
    b.artifactDelta = artifactDelta;
    b.expectedState = expectedState;
    b.stateIncrements = stateIncrements;
    b.requestedToolConfirmations = requestedToolConfirmations;
    return b.transferToAgent(transferToAgent)
        .escalate(escalate)
        .skipSummarization(skipSummarization)
        .rewindBeforeInvocationId(rewindBeforeInvocationId)
        .compaction(compaction)
        .route(route)
        .adkFields(this);
  }

  /** The state changes, unmodifiable: key to new value, or to {@code null} for a removal. */
  @JsonProperty("stateDelta")
  @JsonInclude(value = JsonInclude.Include.ALWAYS, content = JsonInclude.Include.ALWAYS)
  public Map<String, @Nullable Object> stateDelta() {
    return stateDelta;
  }

  /**
   * The read-modify-writes of the delta: key to the value it had when read ({@code null}: absent).
   * The session service appends the event only if every such key still has that value in storage,
   * and otherwise throws a {@code StateConflictException} and stores nothing. Not stored with the
   * event.
   */
  @JsonIgnore
  public Map<String, @Nullable Object> expectedState() {
    return expectedState;
  }

  /**
   * Keys to increment atomically: key to the amount. The session service adds the amount to the
   * stored value (absent counts as 0) inside the append, and the stored event's {@link
   * #stateDelta()} records the result. Not stored with the event.
   */
  @JsonIgnore
  public Map<String, Long> stateIncrements() {
    return stateIncrements;
  }

  /** The summary this event carries in place of earlier events, if it is a compaction event. */
  @JsonProperty("compaction")
  public Optional<EventCompaction> compaction() {
    return Optional.ofNullable(compaction);
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

  /**
   * The invocation this event rewinds the session to before (a rewind event, as {@code
   * Runner.rewind} appends): its delta restores the session's state, and models no longer see the
   * events from that invocation's first one up to this event.
   */
  @JsonProperty("rewindBeforeInvocationId")
  public Optional<String> rewindBeforeInvocationId() {
    return Optional.ofNullable(rewindBeforeInvocationId);
  }

  /**
   * The confirmations tools of this function-response event asked for: function call id to the
   * request (its hint and payload). The agent then asks the person with an {@code
   * adk_request_confirmation} call and pauses; see {@link ToolConfirmation}.
   */
  @JsonProperty("requestedToolConfirmations")
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public Map<String, ToolConfirmation> requestedToolConfirmations() {
    return requestedToolConfirmations;
  }

  /**
   * The route a workflow node chose (ADK 2.0's {@code EventActions.route}): the outgoing edges
   * labelled with it are taken. Set on the completion event of a classifier or of a node that chose
   * a route; empty otherwise.
   */
  @JsonProperty("route")
  public Optional<String> route() {
    return Optional.ofNullable(route);
  }

  /**
   * ADK for Java's {@code endInvocation}: whether the invocation ends after this event. When an
   * event saying {@code true} is stored (a tool's or callback's actions set it), the agent makes no
   * further model call and workflow agents start no further sub-agent, as for {@code
   * InvocationContext.setEndInvocation(true)}.
   */
  @JsonProperty("endInvocation")
  public Optional<Boolean> endInvocation() {
    return Optional.ofNullable(endInvocation);
  }

  /**
   * ADK for Java's {@code endOfAgent}: whether the agent that wrote this event has finished its run
   * (ADK's resumability marker). Carried and stored; adk4j's own resumption does not need it.
   * Written to JSON only when true, as in ADK.
   */
  @JsonProperty("endOfAgent")
  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  public boolean endOfAgent() {
    return endOfAgent;
  }

  /**
   * ADK for Java's {@code requestedAuthConfigs}: function call id to the authentication
   * configuration a tool asked for (as JSON data). Carried and stored; adk4j's tools do not ask for
   * credentials this way. Unmodifiable.
   */
  @JsonProperty("requestedAuthConfigs")
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public Map<String, Map<String, Object>> requestedAuthConfigs() {
    return requestedAuthConfigs;
  }

  /**
   * ADK for Java's {@code deletedArtifactIds}: the artifacts this event deleted. Carried and
   * stored. Unmodifiable.
   */
  @JsonProperty("deletedArtifactIds")
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public Set<String> deletedArtifactIds() {
    return deletedArtifactIds;
  }

  /**
   * ADK's {@code agentState} (ADK for Python's {@code agent_state}; ADK for Java 1.8 has none): a
   * checkpoint a workflow agent writes of where it is (a loop's round and current sub-agent, say),
   * so that a resumed invocation can go on from there. JSON data, unmodifiable; empty when the
   * event carries none. Carried, compared and stored whole by every session service (as the event's
   * JSON, property {@code agentState}); adk4j's own agents neither write nor read it: a paused
   * invocation resumes from its stored events.
   */
  @JsonProperty("agentState")
  public Optional<Map<String, Object>> agentState() {
    return Optional.ofNullable(agentState);
  }

  /** Whether these actions do nothing at all. */
  @JsonIgnore
  public boolean isEmpty() {
    return stateDelta.isEmpty()
        && stateIncrements.isEmpty()
        && compaction == null
        && artifactDelta.isEmpty()
        && transferToAgent == null
        && escalate == null
        && skipSummarization == null
        && rewindBeforeInvocationId == null
        && route == null
        && requestedToolConfirmations.isEmpty()
        && endInvocation == null
        && !endOfAgent
        && requestedAuthConfigs.isEmpty()
        && deletedArtifactIds.isEmpty()
        && agentState == null;
  }

  /**
   * These actions with {@code other}'s applied on top, as if {@code other}'s step ran after this
   * one: deltas merged (other wins on a shared key), flags taken from {@code other} where it sets
   * them. Increments of one key add up; a plain write in either replaces an increment of the same
   * key by the later value. An expectation of {@code other} on a key this one wrote is dropped (it
   * read this step's write, not storage).
   */
  public EventActions merge(EventActions other) {
    // Merging into or with actions that do nothing changes nothing: no map is copied.
    if (other.isEmpty() && other.expectedState.isEmpty()) {
      return this;
    }
    if (isEmpty() && expectedState.isEmpty()) {
      return other;
    }
    Builder b = toBuilder();
    other.stateDelta.forEach(
        (key, value) -> {
          Long mine = stateIncrements.get(key);
          Long theirs = other.stateIncrements.get(key);
          if (theirs != null && (!stateDelta.containsKey(key) || mine != null)) {
            b.increments().put(key, mine == null ? theirs : Math.addExact(mine, theirs));
          } else if (b.stateIncrements.containsKey(key)) {
            b.increments().remove(key);
          }
          b.delta().put(key, value);
        });
    other.stateIncrements.forEach(
        (key, amount) -> {
          if (!other.stateDelta.containsKey(key)) {
            b.increments().merge(key, amount, Math::addExact);
          }
        });
    other.expectedState.forEach(
        (key, value) -> {
          if (!stateDelta.containsKey(key) && !b.expectedState.containsKey(key)) {
            b.expected().put(key, value);
          }
        });
    if (!other.artifactDelta.isEmpty()) {
      b.artifacts().putAll(other.artifactDelta);
    }
    if (!other.requestedToolConfirmations.isEmpty()) {
      b.confirmations().putAll(other.requestedToolConfirmations);
    }
    b.transferToAgent = other.transferToAgent != null ? other.transferToAgent : transferToAgent;
    b.escalate = other.escalate != null ? other.escalate : escalate;
    b.skipSummarization =
        other.skipSummarization != null ? other.skipSummarization : skipSummarization;
    b.rewindBeforeInvocationId =
        other.rewindBeforeInvocationId != null
            ? other.rewindBeforeInvocationId
            : rewindBeforeInvocationId;
    b.compaction = other.compaction != null ? other.compaction : compaction;
    b.route = other.route != null ? other.route : route;
    b.mergeAdkFields(other);
    if (other.agentState != null) {
      b.agentState = other.agentState;
    }
    return b.build();
  }

  /**
   * ADK's {@code toJson()}: these actions as JSON, as an event holds them when stored (without the
   * expectations and increments, which only travel to the store).
   */
  public String toJson() {
    return dev.adk4j.internal.Json.toJson(this);
  }

  /**
   * ADK's {@code EventActions.fromJsonString(json, EventActions.class)}: reads what {@link
   * #toJson()} wrote.
   *
   * @throws IllegalArgumentException if {@code json} is not such JSON
   */
  public static EventActions fromJsonString(String json, Class<EventActions> type) {
    return dev.adk4j.internal.Json.fromJson(json, type);
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
        && expectedState.equals(that.expectedState)
        && stateIncrements.equals(that.stateIncrements)
        && Objects.equals(compaction, that.compaction)
        && artifactDelta.equals(that.artifactDelta)
        && Objects.equals(transferToAgent, that.transferToAgent)
        && Objects.equals(escalate, that.escalate)
        && Objects.equals(skipSummarization, that.skipSummarization)
        && Objects.equals(rewindBeforeInvocationId, that.rewindBeforeInvocationId)
        && Objects.equals(route, that.route)
        && requestedToolConfirmations.equals(that.requestedToolConfirmations)
        && Objects.equals(endInvocation, that.endInvocation)
        && endOfAgent == that.endOfAgent
        && requestedAuthConfigs.equals(that.requestedAuthConfigs)
        && deletedArtifactIds.equals(that.deletedArtifactIds)
        && Objects.equals(agentState, that.agentState);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        stateDelta,
        expectedState,
        stateIncrements,
        compaction,
        artifactDelta,
        transferToAgent,
        escalate,
        skipSummarization,
        rewindBeforeInvocationId,
        route,
        requestedToolConfirmations);
  }

  /** Whether a map of this object names a {@code secret:} key, whose value must not be shown. */
  boolean hasSecrets() {
    return State.redacted(stateDelta) != stateDelta
        || State.redacted(expectedState) != expectedState
        || State.redacted(stateIncrements) != stateIncrements;
  }

  /**
   * These actions with the value of every {@code secret:} key of the delta shown as {@link
   * State#REDACTED} (for {@code Event.toString}); the maps left out of JSON are dropped.
   */
  EventActions redacted() {
    return toBuilder()
        .stateDelta(State.redacted(stateDelta))
        .expectedState(Map.of())
        .stateIncrements(Map.of())
        .build();
  }

  /** These actions, the value of every {@code secret:} key shown as {@link State#REDACTED}. */
  @Override
  public String toString() {
    StringBuilder sb =
        new StringBuilder("EventActions{stateDelta=").append(State.redacted(stateDelta));
    if (!expectedState.isEmpty()) {
      sb.append(", expectedState=").append(State.redacted(expectedState));
    }
    if (!stateIncrements.isEmpty()) {
      sb.append(", stateIncrements=").append(State.redacted(stateIncrements));
    }
    if (compaction != null) {
      sb.append(", compaction=")
          .append(compaction.startTimestamp())
          .append("..")
          .append(compaction.endTimestamp());
    }
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
    if (rewindBeforeInvocationId != null) {
      sb.append(", rewindBeforeInvocationId=").append(rewindBeforeInvocationId);
    }
    if (!requestedToolConfirmations.isEmpty()) {
      sb.append(", requestedToolConfirmations=").append(requestedToolConfirmations);
    }
    if (route != null) {
      sb.append(", route=").append(route);
    }
    if (endInvocation != null) {
      sb.append(", endInvocation=").append(endInvocation);
    }
    if (endOfAgent) {
      sb.append(", endOfAgent=true");
    }
    if (!requestedAuthConfigs.isEmpty()) {
      sb.append(", requestedAuthConfigs=").append(requestedAuthConfigs.keySet());
    }
    if (!deletedArtifactIds.isEmpty()) {
      sb.append(", deletedArtifactIds=").append(deletedArtifactIds);
    }
    if (agentState != null) {
      sb.append(", agentState=").append(agentState.keySet());
    }
    return sb.append('}').toString();
  }

  /** Builds {@link EventActions}. Not thread-safe; {@link #build()} copies what it holds. */
  @JsonPOJOBuilder(withPrefix = "")
  public static final class Builder {
    // Each map is a LinkedHashMap this builder owns once written, else a read-only map it shares
    // (the empty map: most events write none; one from toBuilder() or an earlier build()). Read
    // directly, written through delta(), artifacts(), expected(), increments(), confirmations(),
    // which copy a shared map first.
    private Map<String, @Nullable Object> stateDelta = Map.of();
    private Map<String, Integer> artifactDelta = Map.of();
    private Map<String, @Nullable Object> expectedState = Map.of();
    private Map<String, Long> stateIncrements = Map.of();
    private Map<String, ToolConfirmation> requestedToolConfirmations = Map.of();
    private @Nullable EventCompaction compaction;
    private @Nullable String transferToAgent;
    private @Nullable Boolean escalate;
    private @Nullable Boolean skipSummarization;
    private @Nullable String rewindBeforeInvocationId;
    private @Nullable String route;
    private @Nullable Boolean endInvocation;
    private boolean endOfAgent;
    private Map<String, Map<String, Object>> requestedAuthConfigs = Map.of();
    private Set<String> deletedArtifactIds = Set.of();
    private @Nullable Map<String, Object> agentState;

    private Builder() {}

    /** {@code map} to write to: itself if this builder owns it, else a copy this builder owns. */
    private static <V> Map<String, V> writable(Map<String, V> map) {
      return map instanceof LinkedHashMap ? map : new LinkedHashMap<>(map);
    }

    private Map<String, @Nullable Object> delta() {
      return stateDelta = writable(stateDelta);
    }

    private Map<String, Integer> artifacts() {
      return artifactDelta = writable(artifactDelta);
    }

    private Map<String, @Nullable Object> expected() {
      return expectedState = writable(expectedState);
    }

    private Map<String, Long> increments() {
      return stateIncrements = writable(stateIncrements);
    }

    private Map<String, ToolConfirmation> confirmations() {
      return requestedToolConfirmations = writable(requestedToolConfirmations);
    }

    /** {@code value} as a delta holds it: {@link State#REMOVED} becomes {@code null}. */
    private static @Nullable Object removalAsNull(@Nullable Object value) {
      return value == State.REMOVED ? null : value;
    }

    /**
     * Replaces the state delta with a copy of {@code delta}; {@code null} or {@link State#REMOVED}
     * values mean removal.
     */
    @JsonProperty("stateDelta")
    public Builder stateDelta(@Nullable Map<String, ? extends @Nullable Object> delta) {
      if (delta == stateDelta && !(delta instanceof LinkedHashMap)) {
        return this; // the read-only delta this builder shares already: nothing to copy
      }
      stateDelta = Map.of();
      if (delta != null && !delta.isEmpty()) {
        Map<String, @Nullable Object> into = delta();
        delta.forEach((k, v) -> into.put(k, removalAsNull(v)));
      }
      return this;
    }

    /**
     * Replaces the state delta, the expected values ({@link #expectedState}) and the increments
     * ({@link #stateIncrements}) with what {@code state} recorded: its {@link State#delta()},
     * {@link State#expectations()} and {@link State#increments()}. The snapshots {@code state}
     * makes are taken over as they are, not copied again; the delta's values are the frozen values
     * {@code state} stored.
     */
    public Builder state(State state) {
      Map<String, @Nullable Object> delta = state.delta();
      stateDelta = delta.isEmpty() ? Map.of() : delta; // a new LinkedHashMap: owned from now on
      Map<String, @Nullable Object> expected = state.expectations();
      expectedState = expected.isEmpty() ? Map.of() : expected; // the same
      stateIncrements = state.increments(); // immutable
      return this;
    }

    /** Adds one entry to the state delta; {@code null} means removal. */
    public Builder putState(String key, @Nullable Object value) {
      delta().put(Objects.requireNonNull(key, "key"), removalAsNull(value));
      return this;
    }

    /** Records a removal of {@code key} in the state delta. */
    public Builder removeState(String key) {
      return putState(key, null);
    }

    /**
     * Replaces the expected values of read-modify-writes (see {@link
     * EventActions#expectedState()}); a {@code null} value means the key was absent when read.
     */
    @JsonIgnore
    public Builder expectedState(@Nullable Map<String, ? extends @Nullable Object> expected) {
      expectedState = Map.of();
      if (expected != null && !expected.isEmpty()) {
        Map<String, @Nullable Object> into = expected();
        expected.forEach((k, v) -> into.put(k, removalAsNull(v)));
      }
      return this;
    }

    /**
     * Makes the append conditional on {@code key} holding {@code value} in storage (null: absent).
     */
    public Builder expectState(String key, @Nullable Object value) {
      expected().put(Objects.requireNonNull(key, "key"), removalAsNull(value));
      return this;
    }

    /** Replaces the atomic increments (see {@link EventActions#stateIncrements()}). */
    @JsonIgnore
    public Builder stateIncrements(@Nullable Map<String, Long> increments) {
      stateIncrements = Map.of();
      if (increments != null && !increments.isEmpty()) {
        Map<String, Long> into = increments();
        increments.forEach((k, v) -> into.put(k, Objects.requireNonNull(v, k)));
      }
      return this;
    }

    /**
     * Increments {@code key} by {@code amount} atomically when the event is appended (added to any
     * increment of the key already set); the stored delta records the resulting value.
     */
    public Builder incrementState(String key, long amount) {
      increments().merge(Objects.requireNonNull(key, "key"), amount, Math::addExact);
      return this;
    }

    /** Makes the event a compaction event carrying {@code compaction}. */
    @JsonProperty("compaction")
    public Builder compaction(@Nullable EventCompaction compaction) {
      this.compaction = compaction;
      return this;
    }

    @JsonProperty("artifactDelta")
    public Builder artifactDelta(@Nullable Map<String, Integer> delta) {
      artifactDelta = Map.of();
      if (delta != null && !delta.isEmpty()) {
        artifacts().putAll(delta);
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

    /** Makes the event a rewind event to before that invocation; see the accessor. */
    @JsonProperty("rewindBeforeInvocationId")
    public Builder rewindBeforeInvocationId(@Nullable String invocationId) {
      this.rewindBeforeInvocationId = invocationId;
      return this;
    }

    /** Replaces the confirmations asked for (see the accessor). */
    @JsonProperty("requestedToolConfirmations")
    public Builder requestedToolConfirmations(
        @Nullable Map<String, ToolConfirmation> confirmations) {
      requestedToolConfirmations = Map.of();
      if (confirmations != null) {
        confirmations.forEach(this::requestToolConfirmation);
      }
      return this;
    }

    /** Records that the tool answering function call {@code functionCallId} asks for {@code c}. */
    public Builder requestToolConfirmation(String functionCallId, ToolConfirmation c) {
      confirmations()
          .put(
              Objects.requireNonNull(functionCallId, "functionCallId"),
              Objects.requireNonNull(c, "c"));
      return this;
    }

    /** The route a workflow node chose (see the accessor). */
    @JsonProperty("route")
    public Builder route(@Nullable String route) {
      this.route = route;
      return this;
    }

    /** ADK for Java's {@code endInvocation} (see the accessor); null leaves it unset. */
    @JsonProperty("endInvocation")
    public Builder endInvocation(@Nullable Boolean endInvocation) {
      this.endInvocation = endInvocation;
      return this;
    }

    /** ADK for Java's {@code endOfAgent} (see the accessor). */
    @JsonProperty("endOfAgent")
    public Builder endOfAgent(boolean endOfAgent) {
      this.endOfAgent = endOfAgent;
      return this;
    }

    /**
     * Replaces the authentication configurations asked for (see the accessor): each is copied as
     * JSON data.
     *
     * @throws IllegalArgumentException if a configuration cannot be written as JSON (naming its
     *     function call id)
     */
    @JsonProperty("requestedAuthConfigs")
    public Builder requestedAuthConfigs(
        @Nullable Map<String, ? extends @Nullable Map<String, ?>> configs) {
      requestedAuthConfigs = Map.of();
      if (configs != null && !configs.isEmpty()) {
        Map<String, Map<String, Object>> into = new LinkedHashMap<>();
        configs.forEach(
            (id, config) ->
                into.put(Objects.requireNonNull(id, "function call id"), authConfig(id, config)));
        requestedAuthConfigs = Collections.unmodifiableMap(into);
      }
      return this;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> authConfig(String id, @Nullable Map<String, ?> config) {
      if (config == null) {
        return Map.of();
      }
      Object copy = dev.adk4j.internal.Json.normalize("requestedAuthConfigs." + id, config);
      return copy instanceof Map
          ? Collections.unmodifiableMap((Map<String, Object>) copy)
          : Map.of();
    }

    /** Replaces the deleted artifacts' names (see the accessor). */
    @JsonProperty("deletedArtifactIds")
    public Builder deletedArtifactIds(@Nullable Set<String> ids) {
      deletedArtifactIds =
          ids == null || ids.isEmpty()
              ? Set.of()
              : Collections.unmodifiableSet(new LinkedHashSet<>(ids));
      return this;
    }

    /**
     * ADK's {@code agentState} (see the accessor): copied as JSON data; null leaves it unset (an
     * empty map is kept, as a checkpoint of nothing).
     *
     * @throws IllegalArgumentException if the map cannot be written as JSON
     */
    @JsonProperty("agentState")
    @SuppressWarnings("unchecked")
    public Builder agentState(@Nullable Map<String, ?> agentState) {
      this.agentState =
          agentState == null
              ? null
              : (Map<String, Object>) dev.adk4j.internal.Json.frozen("agentState", agentState);
      return this;
    }

    /** Takes ADK for Java's fields of {@code a} (for {@link EventActions#toBuilder()}). */
    private Builder adkFields(EventActions a) {
      endInvocation = a.endInvocation;
      endOfAgent = a.endOfAgent;
      requestedAuthConfigs = a.requestedAuthConfigs;
      deletedArtifactIds = a.deletedArtifactIds;
      agentState = a.agentState;
      return this;
    }

    /**
     * Applies ADK for Java's fields of {@code other} on top, as ADK merges them: auth requests and
     * deleted artifacts added up, {@code endInvocation} taken where {@code other} sets it, and
     * {@code endOfAgent} kept once either says so (whatever the order of merging).
     */
    private void mergeAdkFields(EventActions other) {
      if (other.endInvocation != null) {
        endInvocation = other.endInvocation;
      }
      endOfAgent |= other.endOfAgent;
      if (!other.requestedAuthConfigs.isEmpty()) {
        Map<String, Map<String, Object>> into = new LinkedHashMap<>(requestedAuthConfigs);
        into.putAll(other.requestedAuthConfigs);
        requestedAuthConfigs = Collections.unmodifiableMap(into);
      }
      if (!other.deletedArtifactIds.isEmpty()) {
        Set<String> into = new LinkedHashSet<>(deletedArtifactIds);
        into.addAll(other.deletedArtifactIds);
        deletedArtifactIds = Collections.unmodifiableSet(into);
      }
    }

    /**
     * ADK's {@code Builder.merge}: this builder's actions with {@code other}'s applied on top, as
     * {@link EventActions#merge} merges them.
     */
    public Builder merge(EventActions other) {
      EventActions merged = build().merge(Objects.requireNonNull(other, "other"));
      // build() left this builder sharing its maps read-only; take the merged value's the same way
      stateDelta = merged.stateDelta;
      artifactDelta = merged.artifactDelta;
      expectedState = merged.expectedState;
      stateIncrements = merged.stateIncrements;
      requestedToolConfirmations = merged.requestedToolConfirmations;
      compaction = merged.compaction;
      transferToAgent = merged.transferToAgent;
      escalate = merged.escalate;
      skipSummarization = merged.skipSummarization;
      rewindBeforeInvocationId = merged.rewindBeforeInvocationId;
      route = merged.route;
      adkFields(merged);
      return this;
    }

    public EventActions build() {
      EventActions built = new EventActions(this);
      // The built value now holds this builder's maps: share them read-only from here on.
      stateDelta = built.stateDelta;
      artifactDelta = built.artifactDelta;
      expectedState = built.expectedState;
      stateIncrements = built.stateIncrements;
      requestedToolConfirmations = built.requestedToolConfirmations;
      return built;
    }
  }
}
