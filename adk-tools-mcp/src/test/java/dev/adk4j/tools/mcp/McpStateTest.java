package dev.adk4j.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import io.reactivex.rxjava3.core.Maybe;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * State around MCP tools, end to end through a Runner on every backend: a before-tool callback
 * fills the MCP tool's argument from state (the documented pattern), the reference server's {@code
 * echo} answers, and an after-tool callback stores the answer under a {@code user:} key; the write
 * lands in the function-response event's {@code stateDelta} and in storage (memory, a SQLite file,
 * PostgreSQL).
 */
class McpStateTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  @TempDir static Path dir;

  static McpToolset everything;
  static final List<AutoCloseable> OPENED = new ArrayList<>();

  enum Backend {
    MEMORY,
    SQLITE,
    POSTGRES
  }

  @BeforeAll
  static void connect() {
    everything =
        McpToolset.builder().stdio(NodeMcp.everythingStdio()).toolFilter(List.of("echo")).build();
  }

  @AfterAll
  static void close() throws Exception {
    if (everything != null) {
      everything.close();
    }
    for (AutoCloseable c : OPENED) {
      c.close();
    }
    POSTGRES.dropDatabases();
  }

  static BaseSessionService sessions(Backend backend) throws Exception {
    return switch (backend) {
      case MEMORY -> new InMemorySessionService();
      case SQLITE -> open(new DatabaseSessionService("jdbc:sqlite:" + dir.resolve("s.db")));
      case POSTGRES -> open(new DatabaseSessionService(POSTGRES.newMigratedDatabase()));
    };
  }

  static BaseSessionService open(DatabaseSessionService s) {
    OPENED.add(s);
    return s;
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void argumentsFromState_resultIntoUserState_inTheFunctionResponseEvent(Backend backend)
      throws Exception {
    BaseSessionService sessions = sessions(backend);
    String app = "mcp_state_" + backend.name().toLowerCase(java.util.Locale.ROOT);
    sessions
        .createSession(app, "u", Map.of("user:greeting", "hello from state"), "s")
        .blockingGet();
    ScriptedLlm model =
        ScriptedLlm.builder().thenFunctionCall("echo", Map.of()).thenText("echoed").build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("echoer")
            .model(model)
            .toolsets(everything)
            .beforeToolCallback(
                (tool, args, ctx) -> {
                  // The pattern for MCP tools: arguments the model leaves out come from state.
                  Object greeting = ctx.state().get("user:greeting");
                  if (greeting != null) {
                    args.putIfAbsent("message", greeting);
                  }
                  return Maybe.empty();
                })
            .afterToolCallback(
                (tool, args, ctx, response) -> {
                  ctx.state().put("user:last_echo", response.get("result"));
                  return Maybe.empty();
                })
            .build();
    Runner runner = new Runner(agent, app, null, sessions);

    List<Event> events = runner.runAsync("u", "s", Contents.user("echo it")).toList().blockingGet();

    Event response =
        events.stream().filter(e -> !e.functionResponses().isEmpty()).findFirst().orElseThrow();
    assertThat(response.functionResponses().get(0).response().get())
        .isEqualTo(Map.of("result", "Echo: hello from state"));
    assertThat(response.actions().stateDelta())
        .containsEntry("user:last_echo", "Echo: hello from state");
    Session stored = sessions.getSession(app, "u", "s", java.util.Optional.empty()).blockingGet();
    assertThat(stored.state()).containsEntry("user:last_echo", "Echo: hello from state");
    Event storedResponse =
        stored.events().stream()
            .filter(e -> !e.functionResponses().isEmpty())
            .findFirst()
            .orElseThrow();
    assertThat(storedResponse.actions().stateDelta())
        .containsEntry("user:last_echo", "Echo: hello from state");
    // Another session of the same user reads it.
    Session other = sessions.createSession(app, "u", null, "s2").blockingGet();
    assertThat(other.state()).containsEntry("user:last_echo", "Echo: hello from state");
    model.assertScriptConsumed();
  }
}
