package dev.adk4j.sessions;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.state.Scope;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.jspecify.annotations.Nullable;

/**
 * A copy of one conversation as a session service returned it: its merged state (app ∪ user ∪
 * session keys, prefixes included), its events, when it was last updated and the storage revision
 * it was read at.
 *
 * <p>A {@code Session} is a read-only copy: its {@link #state()} refuses writes and its {@link
 * #events()} (immutable, like each event and the values in its delta) cannot be changed. To change
 * state, append an event ({@code BaseSessionService.appendEvent(session, event)}), which also
 * brings this copy up to date, or write through a {@code CallbackContext} / {@code ToolContext}
 * during an invocation. A copy that falls behind storage (another append happened since it was
 * loaded) is refused by {@code appendEvent} with a {@link StaleSessionException}.
 *
 * <p>Thread-safe: the state map is concurrent and the events an append-only log whose snapshots are
 * immutable.
 */
@JsonDeserialize(builder = Session.Builder.class)
public final class Session {

  private final String id;
  private final String appName;
  private final String userId;
  private final ConcurrentMap<String, Object> state;
  private final ConcurrentMap<String, Object> readOnlyState;
  private final EventLog events;
  private volatile Instant lastUpdateTime;
  private volatile long revision;
  private volatile @Nullable String leaseOwner;

  /**
   * The record of the store that made this copy, which the store may use to find the session again
   * without looking it up by its ids (it checks the record is still its own and live); or null.
   */
  private volatile @Nullable Object storedAs;

  private Session(Builder b) {
    this(
        requireText(b.id, "id"),
        b.appName == null ? "" : b.appName,
        b.userId == null ? "" : b.userId,
        new ConcurrentHashMap<>(b.state), // the builder's map holds no null values
        b.events.snapshot(),
        b.lastUpdateTime != null ? b.lastUpdateTime : Instant.EPOCH,
        b.revision);
  }

  /**
   * A copy read by a store, without a builder's copies: it takes {@code state} (no null values,
   * owned by the new copy from now on) and shares {@code events} when they are a snapshot of an
   * event log. The ids are the stored ones, checked when the session was created.
   */
  Session(
      String id,
      String appName,
      String userId,
      ConcurrentMap<String, Object> state,
      List<Event> events,
      Instant lastUpdateTime,
      long revision) {
    this.id = id;
    this.appName = appName;
    this.userId = userId;
    this.state = state;
    this.readOnlyState = new ReadOnlyStateMap(this, state);
    this.events = EventLog.of(events);
    this.lastUpdateTime = lastUpdateTime;
    this.revision = revision;
  }

  /**
   * A builder for a session with {@code id}; used by session services and tests. As in ADK for
   * Java, the app name and user id may be left unset: they read as the empty string (ADK: {@code
   * null}), and a session service refuses to append to such a session, naming the missing field.
   */
  public static Builder builder(String id) {
    return new Builder().id(id);
  }

  @JsonProperty("id")
  public String id() {
    return id;
  }

  @JsonProperty("appName")
  public String appName() {
    return appName;
  }

  @JsonProperty("userId")
  public String userId() {
    return userId;
  }

  /**
   * The map behind {@link #state()}, for this package's services only (the secrets store fills in a
   * copy's secrets); nothing outside the sessions package writes a copy's state.
   */
  ConcurrentMap<String, Object> stateMap() {
    return state;
  }

  /**
   * The merged state of this copy, read-only: a live view (it follows appends through this copy)
   * whose every mutator throws {@link UnsupportedOperationException}. To change state, write
   * through a {@code CallbackContext} or {@code ToolContext} during an invocation, or append an
   * event with a {@code stateDelta}; see the class comment.
   *
   * <p>{@code secret:} keys are here with their values, for the code of the invocation to read;
   * {@link #toString()} and {@link #toJson()} show them as {@code "***"}.
   */
  @JsonIgnore
  public ConcurrentMap<String, Object> state() {
    return readOnlyState;
  }

  /** The state as JSON writes it: {@code secret:} values redacted. */
  @JsonProperty("state")
  private Map<String, ?> jsonState() {
    return dev.adk4j.state.State.redacted(readOnlyState);
  }

  /**
   * The events of this copy, oldest first, as they are now: an immutable list that later appends
   * through this copy do not change (call again to see them). Taking it costs nothing; events are
   * immutable and may be shared with the service and other copies.
   */
  @JsonProperty("events")
  public List<Event> events() {
    return events.snapshot();
  }

  /** The timestamp of the last appended event, or the creation time. */
  @JsonProperty("lastUpdateTime")
  public Instant lastUpdateTime() {
    return lastUpdateTime;
  }

  /**
   * The storage revision this copy reflects: 0 at creation, bumped by every append. Used to detect
   * stale copies.
   */
  @JsonProperty("revision")
  public long revision() {
    return revision;
  }

  /**
   * The owner of the {@link SessionLease} this copy's appends are made under, if one is attached.
   */
  @JsonIgnore
  public @Nullable String leaseOwner() {
    return leaseOwner;
  }

  void bindLease(@Nullable String owner) {
    this.leaseOwner = owner;
  }

  @Nullable Object storedAs() {
    return storedAs;
  }

  /** Remembers the store's record of this session (see the field); for the store that made it. */
  Session storedAs(Object record) {
    this.storedAs = record;
    return this;
  }

  /**
   * A copy of this session at the same revision: its state values deep-copied, its (immutable)
   * events shared.
   */
  public Session copy() {
    if (state instanceof CopyOnWriteStateMap) { // shares what it can, copies on write
      return new Session(
          id,
          appName,
          userId,
          ((CopyOnWriteStateMap) state).copy(),
          events.snapshot(),
          lastUpdateTime,
          revision);
    }
    Builder b =
        builder(id)
            .appName(appName)
            .userId(userId)
            .events(events.snapshot())
            .lastUpdateTime(lastUpdateTime)
            .revision(revision);
    state.forEach((k, v) -> b.state.put(k, Json.copy(v)));
    return b.build();
  }

  /**
   * Brings this copy up to date after its event was stored: applies the full delta but its {@code
   * temp:} keys (a copy holds stored state only; the invocation keeps its {@code temp:} values in
   * its own live state), adds the stored event and takes the new revision.
   */
  void applyAppended(Event stored, Map<String, @Nullable Object> fullDelta, long newRevision) {
    for (Map.Entry<String, @Nullable Object> e : fullDelta.entrySet()) {
      String k = e.getKey();
      Object v = e.getValue();
      if (Scope.of(k) == Scope.TEMP) {
        continue;
      }
      if (v == null) {
        state.remove(k);
      } else if (state.get(k) != v) {
        state.put(k, v);
      }
    }
    events.add(stored);
    lastUpdateTime = Instant.ofEpochMilli(stored.timestamp());
    revision = newRevision;
  }

  /**
   * The session as JSON, camelCase field names; the value of a {@code secret:} key is written as
   * {@code "***"} (secrets do not leave through JSON).
   */
  public String toJson() {
    return Json.toJson(this);
  }

  /** Reads a session written by {@link #toJson()}. */
  public static Session fromJson(String json) {
    return Json.fromJson(json, Session.class);
  }

  @JsonIgnore
  String describe() {
    return SessionException.describe(appName, userId, id);
  }

  @Override
  public String toString() {
    return "Session{id="
        + id
        + ", appName="
        + appName
        + ", userId="
        + userId
        + ", revision="
        + revision
        + ", lastUpdateTime="
        + lastUpdateTime
        + ", state="
        + dev.adk4j.state.State.redacted(state)
        + ", events="
        + events.size()
        + "}";
  }

  private static String requireText(@Nullable String value, String name) {
    return Appends.requireText(value, name);
  }

  /** Builds a {@link Session}. Not thread-safe. */
  @JsonPOJOBuilder(withPrefix = "")
  public static final class Builder {
    private @Nullable String id;
    private @Nullable String appName;
    private @Nullable String userId;
    private final Map<String, Object> state = new ConcurrentHashMap<>();
    private EventLog events = EventLog.empty();
    private @Nullable Instant lastUpdateTime;
    private long revision;

    private Builder() {}

    @JsonProperty("id")
    public Builder id(String id) {
      this.id = id;
      return this;
    }

    @JsonProperty("appName")
    public Builder appName(String appName) {
      this.appName = appName;
      return this;
    }

    @JsonProperty("userId")
    public Builder userId(String userId) {
      this.userId = userId;
      return this;
    }

    /** The state, copied; null values are skipped. */
    @JsonProperty("state")
    public Builder state(@Nullable Map<String, ? extends @Nullable Object> state) {
      this.state.clear();
      if (state != null) {
        state.forEach(
            (k, v) -> {
              if (v != null) {
                this.state.put(k, v);
              }
            });
      }
      return this;
    }

    /**
     * The events, replacing any given before: a list returned by {@link Session#events()} is shared
     * (it is immutable), any other is copied.
     */
    @JsonProperty("events")
    public Builder events(@Nullable List<Event> events) {
      this.events = events == null ? EventLog.empty() : EventLog.of(events);
      return this;
    }

    /** Adds {@code more} after the events given so far. */
    public Builder addEvents(List<Event> more) {
      for (Event e : more) {
        events.add(java.util.Objects.requireNonNull(e, "event"));
      }
      return this;
    }

    @JsonProperty("lastUpdateTime")
    public Builder lastUpdateTime(@Nullable Instant lastUpdateTime) {
      this.lastUpdateTime = lastUpdateTime;
      return this;
    }

    @JsonProperty("revision")
    public Builder revision(long revision) {
      this.revision = revision;
      return this;
    }

    public Session build() {
      return new Session(this);
    }
  }
}
