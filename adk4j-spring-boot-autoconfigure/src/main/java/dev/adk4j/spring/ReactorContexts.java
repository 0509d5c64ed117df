package dev.adk4j.spring;

import io.micrometer.context.ContextSnapshotFactory;
import org.springframework.util.ClassUtils;
import reactor.util.context.ContextView;

/**
 * Runs work on another thread with the thread-local values a Reactor context carries (Micrometer's
 * context-propagation library: the current observation, and with Micrometer Tracing its span), so a
 * turn started there is a child of the request's span. Without the library, the work runs as is.
 */
final class ReactorContexts {
  private static final boolean PRESENT =
      ClassUtils.isPresent(
          "io.micrometer.context.ContextSnapshotFactory", ReactorContexts.class.getClassLoader());

  private ReactorContexts() {}

  /** {@code work}, run with {@code context}'s thread-local values set, if the library is there. */
  static Runnable onWorker(ContextView context, Runnable work) {
    return PRESENT ? Snapshots.wrap(context, work) : work;
  }

  /** Loaded only when the library is present. */
  private static final class Snapshots {
    private static final ContextSnapshotFactory FACTORY = ContextSnapshotFactory.builder().build();

    static Runnable wrap(ContextView context, Runnable work) {
      return FACTORY.captureFrom(context).wrap(work);
    }
  }
}
