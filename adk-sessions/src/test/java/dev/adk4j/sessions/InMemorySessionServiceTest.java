package dev.adk4j.sessions;

/** {@link InMemorySessionService} against the session service contract. */
class InMemorySessionServiceTest extends SessionServiceContract {
  @Override
  protected BaseSessionService createService() {
    return new InMemorySessionService();
  }

  @Override
  protected BaseSessionService createService(SessionLimits limits) {
    return new InMemorySessionService(limits);
  }
}
