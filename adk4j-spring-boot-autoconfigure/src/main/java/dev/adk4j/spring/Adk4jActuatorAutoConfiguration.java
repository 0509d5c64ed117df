package dev.adk4j.spring;

import dev.adk4j.sessions.BaseSessionService;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Operations: the {@code adk4j} health indicator (with Spring Boot's health support on the
 * classpath) and the Micrometer meters (with a {@link MeterRegistry} bean), recorded by a plugin
 * every runner gets. See {@code docs/spring-boot.md}.
 */
@AutoConfiguration(
    after = Adk4jAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"
    })
public class Adk4jActuatorAutoConfiguration {

  /** The health indicator, as {@code adk4j} in {@code /actuator/health}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  static class Health {
    @Bean(name = "adk4jHealthIndicator")
    @ConditionalOnMissingBean(name = "adk4jHealthIndicator")
    HealthIndicator adk4jHealthIndicator(
        BaseSessionService sessions, TurnTracker turns, Adk4jProperties properties) {
      return new SessionStoreHealthIndicator(sessions, turns, properties.getSessions().isMigrate());
    }
  }

  /** The meters, through a plugin every runner gets. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MeterRegistry.class)
  @ConditionalOnBean(MeterRegistry.class)
  static class Metrics {
    @Bean(name = "adk4jMetricsPlugin")
    @ConditionalOnMissingBean(name = "adk4jMetricsPlugin")
    MetricsPlugin adk4jMetricsPlugin(MeterRegistry registry, BaseSessionService sessions) {
      return new MetricsPlugin(registry, SessionStoreHealthIndicator.backendOf(sessions));
    }
  }
}
