package dev.adk4j.runner;

import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.FlowableSubscriber;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * Passes a flow through unchanged, except that an error going to a blocking iterator ({@code
 * blockingForEach}, {@code blockingIterable}) waits until that iterator has handed out every event
 * it received. RxJava's blocking iterator throws a terminal error as soon as it arrives, dropping
 * queued items. The sign that the iterator has taken them all is its consumer thread parking on the
 * iterator's condition again after the last item was delivered (it parks only on an empty queue):
 * the thread's waited count has gone up since, and it is waiting on a condition. The wait is
 * bounded ({@value #MAX_WAIT_MILLIS} ms) for a consumer still busy.
 */
final class DrainBeforeError<T> extends Flowable<T> {
  static final long MAX_WAIT_MILLIS = 2_000;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final Flowable<T> source;

  DrainBeforeError(Flowable<T> source) {
    this.source = source;
  }

  @Override
  protected void subscribeActual(Subscriber<? super T> downstream) {
    if (downstream instanceof Iterator) {
      source.subscribe(new Draining<>(downstream, Thread.currentThread()));
    } else {
      source.subscribe(downstream);
    }
  }

  private static final class Draining<T> implements FlowableSubscriber<T>, Subscription {
    private final Subscriber<? super T> downstream;
    private final Thread consumer;

    /** Set by {@link #onSubscribe}, which Reactive Streams calls before anything else. */
    private @Nullable Subscription upstream;

    /** The consumer thread's waited count just before the last item was delivered. */
    private volatile long waitedBeforeLastItem = -1;

    Draining(Subscriber<? super T> downstream, Thread consumer) {
      this.downstream = downstream;
      this.consumer = consumer;
    }

    @Override
    public void onSubscribe(Subscription s) {
      this.upstream = s;
      downstream.onSubscribe(this);
    }

    @Override
    public void onNext(T t) {
      waitedBeforeLastItem = waitedCount();
      downstream.onNext(t);
    }

    private long waitedCount() {
      ThreadInfo info = THREADS.getThreadInfo(consumer.getId());
      return info == null ? -1 : info.getWaitedCount();
    }

    @Override
    public void onError(Throwable t) {
      awaitDrained();
      downstream.onError(t);
    }

    @Override
    public void onComplete() {
      downstream.onComplete();
    }

    @Override
    public void request(long n) {
      upstream().request(n);
    }

    @Override
    public void cancel() {
      upstream().cancel();
    }

    /** The subscription: the downstream requests and cancels only after it was given this one. */
    private Subscription upstream() {
      return Objects.requireNonNull(upstream, "request or cancel before onSubscribe");
    }

    /** Waits until the consumer thread parks on the iterator's empty queue (or gives up). */
    private void awaitDrained() {
      if (consumer == Thread.currentThread()) {
        return;
      }
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MAX_WAIT_MILLIS);
      while (System.nanoTime() < deadline) {
        Thread.State state = consumer.getState();
        if (state == Thread.State.TERMINATED) {
          return;
        }
        Object blocker = LockSupport.getBlocker(consumer);
        if (state == Thread.State.WAITING
            && blocker != null
            && blocker.getClass().getName().endsWith("ConditionObject")
            && waitedCount() > waitedBeforeLastItem) {
          return;
        }
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
      }
    }
  }
}
