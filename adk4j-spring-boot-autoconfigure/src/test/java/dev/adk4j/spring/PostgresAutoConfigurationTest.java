package dev.adk4j.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.memory.BaseMemoryService;
import dev.adk4j.memory.DatabaseMemoryService;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The application's DataSource is a PostgreSQL pool (Spring Boot's HikariCP from {@code
 * spring.datasource.*}, on an embedded PostgreSQL server this class starts): sessions and memory
 * live in it, and the health indicator goes DOWN when the server stops.
 */
class PostgresAutoConfigurationTest {
  private static EmbeddedPostgres postgres;

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgres.builder().setServerConfig("fsync", "off").start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void sessionsLiveInPostgres_andHealthGoesDownWhenTheDatabaseStops() throws Exception {
    try (CapturedLogs logs = new CapturedLogs("com.zaxxer.hikari", "dev.adk4j")) {
      run(logs);
    }
  }

  private void run(CapturedLogs logs) {
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                DataSourceAutoConfiguration.class,
                Adk4jAutoConfiguration.class,
                Adk4jActuatorAutoConfiguration.class))
        .withUserConfiguration(Adk4jAutoConfigurationTest.Agents.class)
        .withPropertyValues(
            "spring.datasource.url=" + postgres.getJdbcUrl("postgres", "postgres"),
            "spring.datasource.hikari.connection-timeout=1000",
            "spring.datasource.hikari.validation-timeout=500")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              BaseSessionService sessions = ctx.getBean(BaseSessionService.class);
              assertThat(sessions).isInstanceOf(DatabaseSessionService.class);
              assertThat(((DatabaseSessionService) sessions).databaseProduct())
                  .isEqualTo("PostgreSQL");
              assertThat(ctx.getBean(BaseMemoryService.class))
                  .isInstanceOf(DatabaseMemoryService.class);
              assertThat(ctx.getBean(dev.adk4j.artifacts.BaseArtifactService.class))
                  .isInstanceOf(dev.adk4j.artifacts.DatabaseArtifactService.class);
              TestAgents.turn(ctx.getBean(AdkRunners.class).single(), "u", "s", "hi");
              assertThat(
                      sessions
                          .getSession("assistant", "u", "s", java.util.Optional.empty())
                          .blockingGet()
                          .events())
                  .hasSize(4);

              HealthIndicator health = ctx.getBean("adk4jHealthIndicator", HealthIndicator.class);
              Health up = health.health();
              assertThat(up.getStatus()).isEqualTo(Status.UP);
              assertThat(up.getDetails())
                  .containsEntry("backend", "PostgreSQL")
                  .containsEntry("schema", "migrated at start");

              postgres.close();
              Health down = health.health();
              assertThat(down.getStatus()).isEqualTo(Status.DOWN);
              assertThat(down.getDetails()).containsKey("error");
              assertThat(logs.messages())
                  .anyMatch(m -> m.startsWith("WARN adk4j session store health check failed"));
              postgres = null;
            });
  }
}
