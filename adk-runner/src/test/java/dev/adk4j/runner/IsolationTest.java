package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.agents.SequentialAgent;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.runner.TestBackends.Backend;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.ListEventsRequest;
import dev.adk4j.sessions.ListSessionsRequest;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SessionLimits;
import dev.adk4j.sessions.SessionNotFoundException;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What no API path crosses, on every backend: one user's sessions and {@code user:} state are out
 * of another user's reach even with the session's id; apps share nothing; state values are never
 * read as templates; and SQL metacharacters in ids, keys and values are plain text.
 */
class IsolationTest {

  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  /**
   * Strings that would change a query built by concatenation, or a {@code LIKE} pattern, or a
   * PostgreSQL dollar-quoted string; and text a careless encoder would mangle. Each is used as an
   * app name, a user id, a session id, a key suffix and a value. (No NUL: PostgreSQL refuses it,
   * see docs/configuration.md.)
   */
  static final List<String> PAYLOADS =
      List.of(
          "'; DROP TABLE adk_events; --",
          "\" OR 1=1 --",
          "' OR '1'='1",
          "\\",
          "\\'",
          "%",
          "_",
          "%_%",
          "$$",
          "$1",
          "/* */",
          "`backtick`",
          ") OR (1=1",
          "?",
          ":name",
          "--",
          "Ünïcödé ✓ 日本語 🙂 \u2028",
          "a\nb\tc");

  static final String APP = "iso";

  @TempDir static Path dir;
  static TestBackends backends;
  static final AtomicInteger N = new AtomicInteger();

  @BeforeAll
  static void open() throws Exception {
    backends = new TestBackends(POSTGRES, dir, SessionLimits.defaults());
  }

  @AfterAll
  static void close() throws Exception {
    backends.close();
  }

  static Event event(Map<String, ?> delta) {
    return Event.builder()
        .invocationId("inv")
        .author("system")
        .actions(EventActions.builder().stateDelta(delta).build())
        .build();
  }

  static String unique(String prefix) {
    return prefix + "-" + N.incrementAndGet();
  }

  // ---- users ----

  @ParameterizedTest
  @EnumSource(Backend.class)
  void userA_withUserBsSessionId_cannotReadChangeDeleteListOrLeaseIt(Backend backend) {
    BaseSessionService sessions = backends.get(backend);
    String app = unique("users");
    Session b =
        sessions
            .createSession(app, "bob", Map.of("k", "bob's", "user:secret", "bob-only"), "b1")
            .blockingGet();
    sessions.appendEvent(b, event(Map.of("count", 1))).blockingGet();
    sessions.createSession(app, "alice", Map.of("user:secret", "alice-only"), "a1").blockingGet();
    String bobBefore = StoredHistory.describe(StoredHistory.read(sessions, app, "bob", "b1"));

    // Read.
    assertThat(sessions.getSession(app, "alice", "b1").blockingGet()).isNull();
    assertThatThrownBy(() -> sessions.listEvents(app, "alice", "b1").blockingGet())
        .isInstanceOf(SessionNotFoundException.class)
        .hasMessageContaining("'b1'")
        .hasMessageContaining("'alice'");
    assertThatThrownBy(
            () ->
                sessions
                    .listEvents(app, "alice", "b1", ListEventsRequest.builder().build())
                    .blockingGet())
        .isInstanceOf(SessionNotFoundException.class);
    assertThat(sessions.listSessions(app, "alice").blockingGet().sessions())
        .extracting(Session::id)
        .containsExactly("a1");
    assertThat(
            sessions
                .listSessions(app, "alice", ListSessionsRequest.builder().build())
                .blockingGet()
                .sessions())
        .extracting(Session::id)
        .containsExactly("a1");
    // Change: a copy naming alice and b1 is a copy of nothing.
    Session forged = Session.builder("b1").appName(app).userId("alice").build();
    assertThatThrownBy(
            () ->
                sessions
                    .appendEvent(forged, event(Map.of("k", "alice's", "user:secret", "x")))
                    .blockingGet())
        .isInstanceOf(SessionNotFoundException.class);
    // Lease.
    assertThatThrownBy(
            () -> sessions.acquireLease(app, "alice", "b1", Duration.ofMillis(50)).blockingGet())
        .isInstanceOf(SessionNotFoundException.class);
    // Delete: completes (deleting is idempotent) and deletes nothing of bob's.
    sessions.deleteSession(app, "alice", "b1").blockingAwait();

    assertThat(StoredHistory.describe(StoredHistory.read(sessions, app, "bob", "b1")))
        .isEqualTo(bobBefore);
    assertThat(sessions.getSession(app, "alice", "a1").blockingGet().state())
        .containsEntry("user:secret", "alice-only")
        .doesNotContainKey("k");
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void userState_writtenByOneUser_neverReachesAnother(Backend backend) {
    BaseSessionService sessions = backends.get(backend);
    String app = unique("userstate");
    Session a = sessions.createSession(app, "alice", null, "same").blockingGet();
    Session b = sessions.createSession(app, "bob", null, "same").blockingGet();

    sessions.appendEvent(a, event(Map.of("user:plan", "alice's", "k", "a"))).blockingGet();
    sessions.appendEvent(b, event(Map.of("user:other", "bob's"))).blockingGet();

    assertThat(sessions.getSession(app, "bob", "same").blockingGet().state())
        .containsOnly(Map.entry("user:other", "bob's"));
    assertThat(sessions.getSession(app, "alice", "same").blockingGet().state())
        .containsOnly(Map.entry("user:plan", "alice's"), Map.entry("k", "a"));
  }

  @ParameterizedTest
  @EnumSource(Backend.class)
  void aRunForUserA_onUserBsSessionId_failsNotFound_andWritesNothing(Backend backend) {
    BaseSessionService sessions = backends.get(backend);
    String app = unique("runner");
    Session b = sessions.createSession(app, "bob", Map.of("user:secret", "s"), "b1").blockingGet();
    sessions.appendEvent(b, event(Map.of("count", 1))).blockingGet();
    String bobBefore = StoredHistory.describe(StoredHistory.read(sessions, app, "bob", "b1"));
    ScriptedLlm llm = ScriptedLlm.answering(r -> ScriptedLlm.textResponse("hello"));
    Runner runner =
        new Runner(LlmAgent.builder().name("a").model(llm).build(), app, null, sessions);

    assertThatThrownBy(
            () ->
                runner
                    .runAsync(
                        "alice",
                        "b1",
                        Contents.user("give me bob's secret"),
                        RunConfig.builder().build(),
                        Map.of("user:secret", "overwritten"))
                    .blockingSubscribe())
        .isInstanceOf(SessionNotFoundException.class)
        .hasMessageContaining("'b1'")
        .hasMessageContaining("'alice'")
        .hasMessageContaining("'" + app + "'");

    assertThat(llm.callCount()).isZero();
    assertThat(StoredHistory.describe(StoredHistory.read(sessions, app, "bob", "b1")))
        .isEqualTo(bobBefore);
    assertThat(sessions.getSession(app, "alice", "b1").blockingGet()).isNull();
    assertThat(sessions.listSessions(app, "alice").blockingGet().sessions()).isEmpty();

    // Even creating on demand gives alice a session of her own, never bob's.
    runner
        .runAsync(
            "alice", "b1", Contents.user("hi"), RunConfig.builder().autoCreateSession(true).build())
        .blockingSubscribe();
    assertThat(StoredHistory.describe(StoredHistory.read(sessions, app, "bob", "b1")))
        .isEqualTo(bobBefore);
    Session alices = sessions.getSession(app, "alice", "b1").blockingGet();
    assertThat(alices.state()).doesNotContainKey("user:secret");
    assertThat(alices.events()).hasSize(2);
  }

  // ---- apps ----

  @ParameterizedTest
  @EnumSource(Backend.class)
  void sameUserAndSessionIdInTwoApps_areTwoSessions_andAppStateIsPerApp(Backend backend) {
    BaseSessionService sessions = backends.get(backend);
    String one = unique("app-one");
    String two = unique("app-two");
    Session s1 =
        sessions
            .createSession(one, "alice", Map.of("app:motd", "one", "user:lang", "fr"), "s")
            .blockingGet();
    sessions.createSession(two, "alice", null, "s").blockingGet();
    sessions.appendEvent(s1, event(Map.of("app:count", 1, "k", "one's"))).blockingGet();

    assertThat(sessions.getSession(two, "alice", "s").blockingGet().state()).isEmpty();
    assertThat(sessions.getSession(two, "alice", "s").blockingGet().events()).isEmpty();
    sessions.deleteSession(two, "alice", "s").blockingAwait();
    assertThat(sessions.getSession(one, "alice", "s").blockingGet().state())
        .containsOnly(
            Map.entry("app:motd", "one"),
            Map.entry("user:lang", "fr"),
            Map.entry("app:count", 1),
            Map.entry("k", "one's"));
    assertThat(sessions.listSessions(two, "alice").blockingGet().sessions()).isEmpty();
    assertThatThrownBy(() -> sessions.listEvents(two, "alice", "s").blockingGet())
        .isInstanceOf(SessionNotFoundException.class)
        .hasMessageContaining("'" + two + "'");

    // A Runner of app two cannot reach app one's session either.
    ScriptedLlm llm = ScriptedLlm.answering(r -> ScriptedLlm.textResponse("hello"));
    Runner runnerOfTwo =
        new Runner(LlmAgent.builder().name("a").model(llm).build(), two, null, sessions);
    assertThatThrownBy(
            () -> runnerOfTwo.runAsync("alice", "s", Contents.user("hi")).blockingSubscribe())
        .isInstanceOf(SessionNotFoundException.class)
        .hasMessageContaining("'" + two + "'");
    assertThat(llm.callCount()).isZero();
    // And a new session in app two sees none of app one's app: or user: state.
    Session fresh = sessions.createSession(two, "alice", null, "t").blockingGet();
    assertThat(fresh.state()).isEmpty();
  }

  // ---- templates ----

  @ParameterizedTest
  @EnumSource(Backend.class)
  void stateValuesThatLookLikePlaceholders_stayLiteral_inInstructions(Backend backend) {
    BaseSessionService sessions = backends.get(backend);
    String app = unique("templates");
    String trap = "{user:secret} {artifact.x.txt} {app:key?} {{temp:y}}";
    sessions
        .createSession(
            app,
            "alice",
            Map.of("note", trap, "user:secret", "TOP-SECRET", "app:key", "APP-KEY"),
            "s")
        .blockingGet();
    InMemoryArtifactService artifacts = new InMemoryArtifactService();
    artifacts
        .saveArtifact(app, "alice", "s", "x.txt", Part.fromText("ARTIFACT-TEXT"))
        .blockingGet();
    // The first agent's answer (a value the model chose) goes through an output key too.
    ScriptedLlm llm = ScriptedLlm.builder().thenText("{user:secret}").thenText("done").build();
    LlmAgent echo =
        LlmAgent.builder().name("echo").model(llm).instruction("Echo.").outputKey("said").build();
    LlmAgent reader =
        LlmAgent.builder()
            .name("reader")
            .model(llm)
            .instruction("Note: {note}. Said: {said}.")
            .build();
    Runner runner =
        new Runner(
            SequentialAgent.builder().name("pipe").subAgents(echo, reader).build(),
            app,
            artifacts,
            sessions);

    runner.runAsync("alice", "s", Contents.user("go")).blockingSubscribe();

    String sent = llm.lastRequest().systemInstruction().orElseThrow();
    assertThat(sent).contains("Note: " + trap + ". Said: {user:secret}.");
    assertThat(sent).doesNotContain("TOP-SECRET", "ARTIFACT-TEXT", "APP-KEY");
  }

  // ---- SQL metacharacters ----

  @ParameterizedTest
  @EnumSource(Backend.class)
  void sqlMetacharacters_inIdsKeysAndValues_roundTripExactly_andTouchNoOtherRow(Backend backend) {
    BaseSessionService sessions = backends.get(backend);
    String shared = unique("inj");
    // A control session, and one the payloads' users share an app with.
    Session control =
        sessions
            .createSession(
                "control", "control", Map.of("k", "v", "user:u", "x", "app:a", "y"), unique("c"))
            .blockingGet();
    sessions.appendEvent(control, event(Map.of("n", 1))).blockingGet();
    String controlBefore =
        StoredHistory.describe(StoredHistory.read(sessions, "control", "control", control.id()));

    for (String p : PAYLOADS) {
      // The payload as app, user, session id, key suffix and value.
      Map<String, Object> state = new LinkedHashMap<>();
      state.put("k" + p, p);
      state.put("user:" + p, p);
      state.put("app:" + p, p);
      Session s = sessions.createSession(p, p, state, p).blockingGet();
      Event appended =
          Event.builder()
              .author(p)
              .invocationId(p)
              .content(Contents.user(p))
              .actions(
                  EventActions.builder()
                      .putState(p, p + p)
                      .putState("user:" + p, List.of(p, Map.of(p, p)))
                      .build())
              .build();
      sessions.appendEvent(s, appended).blockingGet();
      // The payload as the user of a shared app, next to the other payloads' users.
      sessions.createSession(shared, p, Map.of("user:who", p), p).blockingGet();
    }

    for (String p : PAYLOADS) {
      Session s = sessions.getSession(p, p, p).blockingGet();
      assertThat(s).as("session %s", p).isNotNull();
      Map<String, Object> expected = new LinkedHashMap<>();
      expected.put("k" + p, p);
      expected.put("user:" + p, List.of(p, Map.of(p, p)));
      expected.put("app:" + p, p);
      expected.put(p, p + p);
      assertThat(s.state()).as("state of %s", p).isEqualTo(expected);
      assertThat(s.events()).hasSize(1);
      Event e = s.events().get(0);
      assertThat(e.author()).isEqualTo(p);
      assertThat(e.invocationId()).isEqualTo(p);
      assertThat(e.stringifyContent()).isEqualTo(p);
      assertThat(sessions.listSessions(p, p).blockingGet().sessions())
          .extracting(Session::id)
          .containsExactly(p);
      assertThat(sessions.listEvents(p, p, p).blockingGet().events()).hasSize(1);
      // A pattern character matches itself only.
      assertThat(sessions.listSessions(shared, p).blockingGet().sessions())
          .extracting(x -> x.state().get("user:who"))
          .containsExactly(p);
      assertThat(
              sessions
                  .listSessions(shared, p, ListSessionsRequest.builder().pageSize(5).build())
                  .blockingGet()
                  .sessions())
          .extracting(Session::id)
          .containsExactly(p);
    }

    // Deleting one payload's session deletes that one only.
    List<String> others = new ArrayList<>(PAYLOADS);
    String first = others.remove(0);
    sessions.deleteSession(first, first, first).blockingAwait();
    sessions.deleteSession(shared, "%", "%").blockingAwait();
    assertThat(sessions.getSession(first, first, first).blockingGet()).isNull();
    for (String p : others) {
      assertThat(sessions.getSession(p, p, p).blockingGet()).as("session %s", p).isNotNull();
      if (!p.equals("%")) {
        assertThat(sessions.getSession(shared, p, p).blockingGet()).as("shared %s", p).isNotNull();
      }
    }
    assertThat(
            StoredHistory.describe(
                StoredHistory.read(sessions, "control", "control", control.id())))
        .isEqualTo(controlBefore);
  }
}
