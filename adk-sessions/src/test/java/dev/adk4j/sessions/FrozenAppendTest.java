package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.state.State;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * An append takes the values {@link State} froze at the write as they are (no second normalization
 * or copy), and still normalizes and checks what arrives from elsewhere: a hand-built {@link
 * EventActions}, whatever its maps look like.
 */
class FrozenAppendTest {

  static final String APP = "frozen_app";
  static final String USER = "bob";

  final InMemorySessionService service = new InMemorySessionService();

  private Event event(EventActions actions) {
    return Event.builder()
        .id(java.util.UUID.randomUUID().toString())
        .invocationId("inv")
        .author("agent")
        .timestamp(System.currentTimeMillis())
        .actions(actions)
        .build();
  }

  @Test
  void append_ofStateWrites_storesTheFrozenValuesAsTheyAre() {
    Session session = service.createSession(APP, USER, null, "s1").blockingGet();
    State state = new State(new ConcurrentHashMap<>());
    state.put("user:profile", Map.of("city", "Paris", "tags", List.of("a", "b")));
    state.put("count", 1);
    Object written = state.get("user:profile");
    Event draft = event(EventActions.builder().state(state).build());

    Event stored = service.appendEvent(session, draft).blockingGet();

    assertThat(stored).isSameAs(draft);
    assertThat(stored.actions().stateDelta().get("user:profile")).isSameAs(written);
    Session again = service.getSession(APP, USER, "s1", Optional.empty()).blockingGet();
    assertThat(again.state())
        .containsEntry("user:profile", Map.of("city", "Paris", "tags", List.of("a", "b")))
        .containsEntry("count", 1);
  }

  @Test
  void append_ofAHandBuiltUnmodifiableMap_normalizesWhatIsInside() {
    Session session = service.createSession(APP, USER, null, "s2").blockingGet();
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("n", 7L);
    inner.put("when", java.time.LocalDate.of(2026, 1, 2));
    Event draft =
        event(EventActions.builder().putState("k", Collections.unmodifiableMap(inner)).build());

    Event stored = service.appendEvent(session, draft).blockingGet();

    @SuppressWarnings("unchecked")
    Map<String, Object> value = (Map<String, Object>) stored.actions().stateDelta().get("k");
    assertThat(value).containsEntry("n", 7).containsEntry("when", "2026-01-02");
    assertThat(value.get("n")).isInstanceOf(Integer.class);
    Session again = service.getSession(APP, USER, "s2", Optional.empty()).blockingGet();
    assertThat(again.state().get("k")).isEqualTo(Map.of("n", 7, "when", "2026-01-02"));
  }

  @Test
  void append_ofAHandBuiltInvalidKey_isRefusedNamingKeyAndSession() {
    Session session = service.createSession(APP, USER, null, "s3").blockingGet();
    Event draft = event(EventActions.builder().putState("app:", Map.of("a", 1)).build());

    assertThatThrownBy(() -> service.appendEvent(session, draft).blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'app:'")
        .hasMessageContaining("s3");
  }
}
