package dev.adk4j.agents;

import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.functions.Consumer;

/** Helpers for consuming agents' event flows inside other agents. */
final class Flows {
  private Flows() {}

  /**
   * Hands every event of {@code events} to {@code onEvent} in order, then rethrows the flow's
   * error, if any. Unlike {@code blockingForEach}, which throws an error as soon as it arrives, no
   * event emitted before the error is dropped.
   */
  static <T> void forEach(Flowable<T> events, Consumer<? super T> onEvent) {
    Throwable[] failure = new Throwable[1];
    events.blockingSubscribe(onEvent, e -> failure[0] = e);
    if (failure[0] != null) {
      sneakyThrow(failure[0]);
    }
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> void sneakyThrow(Throwable t) throws E {
    throw (E) t;
  }
}
