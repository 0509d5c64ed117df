package dev.adk4j.agents;

import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.FlowableEmitter;
import io.reactivex.rxjava3.core.FlowableSubscriber;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.functions.Consumer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;

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
   * {@link #forEach}, failing with {@code onTimeout}'s error (after cancelling the flow) when no
   * signal arrives for {@code timeout}: before the first item, or between two. Zero waits for ever.
   *
   * <p>The calling thread waits for each signal with a deadline, so no timer is scheduled per item
   * (RxJava's {@code timeout} operator schedules one on another thread, waking it, for every item
   * of every model call).
   */
  static <T> void forEach(
      Flowable<T> items,
      Duration timeout,
      Supplier<? extends Throwable> onTimeout,
      Consumer<? super T> onItem) {
    forEach(items, timeout, null, onTimeout, onItem);
  }

  /**
   * {@link #forEach(Flowable, Duration, Supplier, Consumer)} with the deadline measured by {@code
   * timers} when given (a test's {@code TestScheduler}): a wait that finds no signal ready
   * schedules one timer there, cancelled when a signal comes first. Null: the calling thread waits
   * with a deadline in real time, with no timer.
   */
  static <T> void forEach(
      Flowable<T> items,
      Duration timeout,
      @Nullable Scheduler timers,
      Supplier<? extends Throwable> onTimeout,
      Consumer<? super T> onItem) {
    if (timeout.isZero()) {
      forEach(items, onItem);
      return;
    }
    BlockingQueue<Object> signals = new LinkedBlockingQueue<>();
    AtomicReference<@Nullable Subscription> subscription = new AtomicReference<>();
    items.subscribe(
        new FlowableSubscriber<T>() {
          @Override
          public void onSubscribe(Subscription s) {
            subscription.set(s);
            s.request(Long.MAX_VALUE);
          }

          @Override
          public void onNext(T item) {
            signals.add(item);
          }

          @Override
          public void onError(Throwable e) {
            signals.add(new Failure(e));
          }

          @Override
          public void onComplete() {
            signals.add(DONE);
          }
        });
    long nanos = Math.max(1, timeout.toNanos());
    Throwable failure = null;
    try {
      while (true) {
        Object signal =
            timers == null
                ? signals.poll(nanos, TimeUnit.NANOSECONDS)
                : next(signals, timers, nanos);
        if (signal == null) {
          cancel(subscription);
          failure = onTimeout.get();
          break;
        }
        if (signal == DONE) {
          break;
        }
        if (signal instanceof Failure) {
          failure = ((Failure) signal).error;
          break;
        }
        @SuppressWarnings("unchecked")
        T item = (T) signal;
        onItem.accept(item);
      }
    } catch (Throwable t) { // interrupted, or onItem failed: the flow is abandoned
      cancel(subscription);
      failure = t;
    }
    if (failure != null) {
      sneakyThrow(failure);
    }
  }

  /**
   * The next signal, or null when {@code timers} measured {@code nanos} first. A timer that fired
   * as a signal came leaves its mark in the queue; a later wait skips it.
   */
  private static @Nullable Object next(BlockingQueue<Object> signals, Scheduler timers, long nanos)
      throws InterruptedException {
    Object signal = signals.poll();
    while (signal == null || signal instanceof Deadline) {
      Deadline deadline = new Deadline();
      Disposable timer =
          timers.scheduleDirect(() -> signals.add(deadline), nanos, TimeUnit.NANOSECONDS);
      try {
        do {
          signal = signals.take();
        } while (signal instanceof Deadline && signal != deadline);
      } finally {
        timer.dispose();
      }
      if (signal == deadline) {
        return null;
      }
    }
    return signal;
  }

  /** The mark of one wait's deadline in the signal queue. */
  private static final class Deadline {}

  private static final Object DONE = new Object();

  /** An error signal in the queue of {@link #forEach(Flowable, Duration, Supplier, Consumer)}. */
  private static final class Failure {
    final Throwable error;

    Failure(Throwable error) {
      this.error = error;
    }
  }

  private static void cancel(AtomicReference<@Nullable Subscription> subscription) {
    Subscription s = subscription.get();
    if (s != null) {
      s.cancel();
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
