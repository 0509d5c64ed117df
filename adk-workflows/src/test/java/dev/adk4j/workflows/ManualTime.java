package dev.adk4j.workflows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Delayed;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler whose clock moves only when the test {@linkplain #advance advances} it: the one-shot
 * tasks a workflow schedules (a retry's wait, a node's timeout) run then, on the test's thread, in
 * the order they fall due. The delays asked for are kept in {@link #requested}.
 */
final class ManualTime extends ScheduledThreadPoolExecutor {
  private long now;
  private final List<Pending> pending = new ArrayList<>();
  final List<Duration> requested = new CopyOnWriteArrayList<>();

  ManualTime() {
    super(1);
  }

  private final class Pending extends FutureTask<Void> implements ScheduledFuture<Void> {
    final long due;

    Pending(Runnable task, long due) {
      super(task, null);
      this.due = due;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      synchronized (ManualTime.this) {
        return unit.convert(due - now, TimeUnit.NANOSECONDS);
      }
    }

    @Override
    public int compareTo(Delayed o) {
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean cancelled = super.cancel(mayInterruptIfRunning);
      synchronized (ManualTime.this) {
        pending.remove(this);
        ManualTime.this.notifyAll();
      }
      return cancelled;
    }
  }

  @Override
  public synchronized ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
    Pending p = new Pending(task, now + unit.toNanos(delay));
    pending.add(p);
    requested.add(Duration.ofNanos(unit.toNanos(delay)));
    notifyAll();
    return p;
  }

  /** Waits until {@code n} tasks are scheduled and not yet run (failing after 10 s). */
  synchronized void awaitPending(int n) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (pending.size() < n) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("expected " + n + " scheduled tasks, have " + pending.size());
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  /** Moves the clock by {@code d} and runs the tasks then due, on this thread. */
  void advance(Duration d) {
    List<Pending> due = new ArrayList<>();
    synchronized (this) {
      now += d.toNanos();
      for (Pending p : pending) {
        if (p.due <= now) {
          due.add(p);
        }
      }
      pending.removeAll(due);
    }
    due.sort(Comparator.comparingLong(p -> p.due));
    for (Pending p : due) {
      p.run();
    }
  }
}
