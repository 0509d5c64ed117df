package dev.adk4j.runner;

import static dev.adk4j.runner.InvocationFailedException.throwIfFailed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.google.genai.types.FunctionDeclaration;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.LogCapture;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Single;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@code secret:} key end to end, on every backend: a tool stores it, a later turn (on a new
 * service instance where the store persists) reads it in a tool and, where the agent opts in, in
 * its instruction; no emitted or stored event, no log line (at DEBUG) carries the value.
 */
class SecretStateRunnerTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  static final String APP = "secret_app";
  static final String USER = "u";

  @TempDir Path dir;
  final String token = "tok-" + UUID.randomUUID();
  final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
    POSTGRES.dropDatabases();
  }

  /**
   * Signs in (here: knows the token, as an OAuth exchange would return it) and keeps the token in
   * {@code secret:token}; answers without it.
   */
  static final class StoreToken extends BaseTool {
    final String token;

    StoreToken(String token) {
      super("store_token", "Signs the user in and keeps the API token for later calls.");
      this.token = token;
    }

    @Override
    public Optional<FunctionDeclaration> declaration() {
      return Optional.of(
          FunctionDeclaration.builder().name(name()).description(description()).build());
    }

    @Override
    public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
      context.state().put("secret:token", token);
      return Single.just(Map.of("stored", true));
    }
  }

  /** Reads {@code secret:token} and says whether it is the expected one, never showing it. */
  static final class UseToken extends BaseTool {
    final String expected;

    UseToken(String expected) {
      super("use_token", "Calls the API with the stored token.");
      this.expected = expected;
    }

    @Override
    public Optional<FunctionDeclaration> declaration() {
      return Optional.of(
          FunctionDeclaration.builder().name(name()).description(description()).build());
    }

    @Override
    public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
      return Single.just(
          Map.of("authorized", expected.equals(context.state().get("secret:token"))));
    }
  }

  static SecretKey newKey() {
    byte[] bytes = new byte[16];
    new SecureRandom().nextBytes(bytes);
    return new SecretKeySpec(bytes, "AES");
  }

  /** Opens a service per call on one store (or one service, in memory). */
  Supplier<BaseSessionService> backend(String name) throws Exception {
    SecretKey key = newKey();
    switch (name) {
      case "memory":
        InMemorySessionService memory = new InMemorySessionService();
        return () -> memory;
      case "sqlite":
        return database("jdbc:sqlite:" + dir.resolve("s.db"), key);
      default:
        return database(POSTGRES.newMigratedDatabase(), key);
    }
  }

  Supplier<BaseSessionService> database(String url, SecretKey key) {
    return () -> {
      DatabaseSessionService s =
          new DatabaseSessionService(
              url, DatabaseSessionConfig.builder().minimumIdle(0).secretKey(key).build());
      opened.add(s);
      return s;
    };
  }

  List<Event> turn(LlmAgent agent, BaseSessionService sessions, String text) {
    return throwIfFailed(
        new Runner(agent, APP, null, sessions)
            .runAsync(USER, "s", Contents.user(text), RunConfig.builder().build())
            .toList()
            .blockingGet());
  }

  void assertNoToken(String text) {
    assertThat(text).doesNotContain(token);
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite", "postgres"})
  void aSecretWrittenByATool_isReadLaterByToolsAndOptedInInstructions_andLeaksNowhere(
      String backend) throws Exception {
    Supplier<BaseSessionService> open = backend(backend);
    List<ILoggingEvent> logged;
    LogCapture capture = LogCapture.everything(Level.ALL); // captured, not printed
    List<Event> emitted = new ArrayList<>();
    ScriptedLlm secondModel;
    BaseSessionService later;
    try {
      BaseSessionService first = open.get();
      first.createSession(APP, USER, null, "s").blockingGet();
      ScriptedLlm firstModel =
          ScriptedLlm.builder()
              .thenFunctionCall("store_token", Map.of())
              .thenText("Stored.")
              .build();
      LlmAgent keeper =
          LlmAgent.builder().name("keeper").model(firstModel).tools(new StoreToken(token)).build();
      emitted.addAll(turn(keeper, first, "remember my token"));

      later = open.get(); // a new instance on the same store (the same one in memory)
      secondModel =
          ScriptedLlm.builder().thenFunctionCall("use_token", Map.of()).thenText("Done.").build();
      LlmAgent caller =
          LlmAgent.builder()
              .name("caller")
              .model(secondModel)
              .instruction("Authenticate with {secret:token}.")
              .secretsInInstructions(true)
              .tools(new UseToken(token))
              .build();
      emitted.addAll(turn(caller, later, "call the API"));
    } finally {
      logged = capture.events();
      capture.close();
    }

    // The opted-in instruction rendered the secret; the tool read it.
    assertThat(secondModel.instructions().get(0)).isEqualTo("Authenticate with " + token + ".");
    assertThat(emitted)
        .anySatisfy(
            e ->
                assertThat(e.functionResponses())
                    .anySatisfy(
                        r ->
                            assertThat(r.response().orElseThrow())
                                .containsEntry("authorized", true)));
    // Nowhere else: not in an emitted or stored event, nor in a log line.
    for (Event e : emitted) {
      assertNoToken(e.toJson());
      assertNoToken(e.toString());
    }
    for (Event e : later.listEvents(APP, USER, "s").blockingGet().events()) {
      assertNoToken(e.toJson());
    }
    Session s = later.getSession(APP, USER, "s").blockingGet();
    assertThat(s.state()).containsEntry("secret:token", token);
    assertNoToken(s.toString());
    assertThat(logged).isNotEmpty();
    for (ILoggingEvent e : logged) {
      assertNoToken(e.getFormattedMessage());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void anInstructionReadingASecret_withoutTheOptIn_failsNamingKeyAndAgent(String backend)
      throws Exception {
    BaseSessionService sessions = backend(backend).get();
    sessions.createSession(APP, USER, Map.of("secret:token", token), "s").blockingGet();
    ScriptedLlm model = ScriptedLlm.builder().thenText("never").build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("careless")
            .model(model)
            .instruction("Token: {secret:token?}")
            .build();

    assertThatThrownBy(() -> turn(agent, sessions, "hi"))
        .hasMessageContaining("secret:token")
        .hasMessageContaining("careless")
        .hasMessageContaining("secretsInInstructions");
    assertThat(model.requests()).isEmpty();
  }
}
