package dev.adk4j.spring;

import com.google.genai.types.Content;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.plugins.BasePlugin;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Knows the turns in flight in every runner of the application, so that the application's stop can
 * wait for them ({@link #awaitIdle}); once stopping, a new turn is refused with an error naming its
 * app, user and session. Thread-safe.
 */
final class TurnTracker extends BasePlugin {
  private final Map<String, String> inFlight = new LinkedHashMap<>();
  private boolean stopping;

  TurnTracker() {
    super("adk4j-turns");
  }

  @Override
  public Maybe<Content> beforeRunCallback(InvocationContext ctx) {
    String turn =
        "app '"
            + ctx.appName()
            + "', user '"
            + ctx.userId()
            + "', session '"
            + sessionId(ctx)
            + "'";
    synchronized (this) {
      if (stopping) {
        return Maybe.error(
            new IllegalStateException(
                "the application is shutting down: a new turn is refused (" + turn + ")"));
      }
      inFlight.put(ctx.invocationId(), turn);
    }
    return Maybe.empty();
  }

  @Override
  public Completable afterRunCallback(InvocationContext ctx) {
    done(ctx);
    return Completable.complete();
  }

  @Override
  public Completable onRunErrorCallback(InvocationContext ctx, Throwable error) {
    done(ctx);
    return Completable.complete();
  }

  private synchronized void done(InvocationContext ctx) {
    if (inFlight.remove(ctx.invocationId()) != null) {
      notifyAll();
    }
  }

  private static String sessionId(InvocationContext ctx) {
    return ctx.session().id();
  }

  /** The turns in flight, described by app, user and session. */
  synchronized List<String> inFlight() {
    return new ArrayList<>(inFlight.values());
  }

  /**
   * Refuses new turns from now on and waits up to {@code timeout} until none is in flight.
   *
   * @return the turns still in flight when the wait ended (empty when all finished)
   */
  synchronized List<String> stopAndAwait(Duration timeout) throws InterruptedException {
    stopping = true;
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!inFlight.isEmpty()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      long millis = Math.max(1, left / 1_000_000);
      wait(millis);
    }
    return new ArrayList<>(inFlight.values());
  }
}
