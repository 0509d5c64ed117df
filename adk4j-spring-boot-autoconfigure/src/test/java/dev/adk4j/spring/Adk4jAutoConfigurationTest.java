package dev.adk4j.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.Part;
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
import dev.adk4j.runner.EventsCompactionConfig;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionLease;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.sqlite.SQLiteDataSource;

/** The auto-configuration's combinations, in contexts that start no web server. */
class Adk4jAutoConfigurationTest {

  private final ApplicationContextRunner contexts =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  Adk4jAutoConfiguration.class, Adk4jActuatorAutoConfiguration.class));

  @TempDir Path dir;

  /** The failed starts these tests provoke are asserted through the context, not printed. */
  private CapturedLogs contextFailures;

  @org.junit.jupiter.api.BeforeEach
  void captureContextFailures() {
    contextFailures = new CapturedLogs("org.springframework.context");
  }

  @org.junit.jupiter.api.AfterEach
  void release() {
    contextFailures.close();
  }

  @Configuration(proxyBeanMethods = false)
  static class Agents {
    @Bean
    LlmAgent helper() {
      return TestAgents.agent("helper");
    }

    /** The root: the helper is its sub-agent, so the helper is no app of its own. */
    @Bean
    LlmAgent assistant(LlmAgent helper) {
      return LlmAgent.builder()
          .name("assistant")
          .model(TestAgents.echoModel())
          .instruction("Answer.")
          .tools(dev.adk4j.tools.FunctionTool.create(TestAgents.class, "lookup"))
          .subAgents(helper)
          .build();
    }
  }

  @Test
  void withoutDataSource_servicesAreInMemory_andEachRootAgentIsAnApp() {
    contexts
        .withUserConfiguration(Agents.class)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(ctx.getBean(BaseSessionService.class))
                  .isInstanceOf(InMemorySessionService.class);
              assertThat(ctx.getBean(BaseArtifactService.class))
                  .isInstanceOf(InMemoryArtifactService.class);
              assertThat(ctx.getBean(BaseMemoryService.class))
                  .isInstanceOf(InMemoryMemoryService.class);
              AdkRunners runners = ctx.getBean(AdkRunners.class);
              assertThat(runners.names()).containsExactly("assistant");
              Runner r = runners.single();
              assertThat(r.memoryService()).isSameAs(ctx.getBean(BaseMemoryService.class));
              assertThat(r.eventsCompactionConfig()).isEmpty();
              assertThat(TestAgents.lastText(TestAgents.turn(r, "u", "s", "hi")))
                  .isEqualTo("echo: hi");
              // nothing runs that the application did not ask for, and no model bean
              assertThat(ctx).doesNotHaveBean(CleanupSchedule.class);
              assertThat(ctx).doesNotHaveBean(BaseLlm.class);
            });
  }

  @Test
  void withSqliteDataSource_sessionsArtifactsAndMemoryAreInItsDatabase() {
    Path file = dir.resolve("app.db");
    contexts
        .withUserConfiguration(Agents.class)
        .withBean(DataSource.class, () -> sqlite(file))
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              BaseSessionService sessions = ctx.getBean(BaseSessionService.class);
              assertThat(sessions).isInstanceOf(DatabaseSessionService.class);
              assertThat(((DatabaseSessionService) sessions).databaseProduct()).isEqualTo("SQLite");
              assertThat(ctx.getBean(BaseMemoryService.class))
                  .isInstanceOf(DatabaseMemoryService.class);
              BaseArtifactService artifacts = ctx.getBean(BaseArtifactService.class);
              assertThat(artifacts).isInstanceOf(DatabaseArtifactService.class);
              assertThat(ctx.getBean(AdkRunners.class).get("assistant").artifactService())
                  .isSameAs(artifacts);
              artifacts
                  .saveArtifact("assistant", "u", "s", "notes.txt", Part.fromText("kept"))
                  .blockingGet();
              TestAgents.turn(ctx.getBean(AdkRunners.class).get("assistant"), "u", "s", "hi");
            });
    // the artifact is in the application's database file too
    try (DatabaseArtifactService reader = new DatabaseArtifactService("jdbc:sqlite:" + file)) {
      assertThat(reader.loadArtifact("assistant", "u", "s", "notes.txt").blockingGet().text())
          .contains("kept");
    }
    // the session is in the application's database file, for any other reader of it
    try (DatabaseSessionService reader = new DatabaseSessionService("jdbc:sqlite:" + file)) {
      Session s = reader.getSession("assistant", "u", "s", Optional.empty()).blockingGet();
      assertThat(s).isNotNull();
      assertThat(s.events()).hasSizeGreaterThanOrEqualTo(4); // user, call, response, answer
    }
  }

  @Test
  void migrationsSkipped_onADatabaseWithoutTheSchema_failsAtStart() {
    contexts
        .withUserConfiguration(Agents.class)
        .withBean(DataSource.class, () -> sqlite(dir.resolve("empty.db")))
        .withPropertyValues("adk4j.sessions.migrate=false")
        .run(ctx -> assertThat(ctx).hasFailed());
  }

  @Test
  void storeMemory_keepsSessionsInMemory_despiteADataSource() {
    contexts
        .withUserConfiguration(Agents.class)
        .withBean(DataSource.class, () -> sqlite(dir.resolve("unused.db")))
        .withPropertyValues("adk4j.sessions.store=memory", "adk4j.memory.store=none")
        .run(
            ctx -> {
              assertThat(ctx.getBean(BaseSessionService.class))
                  .isInstanceOf(InMemorySessionService.class);
              assertThat(ctx.getBean(BaseArtifactService.class))
                  .isInstanceOf(InMemoryArtifactService.class);
              assertThat(ctx).doesNotHaveBean(BaseMemoryService.class);
              assertThat(ctx.getBean(AdkRunners.class).single().memoryService()).isNull();
            });
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnBeans {
    static final InMemorySessionService SESSIONS = new InMemorySessionService();

    @Bean
    BaseSessionService mySessions() {
      return SESSIONS;
    }

    @Bean
    BaseArtifactService myArtifacts() {
      return new InMemoryArtifactService();
    }

    @Bean
    RunConfig myRunConfig() {
      return RunConfig.builder().maxLlmCalls(3).build();
    }

    /** The application's own runner for "assistant": taken as it is. */
    @Bean
    Runner myRunner(BaseSessionService sessions) {
      return Runner.builder()
          .appName("assistant")
          .agent(TestAgents.agent("assistant"))
          .sessionService(sessions)
          .build();
    }

    @Bean
    AdkApp other() {
      return AdkApp.of("other-app", TestAgents.agent("other"));
    }
  }

  @Test
  void theApplicationsBeans_replaceOurs() {
    contexts
        .withUserConfiguration(Agents.class, OwnBeans.class)
        .withBean(DataSource.class, () -> sqlite(dir.resolve("unused2.db")))
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(ctx.getBean(BaseSessionService.class)).isSameAs(OwnBeans.SESSIONS);
              assertThat(ctx.getBeansOfType(BaseArtifactService.class)).hasSize(1);
              assertThat(ctx.getBean(RunConfig.class).maxLlmCalls()).isEqualTo(3);
              AdkRunners runners = ctx.getBean(AdkRunners.class);
              assertThat(runners.names()).containsExactlyInAnyOrder("assistant", "other-app");
              assertThat(runners.get("assistant")).isSameAs(ctx.getBean(Runner.class));
              assertThat(runners.get("other-app").sessionService()).isSameAs(OwnBeans.SESSIONS);
            });
  }

  @Test
  void twoAppsWithOneName_failNamingIt() {
    contexts
        .withBean("a", BaseAgent.class, () -> TestAgents.agent("same"))
        .withBean("b", BaseAgent.class, () -> TestAgents.agent("same"))
        .run(
            ctx ->
                assertThat(ctx.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("two apps are named 'same'"));
  }

  @Test
  void properties_configureRunConfigCompactionCleanupAndTheModel() {
    contexts
        .withUserConfiguration(Agents.class)
        .withPropertyValues(
            "adk4j.run.max-llm-calls=7",
            "adk4j.run.streaming-mode=sse",
            "adk4j.run.max-session-wait=5s",
            "adk4j.compaction.interval=4",
            "adk4j.compaction.overlap=2",
            "adk4j.cleanup.enabled=true",
            "adk4j.cleanup.interval=1h",
            "adk4j.model.provider=gemini",
            "adk4j.model.name=gemini-2.5-flash",
            "GOOGLE_API_KEY=test-key-from-the-environment")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              RunConfig rc = ctx.getBean(RunConfig.class);
              assertThat(rc.maxLlmCalls()).isEqualTo(7);
              assertThat(rc.streamingMode()).isEqualTo(RunConfig.StreamingMode.SSE);
              assertThat(rc.maxSessionWait()).isEqualTo(Duration.ofSeconds(5));
              EventsCompactionConfig c = ctx.getBean(EventsCompactionConfig.class);
              assertThat(c.compactionInterval()).isEqualTo(4);
              assertThat(c.overlapSize()).isEqualTo(2);
              assertThat(ctx.getBean(AdkRunners.class).single().eventsCompactionConfig())
                  .contains(c);
              assertThat(ctx.getBean(CleanupSchedule.class).scheduled()).isTrue();
              assertThat(ctx.getBean(BaseLlm.class).model()).isEqualTo("gemini-2.5-flash");
            });
  }

  @Test
  void aModelWithoutItsKey_failsNamingTheVariable() {
    contexts
        .withPropertyValues("adk4j.model.provider=openai", "adk4j.model.name=gpt-4o")
        .run(
            ctx ->
                assertThat(ctx.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("adk-models-openai"));
  }

  @Test
  void theSecretKey_comesFromAPropertyInBase64_andABadOneFailsNamingTheProperty() {
    String key = java.util.Base64.getEncoder().encodeToString(new byte[16]);
    contexts
        .withPropertyValues("adk4j.sessions.secret-key=" + key)
        .run(
            ctx ->
                assertThat(ctx.getBean(DatabaseSessionConfig.class).secretKey().getEncoded())
                    .hasSize(16));
    contexts
        .withPropertyValues("adk4j.sessions.secret-key=not base64!")
        .run(
            ctx ->
                assertThat(ctx.getStartupFailure())
                    .hasStackTraceContaining("adk4j.sessions.secret-key is not base64"));
  }

  @Test
  void theConfigurationMetadata_describesEveryGroup() throws Exception {
    try (java.io.InputStream in =
        getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("generated by spring-boot-configuration-processor").isNotNull();
      com.fasterxml.jackson.databind.JsonNode meta =
          new com.fasterxml.jackson.databind.ObjectMapper().readTree(in);
      java.util.Map<String, String> described = new java.util.TreeMap<>();
      meta.get("properties")
          .forEach(p -> described.put(p.get("name").asText(), p.path("description").asText()));
      assertThat(described)
          .containsKeys(
              "adk4j.sessions.migrate",
              "adk4j.sessions.jdbc-url",
              "adk4j.memory.store",
              "adk4j.artifacts.store",
              "adk4j.cleanup.enabled",
              "adk4j.run.max-llm-calls",
              "adk4j.compaction.interval",
              "adk4j.server.base-path",
              "adk4j.server.dev-ui",
              "adk4j.model.name",
              "adk4j.shutdown.timeout");
      assertThat(described.values()).allSatisfy(d -> assertThat(d).isNotBlank());
    }
  }

  /**
   * The health indicator reports the session leases, and goes DOWN while their renewal fails (here:
   * another connection holds SQLite's write lock longer than the busy timeout) and while the
   * renewal after it comes late; UP again once a renewal is on time.
   */
  @Test
  void health_goesDownWhileLeaseRenewalsFail_andUpOnceTheyAreOnTime() throws Exception {
    Path file = dir.resolve("leases.db");
    try (CapturedLogs logs = new CapturedLogs("dev.adk4j")) {
      contexts
          .withUserConfiguration(Agents.class)
          .withPropertyValues(
              "adk4j.sessions.jdbc-url=jdbc:sqlite:" + file,
              "adk4j.sessions.lease-duration=600ms",
              "adk4j.sessions.busy-timeout=100ms")
          .run(
              ctx -> {
                assertThat(ctx).hasNotFailed();
                BaseSessionService sessions = ctx.getBean(BaseSessionService.class);
                HealthIndicator health = ctx.getBean("adk4jHealthIndicator", HealthIndicator.class);
                sessions.createSession("assistant", "u", null, "s").blockingGet();
                Health idle = health.health();
                assertThat(idle.getStatus()).isEqualTo(Status.UP);
                assertThat(leases(idle)).containsEntry("held", 0).containsEntry("onTime", true);

                try (SessionLease lease =
                    sessions
                        .acquireLease("assistant", "u", "s", Duration.ofSeconds(5))
                        .blockingGet()) {
                  awaitHealth(health, h -> ((Number) leases(h).get("renewals")).longValue() >= 1);
                  assertThat(health.health().getStatus()).isEqualTo(Status.UP);
                  try (Connection blocker = DriverManager.getConnection("jdbc:sqlite:" + file);
                      Statement st = blocker.createStatement()) {
                    st.execute("BEGIN IMMEDIATE");
                    Health down =
                        awaitHealth(
                            health, h -> ((Number) leases(h).get("failedRounds")).longValue() >= 1);
                    assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(down.getDetails()).containsKey("leaseRenewal");
                    assertThat(leases(down)).containsEntry("held", 1);
                    st.execute("ROLLBACK");
                  }
                  Health up = awaitHealth(health, h -> h.getStatus().equals(Status.UP));
                  assertThat(((Number) leases(up).get("lateRenewals")).longValue())
                      .isGreaterThanOrEqualTo(1);
                  assertThat(lease.isHeld()).isTrue();
                }
              });
      assertThat(logs.messages()).anyMatch(m -> m.startsWith("WARN Could not renew 1 leases"));
    }
  }

  @SuppressWarnings("unchecked")
  private static java.util.Map<String, Object> leases(Health health) {
    return (java.util.Map<String, Object>) health.getDetails().get("leases");
  }

  private static Health awaitHealth(
      HealthIndicator indicator, java.util.function.Predicate<Health> done)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (true) {
      Health h = indicator.health();
      if (done.test(h)) {
        return h;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the health never matched: " + h);
      }
      Thread.sleep(20);
    }
  }

  static DataSource sqlite(Path file) {
    SQLiteDataSource ds = new SQLiteDataSource();
    ds.setUrl("jdbc:sqlite:" + file);
    return ds;
  }
}
