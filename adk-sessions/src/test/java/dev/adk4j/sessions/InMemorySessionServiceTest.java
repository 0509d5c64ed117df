package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

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

  @Test
  void aCopyReadFromAnotherService_isAppendedToThisServicesSessionOfTheSameIds() {
    InMemorySessionService other = new InMemorySessionService();
    Session fromOther = other.createSession(APP, "alice", Map.of(), "s1").blockingGet();
    create("alice", "s1", map());

    append(fromOther, map("k", "here"));

    assertThat(get("alice", "s1").state()).containsEntry("k", "here");
    assertThat(get("alice", "s1").events()).hasSize(1);
    Session untouched = other.getSession(APP, "alice", "s1").blockingGet();
    assertThat(untouched.state()).doesNotContainKey("k");
    assertThat(untouched.events()).isEmpty();
  }
}
