package dev.adk4j.spring;

import dev.adk4j.artifacts.BaseArtifactService;
import dev.adk4j.server.AdkServer;
import dev.adk4j.sessions.BaseSessionService;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;

/**
 * The ADK REST API (and, with {@code adk4j.server.dev-ui=true}, the dev UI) in a WebFlux
 * application, under {@code adk4j.server.base-path}: adk-server's own handler behind a reactive
 * bridge, as {@link Adk4jWebMvcAutoConfiguration} serves it in Spring MVC (same endpoints, bodies,
 * SSE; with Spring Security, a user's sessions only as that user). Off with {@code
 * adk4j.server.enabled=false}.
 */
@AutoConfiguration(after = Adk4jAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({DispatcherHandler.class, AdkServer.class})
@ConditionalOnBooleanProperty(prefix = "adk4j.server", name = "enabled", matchIfMissing = true)
public class Adk4jWebFluxAutoConfiguration {

  /** The name of the handler mapping bean; declare a bean of this name to replace it. */
  public static final String HANDLER_MAPPING = "adk4jReactiveHandlerMapping";

  private static final String SPRING_SECURITY =
      "org.springframework.security.core.context.ReactiveSecurityContextHolder";

  /** Maps {@code {base-path}} and everything below it to the API. */
  @Bean(name = HANDLER_MAPPING)
  @ConditionalOnMissingBean(name = HANDLER_MAPPING)
  SimpleUrlHandlerMapping adk4jReactiveHandlerMapping(
      AdkRunners runners,
      BaseSessionService sessions,
      BaseArtifactService artifacts,
      Adk4jProperties properties,
      ObjectProvider<SessionWaits> waits) {
    Adk4jProperties.Server s = properties.getServer();
    String base = AdkApiRequests.normalize(s.getBasePath());
    ReactiveApiHandler handler =
        new ReactiveApiHandler(
            AdkApiRequests.serverHandler(runners, sessions, artifacts, s, waits),
            base,
            s.isDevUi(),
            ClassUtils.isPresent(SPRING_SECURITY, getClass().getClassLoader()));
    Map<String, Object> urls = new LinkedHashMap<>();
    urls.put(base.isEmpty() ? "/" : base, handler);
    urls.put(base + "/**", handler);
    SimpleUrlHandlerMapping mapping = new SimpleUrlHandlerMapping(urls);
    mapping.setOrder(-1);
    return mapping;
  }
}
