package dev.adk4j.spring;

import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * At the application's stop, after the web server stopped taking requests and let its requests in
 * progress finish (Spring Boot's graceful shutdown) and before the beans are destroyed: refuses new
 * turns and waits up to {@code adk4j.shutdown.timeout} for the turns in flight. The runners, then
 * the services, are closed afterwards, when Spring destroys their beans; a turn still running then
 * fails, and this logs which ones did not finish. Starts nothing.
 */
final class GracefulShutdown implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(GracefulShutdown.class);

  /**
   * Between Spring Boot's graceful shutdown of the web server (DEFAULT_PHASE - 1024, which stops
   * first) and the stop of the web server itself (DEFAULT_PHASE - 2048).
   */
  static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1536;

  private final TurnTracker turns;
  private final Duration timeout;
  private volatile boolean running;

  GracefulShutdown(TurnTracker turns, Duration timeout) {
    this.turns = turns;
    this.timeout = timeout;
  }

  @Override
  public void start() {
    running = true;
  }

  @Override
  public void stop() {
    running = false;
    try {
      List<String> left = turns.stopAndAwait(timeout);
      if (!left.isEmpty()) {
        log.warn(
            "adk4j: {} turn(s) still running after the shutdown timeout of {} will fail as the"
                + " services close: {}",
            left.size(),
            timeout,
            left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }
}
