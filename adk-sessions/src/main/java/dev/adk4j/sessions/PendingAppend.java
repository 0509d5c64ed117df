package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.state.Scope;
import dev.adk4j.state.State;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * An append as a {@link SessionStore} gets it from {@link StoreBackedSessionService}: checked,
 * normalized and within {@link SessionLimits}; what to store, and the conditions under which to
 * store it. Values are immutable (frozen) and may be kept as they are. See {@link
 * SessionStore#append} for what a store does with it; the methods that build exceptions give every
 * store the same messages.
 *
 * <p>Made by the service only. Immutable.
 */
public final class PendingAppend {

  private final String appName;
  private final String userId;
  private final String sessionId;
  private final Event event;
  private final @Nullable Object storedAs;
  private final Map<String, @Nullable Object> fullDelta;
  private final Map<String, @Nullable Object> stored;

  /** {@link #stored} split by scope, made on first use: the in-memory store never asks. */
  private volatile Scope.@Nullable Split delta;

  private final Map<String, @Nullable Object> expected;
  private final Map<String, Long> increments;
  private final Map<String, @Nullable Object> secrets;

  PendingAppend(
      Session session,
      Event event,
      Map<String, @Nullable Object> fullDelta,
      Map<String, @Nullable Object> stored,
      Map<String, @Nullable Object> expected,
      Map<String, Long> increments,
      Map<String, @Nullable Object> secrets) {
    this.appName = session.appName();
    this.userId = session.userId();
    this.sessionId = session.id();
    this.storedAs = session.storedAs();
    this.event = event;
    this.fullDelta = fullDelta;
    this.stored = stored;
    this.expected = expected;
    this.increments = increments;
    this.secrets = secrets;
  }

  private PendingAppend(PendingAppend from, Scope.Split delta) {
    this.appName = from.appName;
    this.userId = from.userId;
    this.sessionId = from.sessionId;
    this.storedAs = from.storedAs;
    this.event = from.event;
    this.fullDelta = from.fullDelta;
    Map<String, @Nullable Object> all = new LinkedHashMap<>(delta.app());
    all.putAll(delta.user());
    all.putAll(delta.session());
    this.stored = java.util.Collections.unmodifiableMap(all);
    this.delta = delta;
    this.expected = from.expected;
    this.increments = from.increments;
    this.secrets = Map.of();
  }

  /**
   * The {@code secret:} keys of the delta (frozen values, {@code null} removes): never handed to a
   * store in clear, but kept by the service's {@link SecretKeepingStore}.
   */
  Map<String, @Nullable Object> secrets() {
    return secrets;
  }

  /** This append with {@code delta} to store instead, and no secrets left to keep. */
  PendingAppend withDelta(Scope.Split delta) {
    return new PendingAppend(this, delta);
  }

  public String appName() {
    return appName;
  }

  public String userId() {
    return userId;
  }

  public String sessionId() {
    return sessionId;
  }

  /** The store's record of the session, from the copy the append was made through; or null. */
  @Nullable Object storedAs() {
    return storedAs;
  }

  /**
   * The event to store: without {@code temp:} keys, expectations or increments, its delta values
   * frozen. When {@link #increments()} produced values, store {@link #eventWith(Map)} instead.
   */
  public Event event() {
    return event;
  }

  /**
   * The stored delta split by scope ({@code null} values remove); no {@code temp:} keys, and no
   * {@code secret:} keys in clear (with an encryption key configured, the session part holds them
   * encrypted, as strings).
   */
  public Scope.Split delta() {
    Scope.Split split = delta;
    if (split == null) {
      split = Scope.split(stored);
      delta = split; // a race computes the same immutable value twice
    }
    return split;
  }

  /**
   * The stored delta, all scopes in one map ({@code null} values remove); no {@code temp:} keys.
   */
  Map<String, @Nullable Object> storedDelta() {
    return stored;
  }

  /**
   * The values keys must hold for the append to go on ({@code null}: the key must be absent), of
   * any scope; no {@code temp:} keys.
   */
  public Map<String, @Nullable Object> expected() {
    return expected;
  }

  /** The amounts to add to keys' stored values, of any scope; no {@code temp:} keys. */
  public Map<String, Long> increments() {
    return increments;
  }

  /** Whether the store must read keys before writing them: there are expectations or increments. */
  public boolean isConditional() {
    return !expected.isEmpty() || !increments.isEmpty();
  }

  /** The event's timestamp in epoch millis: the session's last update time after the append. */
  public long timestamp() {
    return event.timestamp();
  }

  /**
   * Whether the event is a compaction (the latest one is where {@code fromLatestCompaction} reads
   * from).
   */
  public boolean isCompaction() {
    return event.actions().compaction().isPresent();
  }

  /** {@link #event()} with the values {@code resolved} by the increments in its delta. */
  public Event eventWith(Map<String, Object> resolved) {
    return Appends.withResolved(event, resolved);
  }

  /**
   * The value of an increment of {@code key} over its stored value {@code current} ({@code null}:
   * absent, counted as 0).
   *
   * @throws IllegalArgumentException naming the key and the session if {@code current} is not an
   *     integer or the sum overflows; nothing may then be stored
   */
  public Object incremented(String key, @Nullable Object current) {
    Long amount = increments.get(key);
    if (amount == null) {
      throw new IllegalArgumentException("No increment of key '" + key + "' in this append");
    }
    try {
      return State.incremented(key, current, amount);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          e.getMessage() + " (" + describe() + "); nothing was stored", e);
    }
  }

  /**
   * The error of an expectation that does not hold: {@code key} was expected to hold {@code
   * expected().get(key)} and holds {@code actual} ({@code null}: absent).
   */
  public StateConflictException conflict(String key, @Nullable Object actual) {
    return new StateConflictException(
        appName, userId, sessionId, key, expected.get(key), Json.copy(actual), event.id());
  }

  /** The error of an append whose event id the session already holds. */
  public IllegalArgumentException duplicateEvent() {
    return Appends.duplicateEvent(event.id(), describe());
  }

  /** The session, for messages: {@code session 'id' of user 'user' in app 'app'}. */
  public String describe() {
    return SessionException.describe(appName, userId, sessionId);
  }

  /** The full delta ({@code temp:} keys included), for the caller's copy. */
  Map<String, @Nullable Object> fullDelta() {
    return fullDelta;
  }

  /** The full delta with the values {@code resolved} by increments. */
  Map<String, @Nullable Object> fullDeltaWith(Map<String, Object> resolved) {
    if (resolved.isEmpty()) {
      return fullDelta;
    }
    Map<String, @Nullable Object> out = new LinkedHashMap<>(fullDelta);
    out.putAll(resolved);
    return out;
  }

  @Override
  public String toString() {
    return "PendingAppend{event=" + event.id() + ", " + describe() + "}";
  }
}
