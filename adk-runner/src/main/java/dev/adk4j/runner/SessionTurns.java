package dev.adk4j.runner;

import dev.adk4j.sessions.SessionBusyException;
import dev.adk4j.sessions.SessionLease;
import dev.adk4j.sessions.SessionWait;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One turn at a time per session within a {@link Runner}, for session services without leases
 * ({@link SessionLease#none()}: a custom store that does not override {@code acquireLease}). The
 * in-memory and database services' leases queue turns themselves, first come first served across
 * threads and processes, so their turns take no permit here. Sessions are keyed {@code app NUL user
 * NUL session}; a session's permit is forgotten when nobody holds or waits for it.
 */
final class SessionTurns {
  private final Map<String, Permit> running = new ConcurrentHashMap<>();

  /** A per-session permit; counted so the map forgets sessions nobody is running. */
  static final class Permit {
    final Semaphore semaphore = new Semaphore(1, true);
    int users;
  }

  /**
   * Takes {@code key}'s permit if {@code lease} guards nothing (a service without leases), waiting
   * until {@code deadline} ({@link System#nanoTime()}); null if the lease guards the session.
   */
  @Nullable Permit ifUnguarded(
      SessionLease lease, String key, long deadline, Consumer<SessionWait> onWait)
      throws InterruptedException {
    if (!"none".equals(lease.owner())) {
      return null;
    }
    return acquire(key, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())), onWait);
  }

  /** Takes {@code key}'s permit, telling {@code onWait} first if another turn holds it. */
  Permit acquire(String key, Duration wait, Consumer<SessionWait> onWait)
      throws InterruptedException {
    Permit permit =
        running.compute(
            key,
            (k, p) -> {
              Permit q = p == null ? new Permit() : p;
              q.users++;
              return q;
            });
    boolean acquired = false;
    try {
      // tryAcquire() would barge past waiters; a zero timeout keeps the fair order
      acquired = permit.semaphore.tryAcquire(0, TimeUnit.NANOSECONDS);
      if (!acquired) {
        String[] parts = key.split("\u0000", 3);
        onWait.accept(
            new SessionWait(
                parts[0],
                parts[1],
                parts[2],
                "another invocation through this Runner",
                Duration.ZERO,
                wait));
        acquired = permit.semaphore.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS);
      }
    } finally {
      if (!acquired) {
        forget(key);
      }
    }
    if (!acquired) {
      String[] parts = key.split("\u0000", 3);
      throw new SessionBusyException(
          parts[0],
          parts[1],
          parts[2],
          null,
          null,
          "another invocation through this Runner still ran on it after waiting "
              + wait.toMillis()
              + " ms");
    }
    return permit;
  }

  /** Releases {@code permit} (taken by {@link #ifUnguarded}); nothing if it is null. */
  void release(String key, @Nullable Permit permit) {
    if (permit == null) {
      return;
    }
    permit.semaphore.release();
    forget(key);
  }

  private void forget(String key) {
    running.computeIfPresent(key, (k, p) -> --p.users == 0 ? null : p);
  }
}
