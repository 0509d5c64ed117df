package dev.adk4j.sessions;

/** {@link StateHistoryContract} on {@link InMemorySessionService}. */
class InMemoryStateHistoryTest extends StateHistoryContract {
  @Override
  protected BaseSessionService createService() {
    return new InMemorySessionService();
  }
}
