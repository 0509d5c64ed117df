package dev.adk4j.spring;

import dev.adk4j.agents.LlmAgent;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The dev UI in a Spring MVC application, on with {@code adk4j.server.dev-ui=true}, under a base
 * path and a servlet context path: page, assets, redirect and runtime configuration. No DataSource:
 * sessions in memory.
 */
@SpringBootTest(
    classes = DevUiMvcTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.main.banner-mode=off",
      "spring.autoconfigure.exclude="
          + "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
      "server.servlet.context-path=/shop",
      "adk4j.server.base-path=/agents",
      "adk4j.server.dev-ui=true"
    })
class DevUiMvcTest {

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {
    @Bean
    LlmAgent assistant() {
      return TestAgents.agent("assistant");
    }

    /** A local development setup: no login. */
    @Bean
    SecurityFilterChain security(HttpSecurity http) throws Exception {
      http.authorizeHttpRequests(a -> a.anyRequest().permitAll());
      return http.build();
    }

    /** No users (so Spring Boot generates no password, and logs none). */
    @Bean
    org.springframework.security.core.userdetails.UserDetailsService users() {
      return new org.springframework.security.provisioning.InMemoryUserDetailsManager();
    }
  }

  @Value("${local.server.port}")
  int port;

  @Test
  void theDevUi_isServedUnderTheContextAndBasePath() throws Exception {
    DevUiChecks.assertServedUnder("http://localhost:" + port, "/shop/agents", null);
  }
}
