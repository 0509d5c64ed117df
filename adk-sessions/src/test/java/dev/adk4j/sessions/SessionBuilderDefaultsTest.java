package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.events.Event;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@code Session.builder(id).build()} builds as in ADK for Java: the ids it was not given are
 * empty.
 */
class SessionBuilderDefaultsTest {

  @Test
  void builderWithOnlyAnId_buildsAnEmptySession() {
    Session s = Session.builder("s1").build();

    assertThat(s.id()).isEqualTo("s1");
    assertThat(s.appName()).isEmpty();
    assertThat(s.userId()).isEmpty();
    assertThat(s.state()).isEmpty();
    assertThat(s.events()).isEmpty();
    assertThat(s.lastUpdateTime()).isEqualTo(Instant.EPOCH);
  }

  @Test
  void builderWithoutAnId_isStillRefused() {
    assertThatThrownBy(() -> Session.builder("").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("id");
  }

  @Test
  void appendingToASessionNeverCreated_isRefusedNamingItsIds() {
    InMemorySessionService service = new InMemorySessionService();
    Session s = Session.builder("s1").userId("alice").build();

    assertThatThrownBy(
            () -> service.appendEvent(s, Event.builder().author("user").build()).blockingGet())
        .isInstanceOf(SessionNotFoundException.class)
        .hasMessageContaining("'s1'")
        .hasMessageContaining("'alice'")
        .hasMessageContaining("app ''");
  }
}
