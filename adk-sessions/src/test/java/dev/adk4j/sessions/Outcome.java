package dev.adk4j.sessions;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * What a call did in a fault test, and how long it took: it ran on its own thread, so that a call
 * that hangs (the failure these tests look for) is reported as such after {@code limit} instead of
 * hanging the test run.
 */
record Outcome(@Nullable Object result, @Nullable Throwable failure, long millis, boolean hung) {

  /**
   * Runs {@code call} on a new thread and waits up to {@code limit}. If it is still running then,
   * {@code unblock} runs (to release what holds it, so that the thread ends) and the outcome says
   * it hung.
   */
  static Outcome of(Duration limit, ThrowingCall call, Runnable unblock) {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    long start = System.nanoTime();
    Future<Outcome> f =
        pool.submit(
            () -> {
              try {
                Object r = call.call();
                return new Outcome(r, null, elapsed(start), false);
              } catch (Throwable t) {
                return new Outcome(null, t, elapsed(start), false);
              }
            });
    try {
      return f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      unblock.run();
      return new Outcome(null, null, elapsed(start), true);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    } finally {
      pool.shutdown();
    }
  }

  static Outcome of(Duration limit, ThrowingCall call) {
    return of(limit, call, () -> {});
  }

  private static long elapsed(long start) {
    return (System.nanoTime() - start) / 1_000_000;
  }

  @Override
  public String toString() {
    return hung
        ? "still running after " + millis + " ms"
        : (failure != null ? "failed after " + millis + " ms with " + failure : "returned");
  }

  @FunctionalInterface
  interface ThrowingCall {
    @Nullable Object call() throws Exception;
  }
}
