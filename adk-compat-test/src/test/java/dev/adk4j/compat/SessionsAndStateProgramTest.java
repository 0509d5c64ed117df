package dev.adk4j.compat;

// ADK for Java: com.google.adk.events.*, com.google.adk.sessions.* (prefix swap), and
// com.google.adk.sessions.State -> dev.adk4j.state.State (the guide's import table).
import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.state.State;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.junit.jupiter.api.Test;

/** Sessions and state as ADK for Java's documentation uses them. */
class SessionsAndStateProgramTest {

  @Test
  void createSession_withConcurrentMapState_appendEvent_stateDelta_andPrefixes() {
    InMemorySessionService sessionService = new InMemorySessionService();
    ConcurrentMap<String, Object> initialState = new ConcurrentHashMap<>();
    initialState.put("topic", "billing");
    initialState.put(State.USER_PREFIX + "name", "Ada");
    Session session =
        sessionService.createSession("app", "user1", initialState, "s1").blockingGet();

    ConcurrentMap<String, Object> delta = new ConcurrentHashMap<>();
    delta.put("status", "open");
    delta.put(State.TEMP_PREFIX + "scratch", 1);
    Event event =
        Event.builder()
            .id(Event.generateEventId())
            .invocationId("inv-1")
            .author("agent")
            .actions(EventActions.builder().stateDelta(delta).build())
            .build();
    sessionService.appendEvent(session, event).blockingGet();

    Session stored =
        sessionService.getSession("app", "user1", "s1", Optional.empty()).blockingGet();
    assertThat(stored.state())
        .containsEntry("topic", "billing")
        .containsEntry("status", "open")
        .containsEntry("user:name", "Ada")
        .doesNotContainKey("temp:scratch"); // the guide's section 4: temp: is never stored
    assertThat(stored.events()).hasSize(1);
    assertThat(sessionService.listSessions("app", "user1").blockingGet().sessions())
        .extracting(Session::id)
        .containsExactly("s1");
    sessionService.deleteSession("app", "user1", "s1").blockingAwait();
    assertThat(sessionService.getSession("app", "user1", "s1", Optional.empty()).blockingGet())
        .isNull();
  }

  @Test
  void sessionBuilder_withOnlyAnId_builds() {
    Session session = Session.builder("local").build();
    assertThat(session.id()).isEqualTo("local");
    assertThat(session.state()).isEmpty();
    assertThat(session.events()).isEqualTo(List.of());
  }

  @Test
  void stateConstants_areAdksPrefixes() {
    assertThat(State.APP_PREFIX).isEqualTo("app:");
    assertThat(State.USER_PREFIX).isEqualTo("user:");
    assertThat(State.TEMP_PREFIX).isEqualTo("temp:");
  }
}
