package dev.adk4j.spring;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.SessionCleanup;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

/**
 * Runs a {@link SessionCleanup} on one daemon thread every interval while the application runs
 * (started with the context, stopped before the services close).
 */
final class CleanupSchedule implements SmartLifecycle {
  private final SessionCleanup cleanup;
  private final BaseSessionService sessions;
  private final Duration interval;
  private @Nullable ScheduledExecutorService executor;
  private @Nullable ScheduledFuture<?> future;

  CleanupSchedule(SessionCleanup cleanup, BaseSessionService sessions, Duration interval) {
    this.cleanup = cleanup;
    this.sessions = sessions;
    this.interval = interval;
  }

  @Override
  public synchronized void start() {
    if (executor != null) {
      return;
    }
    ScheduledExecutorService e =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "adk4j-session-cleanup");
              t.setDaemon(true);
              return t;
            });
    executor = e;
    future = cleanup.schedule(e, sessions, interval);
  }

  @Override
  public synchronized void stop() {
    ScheduledFuture<?> f = future;
    if (f != null) {
      f.cancel(false);
    }
    ScheduledExecutorService e = executor;
    if (e != null) {
      e.shutdownNow();
    }
    future = null;
    executor = null;
  }

  @Override
  public synchronized boolean isRunning() {
    return executor != null;
  }

  /** Whether a run is scheduled (for tests). */
  synchronized boolean scheduled() {
    return future != null && !future.isDone();
  }
}
