package dev.adk4j.sessions;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler whose periodic tasks run only when a test says so ({@link #runPeriodic}): renewals of
 * session leases then happen at the test's chosen moments, or never (a stalled renewal thread). Its
 * futures cancel as usual. One-shot tasks run as on any scheduler.
 */
final class ManualScheduler extends ScheduledThreadPoolExecutor {
  private record Periodic(Runnable task, ScheduledFuture<?> future) {}

  private final List<Periodic> periodic = new CopyOnWriteArrayList<>();

  ManualScheduler() {
    super(1);
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(
      Runnable command, long initialDelay, long delay, TimeUnit unit) {
    // A future that never fires by itself, so that cancel() and isCancelled() behave.
    ScheduledFuture<?> future = super.schedule(() -> {}, 365, TimeUnit.DAYS);
    periodic.add(new Periodic(command, future));
    return future;
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(
      Runnable command, long initialDelay, long period, TimeUnit unit) {
    return scheduleWithFixedDelay(command, initialDelay, period, unit);
  }

  /** Runs every periodic task not cancelled once, on the calling thread. */
  void runPeriodic() {
    for (Periodic p : periodic) {
      if (p.future().isCancelled()) {
        periodic.remove(p);
      } else {
        p.task().run();
      }
    }
  }
}
