package dev.adk4j.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.web.servlet.handler.SimpleUrlHandlerMapping;

/** When the API's handler mapping is declared, and where it maps (no server started). */
class Adk4jWebMvcAutoConfigurationTest {
  private final WebApplicationContextRunner web =
      new WebApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  Adk4jAutoConfiguration.class, Adk4jWebMvcAutoConfiguration.class))
          .withUserConfiguration(Adk4jAutoConfigurationTest.Agents.class);

  @Test
  void aServletApplication_getsTheApiUnderTheBasePath() {
    web.withPropertyValues("adk4j.server.base-path=/api/agents/")
        .run(
            ctx -> {
              SimpleUrlHandlerMapping m =
                  ctx.getBean(
                      Adk4jWebMvcAutoConfiguration.HANDLER_MAPPING, SimpleUrlHandlerMapping.class);
              assertThat(m.getUrlMap()).containsOnlyKeys("/api/agents", "/api/agents/**");
              assertThat(m.getUrlMap().get("/api/agents")).isInstanceOf(AdkApiHandler.class);
            });
  }

  @Test
  void theApi_isOffWhenDisabled_andInApplicationsWithoutAWebServer() {
    web.withPropertyValues("adk4j.server.enabled=false")
        .run(ctx -> assertThat(ctx).doesNotHaveBean(Adk4jWebMvcAutoConfiguration.HANDLER_MAPPING));
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(Adk4jAutoConfiguration.class, Adk4jWebMvcAutoConfiguration.class))
        .withUserConfiguration(Adk4jAutoConfigurationTest.Agents.class)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(ctx).doesNotHaveBean(Adk4jWebMvcAutoConfiguration.HANDLER_MAPPING);
              assertThat(ctx).hasSingleBean(AdkRunners.class);
            });
  }
}
