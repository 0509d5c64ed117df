package dev.adk4j.internal;

import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.FlowableEmitter;
import io.reactivex.rxjava3.core.FlowableOnSubscribe;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.exceptions.Exceptions;
import io.reactivex.rxjava3.functions.Cancellable;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * {@code Flowable.create(source, BackpressureStrategy.BUFFER)} for a source that emits on one
 * thread at a time (as the contract of {@link FlowableEmitter} asks), with a buffer made only when
 * an item arrives before the subscriber asked for it: an item the subscriber asked for is handed
 * over at once. What a turn's flows use, since RxJava's buffering emitter makes a queue of 128
 * slots for every subscription, and a subscriber that requests everything (as the runner's
 * consumers do) never needs one. Items are never dropped; errors after termination go to {@link
 * RxJavaPlugins#onError}.
 */
public final class EmitterFlowable<T> extends Flowable<T> {

  private final FlowableOnSubscribe<T> source;

  private EmitterFlowable(FlowableOnSubscribe<T> source) {
    this.source = source;
  }

  /** A flow whose every subscription runs {@code source} with an emitter of its own. */
  public static <T> Flowable<T> create(FlowableOnSubscribe<T> source) {
    return new EmitterFlowable<>(Objects.requireNonNull(source, "source"));
  }

  @Override
  protected void subscribeActual(Subscriber<? super T> subscriber) {
    Emitter<T> emitter = new Emitter<>(subscriber);
    subscriber.onSubscribe(emitter);
    try {
      source.subscribe(emitter);
    } catch (Throwable t) {
      Exceptions.throwIfFatal(t);
      emitter.onError(t);
    }
  }

  /**
   * The emitter and subscription of one subscriber. Items go straight to the subscriber while it
   * has requested some and nothing is queued; otherwise they queue, and whichever thread holds the
   * drain (the emitting one, or one requesting more) hands them over in order.
   */
  static final class Emitter<T> implements FlowableEmitter<T>, Subscription {
    @SuppressWarnings("rawtypes")
    private static final AtomicLongFieldUpdater<Emitter> REQUESTED =
        AtomicLongFieldUpdater.newUpdater(Emitter.class, "requested");

    @SuppressWarnings("rawtypes")
    private static final AtomicIntegerFieldUpdater<Emitter> WIP =
        AtomicIntegerFieldUpdater.newUpdater(Emitter.class, "wip");

    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<Emitter, Object> RESOURCE =
        AtomicReferenceFieldUpdater.newUpdater(Emitter.class, Object.class, "resource");

    /** What {@link #resource} holds once cancelled: anything set later is disposed at once. */
    private static final Object CANCELLED = new Object();

    private final Subscriber<? super T> downstream;

    /** Items not yet requested; made for the first such item; guarded by this emitter's lock. */
    private @Nullable ArrayDeque<T> queue;

    private volatile long requested;
    private volatile int wip;
    private volatile boolean done;
    private volatile boolean cancelled;
    private @Nullable Throwable error; // written before done, read after it

    /** A {@link Disposable} or {@link Cancellable} to run on cancel, or {@link #CANCELLED}. */
    private volatile @Nullable Object resource;

    Emitter(Subscriber<? super T> downstream) {
      this.downstream = downstream;
    }

    @Override
    public void onNext(T item) {
      if (done || cancelled) {
        return;
      }
      if (item == null) {
        onError(new NullPointerException("onNext called with a null item"));
        return;
      }
      if (wip == 0 && WIP.compareAndSet(this, 0, 1)) {
        if (requested != 0 && isEmpty()) {
          downstream.onNext(item);
          if (requested != Long.MAX_VALUE) {
            REQUESTED.decrementAndGet(this);
          }
        } else {
          enqueue(item);
        }
        if (WIP.decrementAndGet(this) == 0) {
          return;
        }
      } else {
        enqueue(item);
        if (WIP.getAndIncrement(this) != 0) {
          return;
        }
      }
      drainLoop();
    }

    @Override
    public void onError(Throwable t) {
      if (!tryOnError(t)) {
        RxJavaPlugins.onError(t);
      }
    }

    @Override
    public boolean tryOnError(Throwable t) {
      if (done || cancelled) {
        return false;
      }
      error = t == null ? new NullPointerException("onError called with a null error") : t;
      done = true;
      drain();
      return true;
    }

    @Override
    public void onComplete() {
      if (done || cancelled) {
        return;
      }
      done = true;
      drain();
    }

    @Override
    public void request(long n) {
      if (n <= 0) {
        onError(new IllegalArgumentException("request(" + n + "): a request must be positive"));
        return;
      }
      long r;
      long next;
      do {
        r = requested;
        if (r == Long.MAX_VALUE) {
          break;
        }
        next = r + n < 0 ? Long.MAX_VALUE : r + n;
      } while (!REQUESTED.compareAndSet(this, r, next));
      drain();
    }

    @Override
    public void cancel() {
      if (cancelled) {
        return;
      }
      cancelled = true;
      disposeResource();
      if (WIP.getAndIncrement(this) == 0) {
        clear();
      }
    }

    @Override
    public void setDisposable(@Nullable Disposable d) {
      setResource(d);
    }

    @Override
    public void setCancellable(@Nullable Cancellable c) {
      setResource(c);
    }

    @Override
    public long requested() {
      return requested;
    }

    @Override
    public boolean isCancelled() {
      return cancelled;
    }

    /** This emitter: its callers emit from one thread at a time already. */
    @Override
    public FlowableEmitter<T> serialize() {
      return this;
    }

    private void setResource(@Nullable Object r) {
      while (true) {
        Object current = resource;
        if (current == CANCELLED) {
          dispose(r);
          return;
        }
        if (RESOURCE.compareAndSet(this, current, r)) {
          dispose(current); // a resource replaced is disposed, as RxJava's emitters do
          return;
        }
      }
    }

    private void disposeResource() {
      dispose(RESOURCE.getAndSet(this, CANCELLED));
    }

    private static void dispose(@Nullable Object r) {
      try {
        if (r instanceof Disposable d) {
          d.dispose();
        } else if (r instanceof Cancellable c) {
          c.cancel();
        }
      } catch (Throwable t) {
        Exceptions.throwIfFatal(t);
        RxJavaPlugins.onError(t);
      }
    }

    private synchronized void enqueue(T item) {
      ArrayDeque<T> q = queue;
      if (q == null) {
        q = new ArrayDeque<>();
        queue = q;
      }
      q.add(item);
    }

    private synchronized @Nullable T poll() {
      ArrayDeque<T> q = queue;
      return q == null ? null : q.poll();
    }

    private synchronized boolean isEmpty() {
      ArrayDeque<T> q = queue;
      return q == null || q.isEmpty();
    }

    private synchronized void clear() {
      queue = null;
    }

    private void drain() {
      if (WIP.getAndIncrement(this) == 0) {
        drainLoop();
      }
    }

    /** Hands queued items over while requested, then the terminal signal; one thread at a time. */
    private void drainLoop() {
      int missed = 1;
      while (true) {
        long r = requested;
        long emitted = 0;
        while (emitted != r) {
          if (cancelled) {
            clear();
            return;
          }
          boolean d = done;
          T item = poll();
          if (item == null) {
            if (d) {
              terminate();
              return;
            }
            break;
          }
          downstream.onNext(item);
          emitted++;
        }
        if (emitted == r) {
          if (cancelled) {
            clear();
            return;
          }
          if (done && isEmpty()) {
            terminate();
            return;
          }
        }
        if (emitted != 0 && r != Long.MAX_VALUE) {
          REQUESTED.addAndGet(this, -emitted);
        }
        missed = WIP.addAndGet(this, -missed);
        if (missed == 0) {
          return;
        }
      }
    }

    private void terminate() {
      // cancelled first, so that the source sees isCancelled() and stops; resources released
      cancelled = true;
      try {
        Throwable e = error;
        if (e != null) {
          downstream.onError(e);
        } else {
          downstream.onComplete();
        }
      } finally {
        disposeResource();
      }
    }
  }
}
