package dev.adk4j.runner;

import dev.adk4j.agents.BaseAgent;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.memory.InMemoryMemoryService;
import dev.adk4j.sessions.InMemorySessionService;

/** A {@link Runner} over fresh in-memory session, artifact and memory services. */
public class InMemoryRunner extends Runner {

  /** A runner for {@code agent} in the app {@code InMemoryRunner}. */
  public InMemoryRunner(BaseAgent agent) {
    this(agent, "InMemoryRunner");
  }

  public InMemoryRunner(BaseAgent agent, String appName) {
    super(
        agent,
        appName,
        new InMemoryArtifactService(),
        new InMemorySessionService(),
        new InMemoryMemoryService(),
        null);
  }
}
