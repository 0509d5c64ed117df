package dev.adk4j.runner;

import static dev.adk4j.runner.InvocationFailedException.throwIfFailed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.memory.BaseMemoryService;
import dev.adk4j.memory.DatabaseMemoryService;
import dev.adk4j.memory.InMemoryMemoryService;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.LoadMemoryTool;
import dev.adk4j.tools.PreloadMemoryTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The memory tools end to end through a {@link Runner}: a fact said in one session is found in
 * another session of the same user (and never of another user), on each backend with its memory in
 * the same store as its sessions.
 */
class MemoryToolsTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  enum Backend {
    MEMORY,
    SQLITE,
    POSTGRES
  }

  @TempDir Path dir;
  private final List<AutoCloseable> opened = new ArrayList<>();
  private BaseSessionService sessions;
  private BaseMemoryService memory;

  private void open(Backend backend) throws Exception {
    switch (backend) {
      case MEMORY -> {
        sessions = new InMemorySessionService();
        memory = new InMemoryMemoryService();
      }
      case SQLITE -> {
        String url = "jdbc:sqlite:" + dir.resolve("store.db");
        sessions = keep(new DatabaseSessionService(url));
        memory = keep(new DatabaseMemoryService(url));
      }
      case POSTGRES -> {
        String url = POSTGRES.newMigratedDatabase();
        sessions = keep(new DatabaseSessionService(url));
        memory = keep(new DatabaseMemoryService(url));
      }
    }
  }

  private <T extends AutoCloseable> T keep(T closeable) {
    opened.add(closeable);
    return closeable;
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
    POSTGRES.dropDatabases();
  }

  private static Content text(String s) {
    return Content.builder().role("user").parts(List.of(Part.fromText(s))).build();
  }

  private List<Event> turn(Runner runner, String user, String session, String message) {
    if (sessions.getSession("app", user, session).blockingGet() == null) {
      sessions.createSession("app", user, null, session).blockingGet();
    }
    return throwIfFailed(runner.runAsync(user, session, text(message)).toList().blockingGet());
  }

  /** Alice says her cat's name in session "first", which is then added to memory. */
  private void aliceRemembersHerCat() {
    ScriptedLlm model = ScriptedLlm.builder().thenText("Nice name!").build();
    Runner runner = runner(model, List.of());
    turn(runner, "alice", "first", "My cat is called Miso.");
    memory
        .addSessionToMemory(sessions.getSession("app", "alice", "first").blockingGet())
        .blockingAwait();
  }

  private Runner runner(ScriptedLlm model, List<BaseTool> tools) {
    LlmAgent agent = LlmAgent.builder().name("helper").model(model).tools(tools).build();
    return Runner.builder()
        .agent(agent)
        .appName("app")
        .sessionService(sessions)
        .memoryService(memory)
        .build();
  }

  private static String memoriesText(FunctionResponse r) {
    return String.valueOf(r.response().orElseThrow().get("memories"));
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void loadMemory_findsWhatTheUserSaidInAnotherSession_andNothingOfAnotherUser(Backend backend)
      throws Exception {
    open(backend);
    aliceRemembersHerCat();
    List<LlmRequest> seen = new ArrayList<>();
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("load_memory", Map.of("query", "cat name"))
            .thenAnswer(
                r -> {
                  seen.add(r);
                  return ScriptedLlm.textResponse("answered");
                })
            .thenFunctionCall("load_memory", Map.of("query", "cat name"))
            .thenAnswer(
                r -> {
                  seen.add(r);
                  return ScriptedLlm.textResponse("answered");
                })
            .build();
    Runner runner = runner(model, List.of(new LoadMemoryTool()));

    turn(runner, "alice", "second", "What is my cat called?");
    turn(runner, "bob", "other", "What is my cat called?");

    assertThat(ScriptedLlm.toolNames(model.request(0))).contains("load_memory");
    assertThat(ScriptedLlm.instruction(model.request(0))).contains("load_memory");
    FunctionResponse alice = ScriptedLlm.functionResponses(seen.get(0)).get(0);
    assertThat(alice.name()).contains("load_memory");
    assertThat(memoriesText(alice)).contains("My cat is called Miso.").contains("author=user");
    FunctionResponse bob = ScriptedLlm.functionResponses(seen.get(1)).get(0);
    assertThat(bob.response().orElseThrow()).containsEntry("memories", List.of());
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void preloadMemory_putsMatchingMemoriesInTheInstruction_forTheUserOnly(Backend backend)
      throws Exception {
    open(backend);
    aliceRemembersHerCat();
    ScriptedLlm model = ScriptedLlm.builder().thenText("Miso!").thenText("No idea.").build();
    Runner runner = runner(model, List.of(new PreloadMemoryTool()));

    turn(runner, "alice", "second", "Remind me, what is my cat called?");
    turn(runner, "bob", "other", "Remind me, what is my cat called?");

    String aliceInstruction = ScriptedLlm.instruction(model.request(0));
    assertThat(aliceInstruction)
        .contains("<PAST_CONVERSATIONS>")
        .contains("user: My cat is called Miso.")
        .contains("</PAST_CONVERSATIONS>");
    assertThat(ScriptedLlm.toolNames(model.request(0))).doesNotContain("preload_memory");
    assertThat(ScriptedLlm.instruction(model.request(1))).doesNotContain("PAST_CONVERSATIONS");
  }

  @Test
  void withoutAMemoryService_loadMemoryAnswersWithAnError_andPreloadFailsTheInvocation()
      throws Exception {
    open(Backend.MEMORY);
    memory = null;
    List<LlmRequest> seen = new ArrayList<>();
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("load_memory", Map.of("query", "cat"))
            .thenAnswer(
                r -> {
                  seen.add(r);
                  return ScriptedLlm.textResponse("ok");
                })
            .build();
    turn(runner(model, List.of(new LoadMemoryTool())), "alice", "s", "hi");
    assertThat(String.valueOf(ScriptedLlm.functionResponses(seen.get(0)).get(0).response()))
        .contains("no memory service");

    Runner preloading =
        runner(ScriptedLlm.builder().thenText("x").build(), List.of(new PreloadMemoryTool()));
    assertThatThrownBy(() -> turn(preloading, "alice", "s", "hi"))
        .hasMessageContaining("no memory service");
  }

  @Test
  void aToolThatWritesStateWhilePreparingARequest_failsTheInvocation_namingIt() throws Exception {
    open(Backend.MEMORY);
    BaseTool writer =
        new BaseTool("writer", "writes where it must not") {
          @Override
          public Optional<com.google.genai.types.FunctionDeclaration> declaration() {
            return Optional.empty();
          }

          @Override
          public Single<Map<String, Object>> runAsync(
              Map<String, Object> args, ToolContext context) {
            return Single.just(Map.of());
          }

          @Override
          public Completable processLlmRequest(LlmRequest.Builder request, ToolContext context) {
            return Completable.fromAction(() -> context.state().put("sneaky", 1));
          }
        };
    Runner runner = runner(ScriptedLlm.builder().thenText("x").build(), List.of(writer));
    assertThatThrownBy(() -> turn(runner, "alice", "s", "hi"))
        .hasMessageContaining("Tool 'writer'")
        .hasMessageContaining("sneaky");
  }

  @Test
  void runnerExposesItsMemoryService_andInMemoryRunnerHasOne() throws Exception {
    open(Backend.MEMORY);
    Runner runner = runner(ScriptedLlm.builder().build(), List.of());
    assertThat(runner.memoryService()).isSameAs(memory);
    assertThat(
            new Runner(
                    LlmAgent.builder().name("a").model(ScriptedLlm.builder().build()).build(),
                    "app",
                    null,
                    sessions,
                    memory)
                .memoryService())
        .isSameAs(memory);
    assertThat(Runner.builder().agent(runner.agent()).appName("app").build().memoryService())
        .isNull();
    assertThat(new InMemoryRunner(runner.agent()).memoryService())
        .isInstanceOf(InMemoryMemoryService.class);
  }
}
