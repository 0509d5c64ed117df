package dev.adk4j.spring;

import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.artifacts.BaseArtifactService;
import dev.adk4j.artifacts.DatabaseArtifactService;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.memory.BaseMemoryService;
import dev.adk4j.memory.DatabaseMemoryService;
import dev.adk4j.memory.InMemoryMemoryService;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRegistry;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.runner.EventsCompactionConfig;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.SessionCleanup;
import dev.adk4j.tools.AgentTool;
import dev.adk4j.tools.BaseTool;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * adk4j's beans: the session, artifact and memory services (on the application's {@link DataSource}
 * when it has one, in memory otherwise), the {@link RunConfig} and compaction defaults, a model
 * from {@code adk4j.model.*}, and {@link AdkRunners}: a {@link Runner} per app. Every bean backs
 * off when the application declares its own of that type. Nothing runs in the background unless
 * asked for ({@code adk4j.cleanup.enabled}).
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
      "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration"
    })
@EnableConfigurationProperties(Adk4jProperties.class)
public class Adk4jAutoConfiguration {

  /** {@link DatabaseSessionConfig} from {@code adk4j.sessions.*}. */
  @Bean
  @ConditionalOnMissingBean
  public DatabaseSessionConfig adk4jDatabaseSessionConfig(Adk4jProperties properties) {
    Adk4jProperties.Sessions s = properties.getSessions();
    DatabaseSessionConfig.Builder b =
        DatabaseSessionConfig.builder()
            .migrate(s.isMigrate())
            .maximumPoolSize(s.getMaximumPoolSize())
            .minimumIdle(s.getMinimumIdle())
            .connectionTimeout(s.getConnectionTimeout())
            .maxValueBytes(s.getMaxValueBytes())
            .maxEventBytes(s.getMaxEventBytes())
            .busyTimeout(s.getBusyTimeout())
            .leaseDuration(s.getLeaseDuration())
            .socketTimeout(s.getSocketTimeout())
            .statementTimeout(s.getStatementTimeout())
            .defaultTimeToLive(s.getDefaultTimeToLive());
    String key = s.getSecretKey();
    if (key != null && !key.isBlank()) {
      byte[] bytes;
      try {
        bytes = Base64.getDecoder().decode(key.trim());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("adk4j.sessions.secret-key is not base64", e);
      }
      b.secretKey(new SecretKeySpec(bytes, "AES"));
    }
    return b.build();
  }

  /**
   * The session service: a {@link DatabaseSessionService} on {@code adk4j.sessions.jdbc-url}, else
   * on the application's DataSource (its pool; adk4j's migrations run once, here, unless {@code
   * adk4j.sessions.migrate=false}), else an {@link InMemorySessionService}.
   */
  @Bean
  @ConditionalOnMissingBean
  public BaseSessionService adk4jSessionService(
      Adk4jProperties properties,
      DatabaseSessionConfig config,
      ObjectProvider<DataSource> dataSources) {
    Adk4jProperties.Sessions s = properties.getSessions();
    if (s.getStore() == Adk4jProperties.Store.MEMORY
        || s.getStore() == Adk4jProperties.Store.NONE) {
      return new InMemorySessionService();
    }
    String url = s.getJdbcUrl();
    if (url != null && !url.isBlank()) {
      return new DatabaseSessionService(url, config);
    }
    DataSource ds = dataSources.getIfUnique();
    if (ds != null) {
      return new DatabaseSessionService(ds, config);
    }
    if (s.getStore() == Adk4jProperties.Store.DATABASE) {
      throw new IllegalStateException(
          "adk4j.sessions.store=database, but the application has no (single) DataSource and"
              + " adk4j.sessions.jdbc-url is not set");
    }
    return new InMemorySessionService();
  }

  /**
   * The artifact service: a {@link DatabaseArtifactService} in the sessions' database when they are
   * in one (on {@code adk4j.sessions.jdbc-url}, else on the application's DataSource), else an
   * {@link InMemoryArtifactService}; {@code adk4j.artifacts.store} forces either.
   */
  @Bean
  @ConditionalOnMissingBean
  public BaseArtifactService adk4jArtifactService(
      Adk4jProperties properties,
      DatabaseSessionConfig config,
      ObjectProvider<DataSource> dataSources) {
    Adk4jProperties.Store store = properties.getArtifacts().getStore();
    Adk4jProperties.Sessions s = properties.getSessions();
    if (store == Adk4jProperties.Store.NONE) {
      throw new IllegalStateException(
          "adk4j.artifacts.store=none: the runners need an artifact service; use auto, memory or"
              + " database");
    }
    if (store == Adk4jProperties.Store.MEMORY) {
      return new InMemoryArtifactService();
    }
    boolean sessionsInDatabase =
        s.getStore() != Adk4jProperties.Store.MEMORY && s.getStore() != Adk4jProperties.Store.NONE;
    String url = s.getJdbcUrl();
    if (url != null && !url.isBlank() && sessionsInDatabase) {
      return new DatabaseArtifactService(url, config);
    }
    DataSource ds = dataSources.getIfUnique();
    if (ds != null && sessionsInDatabase) {
      return new DatabaseArtifactService(ds, config);
    }
    if (store == Adk4jProperties.Store.DATABASE) {
      throw new IllegalStateException(
          "adk4j.artifacts.store=database, but the sessions are not in a database (no single"
              + " DataSource, no adk4j.sessions.jdbc-url, or adk4j.sessions.store=memory)");
    }
    return new InMemoryArtifactService();
  }

  /**
   * The memory service: a {@link DatabaseMemoryService} in the sessions' database when they are in
   * one, else an {@link InMemoryMemoryService}; none with {@code adk4j.memory.store=none}.
   */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnExpression("!'${adk4j.memory.store:auto}'.equalsIgnoreCase('none')")
  public BaseMemoryService adk4jMemoryService(
      Adk4jProperties properties,
      DatabaseSessionConfig config,
      ObjectProvider<DataSource> dataSources) {
    Adk4jProperties.Memory m = properties.getMemory();
    Adk4jProperties.Sessions s = properties.getSessions();
    if (m.getStore() == Adk4jProperties.Store.MEMORY) {
      return new InMemoryMemoryService();
    }
    String url = s.getJdbcUrl();
    if (url != null && !url.isBlank() && s.getStore() != Adk4jProperties.Store.MEMORY) {
      return new DatabaseMemoryService(url, config, m.getMaxResults());
    }
    DataSource ds = dataSources.getIfUnique();
    if (ds != null && s.getStore() != Adk4jProperties.Store.MEMORY) {
      return new DatabaseMemoryService(ds, config, m.getMaxResults());
    }
    if (m.getStore() == Adk4jProperties.Store.DATABASE) {
      throw new IllegalStateException(
          "adk4j.memory.store=database, but the sessions are not in a database (no single"
              + " DataSource, no adk4j.sessions.jdbc-url, or adk4j.sessions.store=memory)");
    }
    return new InMemoryMemoryService();
  }

  /** The {@link RunConfig} for the application's own turns, from {@code adk4j.run.*}. */
  @Bean
  @ConditionalOnMissingBean
  public RunConfig adk4jRunConfig(Adk4jProperties properties) {
    Adk4jProperties.Run r = properties.getRun();
    return RunConfig.builder()
        .streamingMode(r.getStreamingMode())
        .maxLlmCalls(r.getMaxLlmCalls())
        .autoCreateSession(r.isAutoCreateSession())
        .stateConflictRetries(r.getStateConflictRetries())
        .maxSessionWait(r.getMaxSessionWait())
        .llmCallTimeout(r.getLlmCallTimeout())
        .toolExecutionMode(r.getToolExecutionMode())
        .maxParallelToolCalls(r.getMaxParallelToolCalls())
        .build();
  }

  /** Compaction for every app, when {@code adk4j.compaction.interval} is set. */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "adk4j.compaction", name = "interval")
  public EventsCompactionConfig adk4jEventsCompactionConfig(Adk4jProperties properties) {
    Adk4jProperties.Compaction c = properties.getCompaction();
    return EventsCompactionConfig.of(c.getInterval(), c.getOverlap());
  }

  /**
   * The model named by {@code adk4j.model.provider} and {@code adk4j.model.name}, through {@link
   * LlmRegistry}, its API key read from the environment through Spring's {@link Environment}.
   */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "adk4j.model", name = "name")
  public BaseLlm adk4jModel(Adk4jProperties properties, Environment environment) {
    Adk4jProperties.Model m = properties.getModel();
    String name = String.valueOf(m.getName());
    String provider = m.getProvider();
    String full = provider == null || provider.isBlank() ? name : provider + "/" + name;
    return LlmRegistry.create(full, environment::getProperty);
  }

  @Bean
  @ConditionalOnMissingBean
  TurnTracker adk4jTurnTracker() {
    return new TurnTracker();
  }

  @Bean
  @ConditionalOnMissingBean
  GracefulShutdown adk4jGracefulShutdown(TurnTracker turns, Adk4jProperties properties) {
    return new GracefulShutdown(turns, properties.getShutdown().getTimeout());
  }

  /**
   * A {@link Runner} per app: each {@link AdkApp} bean, and each {@link BaseAgent} bean that is
   * neither an app's root nor a sub-agent (or {@link AgentTool} agent) of another agent bean, named
   * after the agent. Every runner gets the plugin beans (metrics among them), the services above
   * and the compaction bean; {@link Runner} beans the application declares are taken as they are.
   *
   * @throws IllegalStateException naming an app name two apps share
   */
  @Bean
  @ConditionalOnMissingBean
  public AdkRunners adk4jRunners(
      ObjectProvider<AdkApp> apps,
      ObjectProvider<BaseAgent> agents,
      ObjectProvider<Runner> userRunners,
      ObjectProvider<BasePlugin> plugins,
      BaseSessionService sessions,
      BaseArtifactService artifacts,
      ObjectProvider<BaseMemoryService> memory,
      ObjectProvider<EventsCompactionConfig> compaction) {
    Map<String, Runner> runners = new LinkedHashMap<>();
    List<Runner> owned = new ArrayList<>();
    for (Runner r : userRunners.orderedStream().toList()) {
      put(runners, r.appName(), r);
    }
    List<BasePlugin> shared = plugins.orderedStream().toList();
    List<AdkApp> all = new ArrayList<>(apps.orderedStream().toList());
    List<BaseAgent> agentBeans = agents.orderedStream().toList();
    Set<BaseAgent> notRoots = Collections.newSetFromMap(new IdentityHashMap<>());
    for (AdkApp app : all) {
      notRoots.add(app.rootAgent());
    }
    for (BaseAgent a : agentBeans) {
      collectDescendants(a, notRoots, Collections.newSetFromMap(new IdentityHashMap<>()));
    }
    for (BaseAgent a : agentBeans) {
      if (!notRoots.contains(a)) {
        all.add(AdkApp.of(a.name(), a));
      }
    }
    @Nullable EventsCompactionConfig defaultCompaction = compaction.getIfAvailable();
    for (AdkApp app : all) {
      if (runners.containsKey(app.name())) {
        if (userRunners.stream().anyMatch(r -> r.appName().equals(app.name()))) {
          continue; // the application's own Runner bean serves this app
        }
        throw new IllegalStateException(
            "two apps are named '" + app.name() + "'; name them apart with AdkApp beans");
      }
      List<BasePlugin> ps = new ArrayList<>(shared);
      ps.addAll(app.plugins());
      EventsCompactionConfig c = app.compaction() != null ? app.compaction() : defaultCompaction;
      Runner r =
          Runner.builder()
              .appName(app.name())
              .agent(app.rootAgent())
              .sessionService(sessions)
              .artifactService(artifacts)
              .memoryService(memory.getIfAvailable())
              .eventsCompactionConfig(c)
              .plugins(ps)
              .build();
      runners.put(app.name(), r);
      owned.add(r);
    }
    return new AdkRunners(runners, owned);
  }

  private static void put(Map<String, Runner> runners, String app, Runner r) {
    if (runners.putIfAbsent(app, r) != null) {
      throw new IllegalStateException(
          "two Runner beans serve the app '"
              + app
              + "': "
              + runners.values().stream()
                  .filter(x -> x.appName().equals(app))
                  .map(Object::toString)
                  .collect(Collectors.joining(", ")));
    }
  }

  /** Adds every agent below {@code agent} (sub-agents and agent tools, at any depth). */
  private static void collectDescendants(BaseAgent agent, Set<BaseAgent> out, Set<BaseAgent> seen) {
    if (!seen.add(agent)) {
      return;
    }
    for (BaseAgent sub : agent.subAgents()) {
      out.add(sub);
      collectDescendants(sub, out, seen);
    }
    if (agent instanceof LlmAgent llm) {
      for (BaseTool t : llm.tools()) {
        if (t instanceof AgentTool at) {
          out.add(at.agent());
          collectDescendants(at.agent(), out, seen);
        }
      }
    }
  }

  /**
   * Deletes expired sessions (and trims idle ones) every {@code adk4j.cleanup.interval}, when
   * {@code adk4j.cleanup.enabled=true}.
   */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnBooleanProperty(prefix = "adk4j.cleanup", name = "enabled")
  CleanupSchedule adk4jCleanupSchedule(BaseSessionService sessions, Adk4jProperties properties) {
    Adk4jProperties.Cleanup c = properties.getCleanup();
    SessionCleanup.Builder b =
        SessionCleanup.builder().batchSize(c.getBatchSize()).maxBatches(c.getMaxBatches());
    if (c.getRetainLastEvents() >= 0) {
      b.retainLastEvents(c.getRetainLastEvents(), c.getRetainIdleFor());
    }
    return new CleanupSchedule(b.build(), sessions, c.getInterval());
  }
}
