package dev.adk4j.spring;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.logs.LoggerProvider;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.propagation.ContextPropagators;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;

/**
 * Sends adk4j's spans to the application's {@link OpenTelemetry} bean. adk4j looks its tracer up in
 * {@link GlobalOpenTelemetry} at each span; Spring Boot registers nothing there. This registers
 * there, once per JVM, an {@code OpenTelemetry} that forwards to the bean of the running
 * application context (the latest started; none, a no-op, once it closed), so a context that stops
 * and another that starts, as in tests, each get their spans. If something else registered a global
 * OpenTelemetry first (the OpenTelemetry Java agent, or the application), adk4j's spans go there
 * and this says so at INFO.
 *
 * <p>Other libraries that use {@link GlobalOpenTelemetry} then record into the application's
 * OpenTelemetry too; {@code adk4j.tracing.enabled=false} leaves the global one alone.
 */
final class GlobalTracing implements InitializingBean, DisposableBean {
  private static final org.slf4j.Logger log =
      org.slf4j.LoggerFactory.getLogger(GlobalTracing.class);

  private static final Object LOCK = new Object();

  /** Whether {@link GlobalOpenTelemetry} holds {@link #FORWARDER}. Guarded by {@link #LOCK}. */
  private static boolean registered;

  /** Where {@link #FORWARDER} sends everything: the running application's OpenTelemetry. */
  private static volatile OpenTelemetry target = OpenTelemetry.noop();

  private static final OpenTelemetry FORWARDER =
      new OpenTelemetry() {
        @Override
        public TracerProvider getTracerProvider() {
          return target.getTracerProvider();
        }

        @Override
        public MeterProvider getMeterProvider() {
          return target.getMeterProvider();
        }

        @Override
        public LoggerProvider getLogsBridge() {
          return target.getLogsBridge();
        }

        @Override
        public ContextPropagators getPropagators() {
          return target.getPropagators();
        }

        @Override
        public String toString() {
          return "adk4j's forwarder to " + target;
        }
      };

  private final OpenTelemetry application;

  GlobalTracing(OpenTelemetry application) {
    this.application = application;
  }

  @Override
  public void afterPropertiesSet() {
    synchronized (LOCK) {
      if (!registered) {
        if (GlobalOpenTelemetry.isSet()) {
          log.info(
              "A global OpenTelemetry is registered already (the OpenTelemetry Java agent's, or the"
                  + " application's): adk4j's spans go to it, not to the OpenTelemetry bean");
          return;
        }
        GlobalOpenTelemetry.set(FORWARDER);
        registered = true;
      }
      target = application;
    }
  }

  @Override
  public void destroy() {
    synchronized (LOCK) {
      if (target == application) {
        target = OpenTelemetry.noop();
      }
    }
  }
}
