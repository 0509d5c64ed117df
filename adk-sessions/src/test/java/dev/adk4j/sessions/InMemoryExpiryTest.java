package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.mapstore.MapSessionStore;
import java.time.Clock;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** Expiry, cleanup and retention of {@link InMemorySessionService}. */
class InMemoryExpiryTest extends ExpiryContract {

  @Override
  protected BaseSessionService open(Clock clock, @Nullable Duration defaultTtl) {
    return InMemorySessionService.builder().clock(clock).defaultTimeToLive(defaultTtl).build();
  }

  @Test
  void aStoreWithoutExpiry_refusesATimeToLive_andHasNothingToPurge() {
    StoreBackedSessionService plain = new StoreBackedSessionService(new MapSessionStore());
    assertThatThrownBy(
            () -> plain.createSession(APP, "u", null, "s", Duration.ofMinutes(1)).blockingGet())
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("MapSessionStore")
        .hasMessageContaining("'s'");
    org.assertj.core.api.Assertions.assertThat(
            plain.purgeExpired(SessionCleanup.defaults()).blockingGet().expiredSessions())
        .isZero();
  }
}
