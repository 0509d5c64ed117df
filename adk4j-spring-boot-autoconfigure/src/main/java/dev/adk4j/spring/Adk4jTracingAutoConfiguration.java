package dev.adk4j.spring;

import io.opentelemetry.api.OpenTelemetry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * adk4j's spans in the application's tracing: with an {@link OpenTelemetry} bean (Spring Boot's
 * OpenTelemetry SDK, under Micrometer Tracing's OpenTelemetry bridge), the spans of turns, agents,
 * model and tool calls go to it, children of the span current where the turn starts (for the ADK
 * API, the HTTP request's), so they share its trace. Off with {@code adk4j.tracing.enabled=false}.
 * See {@code docs/spring-boot.md}.
 */
@AutoConfiguration(
    after = Adk4jAutoConfiguration.class,
    afterName =
        "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration")
@ConditionalOnClass(OpenTelemetry.class)
@ConditionalOnBean(OpenTelemetry.class)
@ConditionalOnBooleanProperty(prefix = "adk4j.tracing", name = "enabled", matchIfMissing = true)
public class Adk4jTracingAutoConfiguration {

  /** Registers the application's OpenTelemetry as the one adk4j's spans use. */
  @Bean(name = "adk4jTracing")
  @ConditionalOnMissingBean(name = "adk4jTracing")
  GlobalTracing adk4jTracing(OpenTelemetry openTelemetry) {
    return new GlobalTracing(openTelemetry);
  }
}
