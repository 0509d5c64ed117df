package dev.adk4j.workflows;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;

/** The workflow contract on the in-memory service (durable within the process only). */
class InMemoryWorkflowTest extends WorkflowContract {
  @Override
  protected BaseSessionService newSessions() {
    return new InMemorySessionService();
  }
}
