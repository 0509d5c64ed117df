package dev.adk4j.agents;

import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.FlowableEmitter;
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

  /**
   * Emits {@code item} to {@code emitter} unless its subscriber has cancelled: how an agent passes
   * on the (already stored) events of its own steps and of the agents it runs.
   */
  static <T> void emit(FlowableEmitter<T> emitter, T item) {
    if (!emitter.isCancelled()) {
      emitter.onNext(item);
    }
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> void sneakyThrow(Throwable t) throws E {
    throw (E) t;
  }
}
