package dev.adk4j.agents;

import com.google.genai.types.Part;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import java.util.Map;

/**
 * A real invocation over {@link InMemorySessionService} and {@link InMemoryArtifactService}, for
 * tests of contexts, templating and tools.
 */
public final class TestInvocation {

  public static final String APP = "test_app";
  public static final String USER = "user_1";

  private final InMemorySessionService sessionService = new InMemorySessionService();
  private final InMemoryArtifactService artifactService = new InMemoryArtifactService();
  private final Session session;
  private final InvocationContext context;

  private TestInvocation(String agentName, Map<String, Object> initialState) {
    this.session = sessionService.createSession(APP, USER, initialState, null).blockingGet();
    this.context =
        InvocationContext.builder()
            .sessionService(sessionService)
            .artifactService(artifactService)
            .agent(new TestAgent(agentName))
            .session(session)
            .build();
  }

  /** An invocation of an agent named {@code agentName} on a new session with {@code state}. */
  public static TestInvocation of(String agentName, Map<String, Object> initialState) {
    return new TestInvocation(agentName, initialState);
  }

  public InvocationContext context() {
    return context;
  }

  public ReadonlyContext readonlyContext() {
    return new ReadonlyContext(context);
  }

  public Session session() {
    return session;
  }

  public InMemorySessionService sessionService() {
    return sessionService;
  }

  /** Saves a text artifact in this invocation's session. */
  public void saveTextArtifact(String filename, String text) {
    artifactService
        .saveArtifact(APP, USER, session.id(), filename, Part.fromText(text))
        .blockingGet();
  }

  /** Saves a binary artifact (no text) in this invocation's session. */
  public void saveBinaryArtifact(String filename, byte[] data) {
    artifactService
        .saveArtifact(APP, USER, session.id(), filename, Part.fromBytes(data, "image/png"))
        .blockingGet();
  }
}
