package dev.adk4j.runner;

import dev.adk4j.agents.BaseAgent;
import dev.adk4j.artifacts.InMemoryArtifactService;
import dev.adk4j.memory.InMemoryMemoryService;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.sessions.InMemorySessionService;
import java.util.List;

/** A {@link Runner} over fresh in-memory session, artifact and memory services. */
public class InMemoryRunner extends Runner {

  /**
   * A runner for {@code agent} in the app named after the agent ({@code agent.name()}), as ADK for
   * Java 1.8.0 names it, so sessions a program creates with {@code runner.appName()} or with the
   * agent's name are the ones the runner finds.
   */
  public InMemoryRunner(BaseAgent agent) {
    this(agent, agent.name());
  }

  public InMemoryRunner(BaseAgent agent, String appName) {
    this(agent, appName, List.of());
  }

  /** A runner for {@code agent} in {@code appName} with {@code plugins} (ADK's shape). */
  public InMemoryRunner(BaseAgent agent, String appName, List<? extends BasePlugin> plugins) {
    super(
        agent,
        appName,
        new InMemoryArtifactService(),
        new InMemorySessionService(),
        new InMemoryMemoryService(),
        null,
        plugins);
  }
}
