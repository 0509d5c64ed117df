package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import dev.adk4j.internal.Json;
import dev.adk4j.internal.Text;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The size limits every session service applies, the same way, so that a test on {@link
 * InMemorySessionService} predicts what a database will accept: a state value and a stored event
 * (without {@code temp:} keys) are measured as UTF-8 JSON written by {@link Json#writer()}, and one
 * over its limit is refused with an {@link IllegalArgumentException} naming the key or event and
 * the session, before anything is stored.
 *
 * <p>The defaults are 1 MiB for a value and 4 MiB for an event. {@link DatabaseSessionConfig} sets
 * them for a database; {@link InMemorySessionService#InMemorySessionService(SessionLimits)} for
 * memory; {@link StoreBackedSessionService#StoreBackedSessionService(SessionStore, SessionLimits)}
 * for any other store. An increment's result is not measured (it is an integer).
 *
 * <p>Immutable.
 */
public final class SessionLimits {

  /** 1 MiB. */
  public static final int DEFAULT_MAX_VALUE_BYTES = 1 << 20;

  /** 4 MiB. */
  public static final int DEFAULT_MAX_EVENT_BYTES = 4 << 20;

  /**
   * The longest app name, user id or session id of a new session, in bytes of UTF-8 (a fixed bound,
   * the same for every service): three such ids and a state key ({@link
   * dev.adk4j.state.State#MAX_KEY_BYTES}) fit in one PostgreSQL index entry.
   */
  public static final int MAX_ID_BYTES = 512;

  private static final SessionLimits DEFAULTS =
      new SessionLimits(DEFAULT_MAX_VALUE_BYTES, DEFAULT_MAX_EVENT_BYTES);

  private final int maxValueBytes;
  private final int maxEventBytes;

  private SessionLimits(int maxValueBytes, int maxEventBytes) {
    if (maxValueBytes < 1) {
      throw new IllegalArgumentException("maxValueBytes must be >= 1, got " + maxValueBytes);
    }
    if (maxEventBytes < 1) {
      throw new IllegalArgumentException("maxEventBytes must be >= 1, got " + maxEventBytes);
    }
    this.maxValueBytes = maxValueBytes;
    this.maxEventBytes = maxEventBytes;
  }

  /** 1 MiB per value, 4 MiB per event. */
  public static SessionLimits defaults() {
    return DEFAULTS;
  }

  /**
   * @throws IllegalArgumentException if a limit is below 1
   */
  public static SessionLimits of(int maxValueBytes, int maxEventBytes) {
    return new SessionLimits(maxValueBytes, maxEventBytes);
  }

  /** The largest state value, in bytes of UTF-8 JSON. */
  public int maxValueBytes() {
    return maxValueBytes;
  }

  /** The largest stored event, in bytes of UTF-8 JSON. */
  public int maxEventBytes() {
    return maxEventBytes;
  }

  /**
   * Refuses a normalized value over {@link #maxValueBytes()}.
   *
   * @param where the session, as {@link SessionException#describe}; built only for an error
   * @return a bound of the size of {@code values} as a JSON object ({@link JsonSizes#valueAtMost})
   */
  long checkValues(Map<String, @Nullable Object> values, Supplier<String> where) {
    long atMost = 2;
    for (Map.Entry<String, @Nullable Object> e : values.entrySet()) {
      atMost += checkValue(e.getKey(), e.getValue(), where);
    }
    return atMost;
  }

  /**
   * {@link #checkValues} of one entry.
   *
   * @return a bound of the entry's size in a JSON object, separator included
   */
  long checkValue(String key, @Nullable Object value, Supplier<String> where) {
    long valueAtMost = JsonSizes.valueAtMost(value);
    if (value != null && valueAtMost > maxValueBytes) {
      check(value, maxValueBytes, "maxValueBytes", "State value for key '" + key + "'", where);
    }
    return JsonSizes.stringAtMost(key) + 2 + valueAtMost;
  }

  /**
   * {@link #checkValues} of {@code storedDelta}, then {@link #checkEvent} of {@code stored} (whose
   * state delta is {@code storedDelta}): each value is bounded once, for both checks.
   */
  void checkAppend(
      Map<String, @Nullable Object> storedDelta, Event stored, Supplier<String> where) {
    checkEvent(stored, checkValues(storedDelta, where), where);
  }

  /**
   * Refuses {@code stored} over {@link #maxEventBytes()}, given a bound of its state delta's size
   * as {@link #checkValues} returns it.
   */
  void checkEvent(Event stored, long deltaAtMost, Supplier<String> where) {
    if (JsonSizes.eventAtMost(stored, deltaAtMost) > maxEventBytes) {
      check(stored, maxEventBytes, "maxEventBytes", "Event '" + stored.id() + "'", where);
    }
  }

  /** Writes {@code value} to measure it, and refuses it if it is over {@code limit}. */
  private static void check(
      Object value, int limit, String setting, String what, Supplier<String> where) {
    long bytes = Text.utf8Length(Json.toJson(value));
    if (bytes > limit) {
      throw new IllegalArgumentException(
          what
              + " of "
              + where.get()
              + " is "
              + bytes
              + " bytes as JSON, over the limit of "
              + limit
              + " bytes ("
              + setting
              + "); nothing was stored");
    }
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof SessionLimits
        && ((SessionLimits) o).maxValueBytes == maxValueBytes
        && ((SessionLimits) o).maxEventBytes == maxEventBytes;
  }

  @Override
  public int hashCode() {
    return 31 * maxValueBytes + maxEventBytes;
  }

  @Override
  public String toString() {
    return "SessionLimits{maxValueBytes="
        + maxValueBytes
        + ", maxEventBytes="
        + maxEventBytes
        + "}";
  }
}
