package dev.adk4j.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** The {@code secret:} prefix: its scope, its split, and the redaction of every toString. */
class SecretScopeTest {

  static final String VALUE = "hunter2-secret-value";

  @Test
  void secretKeys_haveTheirOwnScope_whichIsNotStored() {
    assertThat(Scope.of("secret:api_key")).isEqualTo(Scope.SECRET);
    assertThat(Scope.of("secrets")).isEqualTo(Scope.SESSION);
    assertThat(Scope.of("Secret:x")).isEqualTo(Scope.SESSION);
    assertThat(Scope.SECRET.isStored()).isFalse();
    assertThat(Scope.TEMP.isStored()).isFalse();
    assertThat(Scope.SESSION.isStored()).isTrue();
    assertThat(Scope.SECRET.prefix()).isEqualTo(State.SECRET_PREFIX);
  }

  @Test
  void split_leavesSecretsOut() {
    Scope.Split split =
        Scope.split(Map.of("secret:k", VALUE, "k", 1, "user:u", 2, "temp:t", 3, "app:a", 4));
    assertThat(split.session()).containsOnlyKeys("k");
    assertThat(split.user()).containsOnlyKeys("user:u");
    assertThat(split.app()).containsOnlyKeys("app:a");
  }

  @Test
  void aSecretReadThenWritten_isNoExpectation() {
    State state = new State(new ConcurrentHashMap<>(Map.of("secret:k", "old", "k", "old")));
    state.put("secret:k", String.valueOf(state.get("secret:k")) + "!");
    state.put("k", String.valueOf(state.get("k")) + "!");
    assertThat(state.expectations()).containsOnlyKeys("k");
    assertThat(state.delta()).containsKeys("secret:k", "k");
  }

  @Test
  void toString_ofStateActionsAndEvents_showsStars() {
    State state = new State(new ConcurrentHashMap<>());
    state.put("secret:k", VALUE);
    state.put("plain", "visible");
    assertThat(state.toString()).contains("secret:k=***").contains("plain=visible");
    assertThat(state.toString()).doesNotContain(VALUE);

    Map<String, Object> delta = new HashMap<>(state.delta());
    EventActions actions =
        EventActions.builder()
            .stateDelta(delta)
            .expectState("secret:k", VALUE)
            .incrementState("secret:n", 5)
            .build();
    assertThat(actions.toString()).doesNotContain(VALUE).contains("***").contains("visible");
    Event event = Event.builder().author("x").actions(actions).build();
    assertThat(event.toString())
        .doesNotContain(VALUE)
        .contains("\"secret:k\":\"***\"")
        .contains("visible");
    // The event itself is unchanged: only its text is redacted.
    assertThat(event.actions().stateDelta()).containsEntry("secret:k", VALUE);
  }

  @Test
  void redacted_returnsTheSameMapWithoutSecrets() {
    Map<String, Object> plain = Map.of("a", 1);
    assertThat(State.redacted(plain)).isSameAs(plain);
  }
}
