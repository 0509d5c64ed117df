package dev.adk4j.agents;

import com.google.genai.types.Part;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.events.Event;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testsupport.Contents;
import java.util.List;
import java.util.Map;

/**
 * Runs an agent tree the way a runner does, over the in-memory services: stores the user's message,
 * then runs the root agent in a fresh invocation and collects what it emits.
 */
final class AgentHarness {

  static final String APP = "harness_app";
  static final String USER = "harness_user";

  private final InMemorySessionService sessions = new InMemorySessionService();
  private final InMemoryArtifactService artifacts = new InMemoryArtifactService();
  private final Session session;
  private InvocationContext lastContext;

  AgentHarness() {
    this(Map.of());
  }

  AgentHarness(Map<String, Object> initialState) {
    this.session = sessions.createSession(APP, USER, initialState, null).blockingGet();
  }

  /** Runs {@code root} on the user message {@code text}; returns every event it emitted. */
  List<Event> run(BaseAgent root, String text) {
    InvocationContext ctx =
        InvocationContext.builder()
            .sessionService(sessions)
            .artifactService(artifacts)
            .agent(root)
            .session(session)
            .userContent(Contents.user(text))
            .build();
    lastContext = ctx;
    ctx.persist(
        Event.builder()
            .invocationId(ctx.invocationId())
            .author("user")
            .content(Contents.user(text))
            .build());
    return root.runAsync(ctx).toList().blockingGet();
  }

  /** The context of the last invocation run. */
  InvocationContext lastContext() {
    return lastContext;
  }

  /** The session as storage holds it now. */
  Session stored() {
    return sessions.getSession(APP, USER, session.id()).blockingGet();
  }

  /** Saves a text artifact in the session. */
  void saveTextArtifact(String filename, String text) {
    artifacts.saveArtifact(APP, USER, session.id(), filename, Part.fromText(text)).blockingGet();
  }
}
