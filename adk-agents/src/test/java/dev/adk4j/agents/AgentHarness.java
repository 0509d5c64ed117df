package dev.adk4j.agents;

import com.google.genai.types.Part;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testsupport.Contents;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs an agent tree the way a runner does, without one, over the in-memory services. Each run
 * reads the session from storage (so it sees what is stored, and the {@code temp:} values of
 * earlier runs are gone), stores the user's message, then runs the root agent in a fresh invocation
 * and collects what it emits. Agents store each event themselves ({@link
 * InvocationContext#persist}) before emitting it, so a run returns the stored events (and any
 * partial ones).
 *
 * <p>What only the Runner adds is not here: turns serialized per session, a final error event when
 * an invocation fails (here the agent's error is thrown by {@link #run} as it is), compaction.
 * Tests of those stay in adk-runner.
 */
final class AgentHarness {

  static final String APP = "harness_app";
  static final String USER = "harness_user";

  private final InMemorySessionService sessions = new InMemorySessionService();
  private final InMemoryArtifactService artifacts = new InMemoryArtifactService();
  private final String sessionId;
  private InvocationContext lastContext;

  AgentHarness() {
    this(Map.of());
  }

  AgentHarness(Map<String, Object> initialState) {
    this.sessionId = sessions.createSession(APP, USER, initialState, null).blockingGet().id();
  }

  /** Runs {@code root} on the user message {@code text}; returns every event it emitted. */
  List<Event> run(BaseAgent root, String text) {
    return run(root, text, RunConfig.builder().build());
  }

  /** Runs {@code root} with {@code runConfig} on the user message {@code text}. */
  List<Event> run(BaseAgent root, String text, RunConfig runConfig) {
    return root.runAsync(start(root, text, runConfig)).toList().blockingGet();
  }

  /**
   * Starts an invocation of {@code root} on the user message {@code text} (stored) and returns its
   * context, for a test that subscribes to {@code root.runAsync(ctx)} itself.
   */
  InvocationContext start(BaseAgent root, String text, RunConfig runConfig) {
    InvocationContext ctx =
        InvocationContext.builder()
            .sessionService(sessions)
            .artifactService(artifacts)
            .agent(root)
            .session(stored())
            .userContent(Contents.user(text))
            .runConfig(runConfig)
            .build();
    lastContext = ctx;
    ctx.persist(
        Event.builder()
            .invocationId(ctx.invocationId())
            .author("user")
            .content(Contents.user(text))
            .build());
    return ctx;
  }

  /** The context of the last invocation run. */
  InvocationContext lastContext() {
    return lastContext;
  }

  /** The session as storage holds it now. */
  Session stored() {
    return Objects.requireNonNull(
        sessions.getSession(APP, USER, sessionId).blockingGet(), "the harness's session");
  }

  /** The stored events of the session, oldest first. */
  List<Event> storedEvents() {
    return sessions.listEvents(APP, USER, sessionId).blockingGet().events();
  }

  /** The session service, for tests that touch other sessions of {@link #USER}. */
  InMemorySessionService sessions() {
    return sessions;
  }

  /** Saves a text artifact in the session. */
  void saveTextArtifact(String filename, String text) {
    artifacts.saveArtifact(APP, USER, sessionId, filename, Part.fromText(text)).blockingGet();
  }
}
