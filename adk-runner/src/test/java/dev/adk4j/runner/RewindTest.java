package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.state.Scope;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Single;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Runner#rewind} on every backend: the session's state is what a replay of the events before
 * the rewound invocation gives, the model no longer sees the annulled turns, the events stay
 * stored, artifacts get their old content back, and {@code user:}/{@code app:} keys are restored
 * unless another session changed them since.
 */
class RewindTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  static final String APP = "rewind_app";
  static final String USER = "u";

  @TempDir Path dir;
  final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
    POSTGRES.dropDatabases();
  }

  BaseSessionService backend(String name) throws Exception {
    if (name.equals("memory")) {
      return new InMemorySessionService();
    }
    String url =
        name.equals("sqlite")
            ? "jdbc:sqlite:" + dir.resolve("s.db")
            : POSTGRES.newMigratedDatabase();
    DatabaseSessionService s =
        new DatabaseSessionService(url, DatabaseSessionConfig.builder().minimumIdle(0).build());
    opened.add(s);
    return s;
  }

  /** Records the turn's word: session keys, a user key, and the notes artifact. */
  static final class Note extends BaseTool {
    Note() {
      super("note", "Takes a note.");
    }

    @Override
    public Optional<FunctionDeclaration> declaration() {
      return Optional.of(
          FunctionDeclaration.builder().name(name()).description(description()).build());
    }

    @Override
    public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
      int n = context.state().get("count") instanceof Number c ? c.intValue() + 1 : 1;
      context.state().put("count", n);
      context.state().put("note_" + n, "turn " + n);
      context.state().put("user:notes_taken", n);
      return context
          .saveArtifact("notes.txt", Part.fromText("notes up to turn " + n))
          .map(v -> Map.<String, Object>of("version", v));
    }
  }

  static String texts(Content c) {
    return c.parts().orElse(List.of()).stream()
        .map(p -> p.text().orElse(""))
        .collect(Collectors.joining());
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite", "postgres"})
  void rewind_restoresSessionStateAndArtifacts_andHidesTheAnnulledTurnsFromTheModel(String backend)
      throws Exception {
    BaseSessionService sessions = backend(backend);
    InMemoryArtifactService artifacts = new InMemoryArtifactService();
    sessions.createSession(APP, USER, Map.of("initial", "kept"), "s").blockingGet();
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("note", Map.of())
            .thenText("noted one")
            .thenFunctionCall("note", Map.of())
            .thenText("noted two")
            .thenFunctionCall("note", Map.of())
            .thenText("noted three")
            .thenText("after the rewind")
            .build();
    LlmAgent agent =
        LlmAgent.builder().name("scribe").model(model).outputKey("last").tools(new Note()).build();
    Runner runner = new Runner(agent, APP, artifacts, sessions);
    List<String> invocations = new ArrayList<>();
    for (String text : List.of("first", "second", "third")) {
      List<Event> events =
          runner
              .runAsync(USER, "s", Contents.user(text), RunConfig.builder().build())
              .toList()
              .blockingGet();
      invocations.add(events.get(0).invocationId());
    }
    Session before = sessions.getSession(APP, USER, "s").blockingGet();
    assertThat(before.state()).containsEntry("count", 3).containsEntry("last", "noted three");

    Event rewind = runner.rewind(USER, "s", invocations.get(1)).blockingGet();

    assertThat(rewind.actions().rewindBeforeInvocationId()).contains(invocations.get(1));
    assertThat(rewind.author()).isEqualTo("user");
    Session after = sessions.getSession(APP, USER, "s").blockingGet();
    // The session keys are what a replay of the events before the second invocation gives.
    Map<String, Object> replay = new HashMap<>(Map.of("initial", "kept"));
    for (Event e : before.events()) {
      if (invocations.get(1).equals(e.invocationId())) {
        break;
      }
      e.actions()
          .stateDelta()
          .forEach(
              (k, v) -> {
                if (Scope.of(k) == Scope.SESSION) {
                  if (v == null) {
                    replay.remove(k);
                  } else {
                    replay.put(k, v);
                  }
                }
              });
    }
    Map<String, Object> sessionKeys = new HashMap<>();
    after
        .state()
        .forEach(
            (k, v) -> {
              if (Scope.of(k) == Scope.SESSION) {
                sessionKeys.put(k, v);
              }
            });
    assertThat(sessionKeys).isEqualTo(replay);
    assertThat(after.state())
        .containsEntry("count", 1)
        .containsEntry("last", "noted one")
        .containsEntry("initial", "kept")
        .doesNotContainKeys("note_2", "note_3")
        // A user: key no other session changed since is restored like a session key.
        .containsEntry("user:notes_taken", 1);
    // The artifact got its content of then back, as a new version.
    assertThat(rewind.actions().artifactDelta()).containsKey("notes.txt");
    Part notes = artifacts.loadArtifact(APP, USER, "s", "notes.txt").blockingGet();
    assertThat(notes.text()).contains("notes up to turn 1");
    // Nothing is deleted: the annulled events and the rewind event are all stored.
    assertThat(after.events()).hasSize(before.events().size() + 1);

    runner
        .runAsync(USER, "s", Contents.user("fourth"), RunConfig.builder().build())
        .blockingSubscribe();
    List<String> seen = model.lastRequest().contents().stream().map(RewindTest::texts).toList();
    assertThat(seen).contains("first", "noted one", "fourth");
    assertThat(seen).doesNotContain("second", "noted two", "third", "noted three");
  }

  static Event write(String invocation, Map<String, Object> delta) {
    return Event.builder()
        .invocationId(invocation)
        .author("agent")
        .actions(EventActions.builder().stateDelta(delta).build())
        .build();
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite", "postgres"})
  void rewind_restoresSharedKeysOnlyWhereNoOtherSessionChangedThemSince(String backend)
      throws Exception {
    BaseSessionService sessions = backend(backend);
    Session s = sessions.createSession(APP, USER, null, "s").blockingGet();
    Session other = sessions.createSession(APP, USER, null, "other").blockingGet();
    sessions
        .appendEvent(s, write("i1", Map.of("user:theme", "dark", "app:mode", "a")))
        .blockingGet();
    // Another session writes app:mode before the undone turn: that is the value before it.
    sessions.appendEvent(other, write("o1", Map.of("app:mode", "b"))).blockingGet();
    sessions
        .appendEvent(
            s, write("i2", Map.of("user:theme", "light", "user:lang", "fr", "app:mode", "c")))
        .blockingGet();
    // ...and user:lang after it: that later write stands.
    sessions.appendEvent(other, write("o2", Map.of("user:lang", "de"))).blockingGet();
    Runner runner =
        new Runner(
            LlmAgent.builder().name("a").model(ScriptedLlm.builder().build()).build(),
            APP,
            null,
            sessions);

    Event rewind = runner.rewind(USER, "s", "i2").blockingGet();

    Session after = sessions.getSession(APP, USER, "s").blockingGet();
    assertThat(after.state())
        .containsEntry("user:theme", "dark") // restored: only this session changed it
        .containsEntry("app:mode", "b") // restored to its last value before, another session's
        .containsEntry("user:lang", "de"); // changed elsewhere since: kept
    assertThat(rewind.actions().stateDelta()).containsOnlyKeys("user:theme", "app:mode");
    assertThat(sessions.getSession(APP, USER, "other").blockingGet().state())
        .containsEntry("user:theme", "dark")
        .containsEntry("app:mode", "b");
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite", "postgres"})
  void rewind_restoresASharedKeyAnotherSessionOnlyWroteAgainWithTheSameValue(String backend)
      throws Exception {
    BaseSessionService sessions = backend(backend);
    Session s = sessions.createSession(APP, USER, null, "s").blockingGet();
    Session other = sessions.createSession(APP, USER, null, "other").blockingGet();
    sessions.appendEvent(s, write("i1", Map.of("app:mode", "a"))).blockingGet();
    sessions.appendEvent(s, write("i2", Map.of("app:mode", "c", "user:lang", "fr"))).blockingGet();
    // After the undone turn another session writes app:mode again with the value it holds (a
    // write that changes nothing, which no conditional write could tell from no write), and
    // user:lang with a new value (a change, which stands).
    sessions.appendEvent(other, write("o1", Map.of("app:mode", "c"))).blockingGet();
    sessions.appendEvent(other, write("o2", Map.of("user:lang", "de"))).blockingGet();
    Runner runner =
        new Runner(
            LlmAgent.builder().name("a").model(ScriptedLlm.builder().build()).build(),
            APP,
            null,
            sessions);

    Event rewind = runner.rewind(USER, "s", "i2").blockingGet();

    assertThat(rewind.actions().stateDelta()).containsOnlyKeys("app:mode");
    assertThat(sessions.getSession(APP, USER, "s").blockingGet().state())
        .containsEntry("app:mode", "a")
        .containsEntry("user:lang", "de");
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void rewind_toAnInvocationTheSessionDoesNotHave_failsNamingIt(String backend) throws Exception {
    BaseSessionService sessions = backend(backend);
    sessions.createSession(APP, USER, null, "s").blockingGet();
    Runner runner =
        new Runner(
            LlmAgent.builder().name("a").model(ScriptedLlm.builder().build()).build(),
            APP,
            null,
            sessions);
    assertThatThrownBy(() -> runner.rewind(USER, "s", "e-nope").blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'e-nope'")
        .hasMessageContaining("'s'");
    assertThat(sessions.getSession(APP, USER, "s").blockingGet().events()).isEmpty();
  }
}
