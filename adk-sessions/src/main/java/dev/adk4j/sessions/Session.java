package dev.adk4j.sessions;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.state.Scope;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
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
 * <p>Thread-safe: the state map is concurrent, and {@link #events()} is an immutable list that an
 * append replaces (through a volatile field) with a longer one.
 */
@JsonDeserialize(builder = Session.Builder.class)
public final class Session {

  private final String id;
  private final String appName;
  private final String userId;

  /**
   * The frozen state this copy was read with (immutable, shared with the store and other copies),
   * or {@link StateSnapshot#EMPTY} for a copy that owns its state from the start.
   */
  private final StateSnapshot sharedState;

  /**
   * This copy's own state, made from {@link #sharedState} by the first call that needs it ({@link
   * #stateMap()}), each value a mutable copy; null until then. Written only by this package's
   * services (an append through this copy, the secrets store).
   */
  private volatile @Nullable ConcurrentHashMap<String, Object> ownState;

  /** {@link #state()}; also the lock under which {@link #ownState} is made. */
  private final ReadOnlyStateMap readOnlyState;

  /**
   * What {@link #events()} returns: an immutable list, replaced by each append through this copy.
   * Either the list this copy was made with, or a {@link #prefix} of {@link #ownEvents}.
   */
  private volatile List<Event> events;

  /**
   * The array this copy appends into: null until its first append, which copies {@link #events}
   * into it; then written by this copy only (its appends are serialized by its monitor), and only
   * past the end of every list {@link #events()} has returned, which therefore never change.
   */
  private Event @Nullable [] ownEvents;

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
        StateSnapshot.EMPTY,
        new ConcurrentHashMap<>(b.state), // the builder's map holds no null values
        prefix(b.events, b.eventCount),
        b.lastUpdateTime != null ? b.lastUpdateTime : Instant.EPOCH,
        b.revision);
  }

  /**
   * A copy read by a store, without a builder's copies: it reads {@code state}, shared, until it
   * needs a map of its own, and shares {@code events}, which must be immutable (as a {@link
   * #prefix} is). The ids are the stored ones, checked when the session was created.
   */
  Session(
      String id,
      String appName,
      String userId,
      StateSnapshot state,
      List<Event> events,
      Instant lastUpdateTime,
      long revision) {
    this(id, appName, userId, state, null, events, lastUpdateTime, revision);
  }

  private Session(
      String id,
      String appName,
      String userId,
      StateSnapshot sharedState,
      @Nullable ConcurrentHashMap<String, Object> ownState,
      List<Event> events,
      Instant lastUpdateTime,
      long revision) {
    this.id = id;
    this.appName = appName;
    this.userId = userId;
    this.sharedState = sharedState;
    this.ownState = ownState;
    this.readOnlyState = new ReadOnlyStateMap(this);
    this.events = events;
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
   * This copy's own state map, made at the first call from the shared state it was read with, each
   * value a mutable copy ({@link Json#copy}): what an eagerly copied read would have held. For this
   * package's services, which write it (an append through this copy, the secrets store), and for
   * the reads of {@link #state()} that hand out a map or list value or a view: from then on they
   * are this map's. Nothing outside the sessions package writes a copy's state.
   *
   * <p>Kept lazy for the in-memory {@code getSession} (issue 25's simplicity budget): see {@link
   * ReadOnlyStateMap} for the figures.
   */
  ConcurrentMap<String, Object> stateMap() {
    ConcurrentHashMap<String, Object> own = ownState;
    if (own != null) {
      return own;
    }
    synchronized (readOnlyState) { // not this copy's monitor, which appends hold while they store
      own = ownState;
      if (own == null) {
        Map<String, Object> shared = sharedState.entries;
        own = new ConcurrentHashMap<>(Math.max(4, shared.size()));
        for (Map.Entry<String, Object> e : shared.entrySet()) {
          own.put(e.getKey(), java.util.Objects.requireNonNull(Json.copy(e.getValue()), "value"));
        }
        ownState = own; // published whole
      }
      return own;
    }
  }

  /** The state as it is now, for reads that hand out no value that could be changed. */
  Map<String, Object> currentState() {
    ConcurrentHashMap<String, Object> own = ownState;
    return own != null ? own : sharedState.entries;
  }

  /**
   * The state for a read that hands out every value ({@code forEach}): the shared state while it
   * holds no map or list, otherwise {@link #stateMap()}.
   */
  Map<String, Object> stateToIterate() {
    ConcurrentHashMap<String, Object> own = ownState;
    return own != null ? own : sharedState.containers ? stateMap() : sharedState.entries;
  }

  /** The value of {@code key}: a map or list value from {@link #stateMap()}, as this copy's own. */
  @Nullable Object stateValue(Object key) {
    ConcurrentHashMap<String, Object> own = ownState;
    if (own != null) {
      return own.get(key);
    }
    Object value = sharedState.entries.get(key);
    return StateSnapshot.isContainer(value) ? stateMap().get(key) : value;
  }

  /** Whether the state may hold a {@code secret:} key (false: it certainly holds none). */
  boolean mayHoldSecrets() {
    return ownState != null || sharedState.secrets;
  }

  /** ADK for Java's {@code sessionKey()}: this session's app name, user id and id. */
  public SessionKey sessionKey() {
    return new SessionKey(appName(), userId(), id());
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
    return events;
  }

  /**
   * The first {@code size} events of {@code array}, as an immutable list that writes to {@code
   * array} at {@code size} and beyond do not change: how a store or a copy shares its events
   * without copying them (it appends past the end of every list it handed out, and into a new array
   * when the old one is full).
   */
  static List<Event> prefix(Event[] array, int size) {
    return Collections.unmodifiableList(Arrays.asList(array).subList(0, size));
  }

  /** {@code array} if it has room for an event at {@code size}, else a copy twice as large. */
  static Event[] withRoom(Event[] array, int size) {
    return size < array.length ? array : Arrays.copyOf(array, Math.max(8, 2 * size));
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
    ConcurrentHashMap<String, Object> own = ownState;
    ConcurrentHashMap<String, Object> copied = null;
    if (own != null) {
      copied = new ConcurrentHashMap<>(Math.max(4, own.size()));
      for (Map.Entry<String, Object> e : own.entrySet()) {
        copied.put(e.getKey(), java.util.Objects.requireNonNull(Json.copy(e.getValue()), "value"));
      }
    }
    return new Session(id, appName, userId, sharedState, copied, events, lastUpdateTime, revision);
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
        if (currentState().containsKey(k)) {
          stateMap().remove(k);
        }
      } else if (currentState().get(k) != v) {
        stateMap().put(k, v);
      }
    }
    List<Event> before = events;
    int n = before.size();
    Event[] own = ownEvents;
    own = own == null ? before.toArray(new Event[Math.max(8, 2 * n)]) : withRoom(own, n);
    own[n] = stored;
    ownEvents = own;
    events = prefix(own, n + 1); // published after the event is written
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
        + dev.adk4j.state.State.redacted(currentState())
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

    /** The events given so far: the first {@link #eventCount} of this array. */
    private Event[] events = new Event[0];

    private int eventCount;
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

    /** The events, copied, replacing any given before. */
    @JsonProperty("events")
    public Builder events(@Nullable List<Event> events) {
      this.events = new Event[0];
      this.eventCount = 0;
      return events == null ? this : addEvents(events);
    }

    /**
     * Adds {@code more} after the events given so far. A session built before keeps its events: the
     * builder writes only past them.
     */
    public Builder addEvents(List<Event> more) {
      int n = eventCount;
      if (n + more.size() > events.length) {
        events = Arrays.copyOf(events, Math.max(8, Math.max(2 * n, n + more.size())));
      }
      for (Event e : more) {
        events[n++] = java.util.Objects.requireNonNull(e, "event");
      }
      eventCount = n;
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
