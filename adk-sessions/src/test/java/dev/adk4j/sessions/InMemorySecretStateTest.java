package dev.adk4j.sessions;

import javax.crypto.SecretKey;
import org.jspecify.annotations.Nullable;

/** The {@code secret:} scope in {@link InMemorySessionService}. */
class InMemorySecretStateTest extends SecretStateContract {

  private @Nullable InMemorySessionService service;

  @Override
  protected BaseSessionService open(@Nullable SecretKey key) {
    if (service == null) {
      service = new InMemorySessionService();
    }
    return service;
  }

  @Override
  protected boolean persistent() {
    return false;
  }

  @Override
  protected String storedText() {
    return "";
  }
}
