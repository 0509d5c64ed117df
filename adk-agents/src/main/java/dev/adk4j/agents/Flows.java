package dev.adk4j.agents;

import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.FlowableEmitter;
import io.reactivex.rxjava3.core.FlowableSubscriber;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.functions.Consumer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
    Signals signals = new Signals();
    items.subscribe(signals);
    long nanos = Math.max(1, timeout.toNanos());
    Throwable failure = null;
    try {
      while (true) {
        Object signal = timers == null ? signals.poll(nanos) : next(signals, timers, nanos);
        if (signal == null) {
          signals.cancel();
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
      signals.cancel();
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
  private static @Nullable Object next(Signals signals, Scheduler timers, long nanos)
      throws InterruptedException {
    Object signal = signals.poll(0);
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

  /**
   * The signals of one flow, queued for the thread that consumes them, which waits for each with a
   * deadline. A flow that emits on the subscribing thread (a model that answers at once) has queued
   * them all before the first wait, so nothing waits. Lighter than a {@code LinkedBlockingQueue}:
   * one monitor, a small array queue.
   */
  private static final class Signals implements FlowableSubscriber<Object> {
    private final java.util.ArrayDeque<Object> queue = new java.util.ArrayDeque<>(4);
    private @Nullable Subscription subscription;

    @Override
    public void onSubscribe(Subscription s) {
      synchronized (this) {
        subscription = s;
      }
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(Object item) {
      add(item);
    }

    @Override
    public void onError(Throwable e) {
      add(new Failure(e));
    }

    @Override
    public void onComplete() {
      add(DONE);
    }

    synchronized void add(Object signal) {
      queue.add(signal);
      notifyAll();
    }

    /** The next signal, waiting up to {@code nanos} for it; null if none came. */
    synchronized @Nullable Object poll(long nanos) throws InterruptedException {
      if (Thread.interrupted()) {
        throw new InterruptedException(); // as a blocking queue's poll: interrupted, it stops
      }
      Object signal = queue.poll();
      if (signal != null || nanos <= 0) {
        return signal;
      }
      long deadline = System.nanoTime() + nanos;
      while ((signal = queue.poll()) == null) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return null;
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return signal;
    }

    /** The next signal, waiting for it as long as it takes. */
    synchronized Object take() throws InterruptedException {
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
      Object signal;
      while ((signal = queue.poll()) == null) {
        wait();
      }
      return signal;
    }

    void cancel() {
      Subscription s;
      synchronized (this) {
        s = subscription;
      }
      if (s != null) {
        s.cancel();
      }
    }
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
