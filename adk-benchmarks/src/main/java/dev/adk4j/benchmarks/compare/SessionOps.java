package dev.adk4j.benchmarks.compare;

import org.jspecify.annotations.Nullable;

/**
 * Session operations on one implementation's in-memory session service, in terms of the {@link
 * Workload}: sessions, events and session copies are opaque handles, so that a benchmark body is
 * the same for both sides. Every operation completes before it returns (the services are
 * synchronous in memory). One instance is one fresh service; not thread-safe.
 */
public interface SessionOps {

  /**
   * A fresh in-memory service of {@code impl} ({@link Workload#ADK4J} or {@link
   * Workload#ADK_JAVA}).
   */
  static SessionOps create(String impl) {
    switch (impl) {
      case Workload.ADK4J:
        return new Adk4jSessions();
      case Workload.ADK_JAVA:
        return new AdkJavaSessions();
      default:
        throw new IllegalArgumentException("unknown implementation " + impl);
    }
  }

  /** Creates an empty session of {@link Workload#USER} with this id; returns the caller's copy. */
  Object createSession(String sessionId);

  void deleteSession(String sessionId);

  /**
   * Builds the standard event number {@code n} (see {@link #prebuild}) here, with a fresh id from
   * the implementation's own generator and the current time, and appends it to {@code session} (a
   * copy returned by {@link #createSession} or {@link #getSession}, updated by the append).
   *
   * @return the event as the service returns it
   */
  Object appendNew(Object session, int n);

  /**
   * The standard event number {@code n}, built once: author {@link Workload#AUTHOR}, a text
   * content, and a delta of {@link Workload#SESSION_KEY} = n, {@link Workload#USER_KEY} and {@link
   * Workload#APP_KEY}; id {@code eventId}.
   */
  Object prebuild(int n, String eventId);

  /** Appends a prebuilt event as it is; returns the event as the service returns it. */
  Object append(Object session, Object event);

  /** The session with all its events; fails if there is none. */
  Object getSession(String sessionId);

  /** The session with its last {@code count} events ({@code numRecentEvents}). */
  Object getRecentEvents(String sessionId, int count);

  int eventCount(Object session);

  /** The value of {@code key} (prefixed or not) in the session copy's merged state. */
  @Nullable Object stateValue(Object session, String key);

  /** The text of the session copy's last event. */
  String lastEventText(Object session);
}
