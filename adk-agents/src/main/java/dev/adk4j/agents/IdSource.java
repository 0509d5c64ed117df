package dev.adk4j.agents;

import dev.adk4j.events.Event;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where an invocation's new ids come from: its invocation id, the ids of the events its agents
 * author, and the ids given to the function calls a model returns without one (and to confirmation
 * requests). By default random ({@link #random()}); a fixed sequence ({@link #sequential(String)})
 * makes a run repeatable, which tests and durable-execution engines that replay a run need. Set it
 * on {@code Runner.builder().idSource(...)} or {@link InvocationContext.Builder#idSource}. Ids must
 * be unique within an app's sessions: a store refuses a second event with an id it holds.
 * Implementations must be thread-safe (parallel agents and tool calls draw ids at once).
 */
public interface IdSource {

  /** A new invocation id. */
  String newInvocationId();

  /** A new event id. */
  String newEventId();

  /** A new function call id (for a call the model returned without one, or a confirmation). */
  String newFunctionCallId();

  /**
   * Random ids, as adk4j gives by default: {@code e-} and a UUID for invocations, a UUID for events
   * ({@link Event#generateEventId()}), {@code adk-} and a UUID for function calls.
   */
  static IdSource random() {
    return RandomIds.INSTANCE;
  }

  /**
   * Ids numbered in the order they are drawn, {@code prefix} first: {@code prefix-invocation-1},
   * {@code prefix-event-1}, {@code prefix-call-1}, then {@code -2}... Each kind counts on its own.
   * Use a prefix unique to the run (the same prefix twice on one session repeats ids, which the
   * store refuses).
   */
  static IdSource sequential(String prefix) {
    java.util.Objects.requireNonNull(prefix, "prefix");
    AtomicLong invocations = new AtomicLong();
    AtomicLong events = new AtomicLong();
    AtomicLong calls = new AtomicLong();
    return new IdSource() {
      @Override
      public String newInvocationId() {
        return prefix + "-invocation-" + invocations.incrementAndGet();
      }

      @Override
      public String newEventId() {
        return prefix + "-event-" + events.incrementAndGet();
      }

      @Override
      public String newFunctionCallId() {
        return prefix + "-call-" + calls.incrementAndGet();
      }

      @Override
      public String toString() {
        return "IdSource.sequential(" + prefix + ")";
      }
    };
  }
}
