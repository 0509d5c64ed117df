package dev.adk4j.runner;

import dev.adk4j.sessions.SessionBusyException;
import dev.adk4j.sessions.SessionWait;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One turn at a time per session within a {@link Runner}: an invocation (or a rewind) takes its
 * session's permit before it takes the store's lease, so that turns of one runner queue fairly in
 * process instead of polling the lease. Sessions are keyed {@code app NUL user NUL session}; a
 * session's permit is forgotten when nobody holds or waits for it.
 */
final class SessionTurns {
  private final Map<String, Permit> running = new ConcurrentHashMap<>();

  /** A per-session permit; counted so the map forgets sessions nobody is running. */
  static final class Permit {
    final Semaphore semaphore = new Semaphore(1, true);
    int users;
  }

  Permit acquire(String key, Duration wait) throws InterruptedException {
    return acquire(key, wait, w -> {});
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

  void release(String key, Permit permit) {
    permit.semaphore.release();
    forget(key);
  }

  private void forget(String key) {
    running.computeIfPresent(key, (k, p) -> --p.users == 0 ? null : p);
  }
}
