package com.example.mapstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.StateChange;
import dev.adk4j.sessions.StoreBackedSessionService;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The default {@code SessionStore.stateHistory} of a third-party store that does not override it:
 * session and {@code user:} keys read from its events, {@code app:} keys refused saying why.
 */
class MapStoreStateHistoryTest {

  private final BaseSessionService service = new StoreBackedSessionService(new MapSessionStore());

  private Event append(String session, Map<String, Object> delta, long time) {
    Session s = service.getSession("app", "u", session).blockingGet();
    return service
        .appendEvent(
            s,
            Event.builder()
                .author("a")
                .timestamp(time)
                .actions(EventActions.builder().stateDelta(delta).build())
                .build())
        .blockingGet();
  }

  @Test
  void defaultHistory_readsTheEvents_andRefusesAppKeys() {
    service.createSession("app", "u", null, "s1").blockingGet();
    service.createSession("app", "u", null, "s2").blockingGet();
    Event first = append("s1", Map.of("user:x", 1, "k", "a"), 1000);
    Event second = append("s2", Map.of("user:x", 2), 2000);
    Map<String, Object> removal = new HashMap<>();
    removal.put("k", null);
    Event third = append("s1", removal, 3000);

    assertThat(service.stateHistory("app", "u", "s1", "user:x").blockingGet())
        .extracting(StateChange::eventId, StateChange::sessionId)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(first.id(), "s1"),
            org.assertj.core.groups.Tuple.tuple(second.id(), "s2"));
    assertThat(service.stateHistory("app", "u", "s1", "k").blockingGet())
        .extracting(StateChange::eventId, StateChange::removed)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(first.id(), false),
            org.assertj.core.groups.Tuple.tuple(third.id(), true));
    assertThatThrownBy(() -> service.stateHistory("app", "u", "s1", "app:y").blockingGet())
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("MapSessionStore");
  }
}
