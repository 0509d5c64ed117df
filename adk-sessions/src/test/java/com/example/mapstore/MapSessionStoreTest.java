package com.example.mapstore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.SessionLimits;
import dev.adk4j.sessions.SessionServiceContract;
import dev.adk4j.sessions.StoreBackedSessionService;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A backend outside {@code dev.adk4j.sessions}, written against the public SPI only, passes the
 * whole session service contract by extending it: what {@code CONTRIBUTING.md} asks of a new
 * backend.
 */
class MapSessionStoreTest extends SessionServiceContract {

  @Override
  protected BaseSessionService createService() {
    return createService(SessionLimits.defaults());
  }

  @Override
  protected BaseSessionService createService(SessionLimits limits) {
    return new StoreBackedSessionService(new MapSessionStore(), limits);
  }

  @Test
  void theStore_importsNothingInternal() throws Exception {
    Path dir = Path.of("src/test/java/com/example/mapstore");
    try (var files = Files.list(dir)) {
      files
          .filter(f -> !f.getFileName().toString().endsWith("Test.java"))
          .forEach(
              f -> {
                try {
                  assertThat(Files.readString(f))
                      .as(f.toString())
                      .doesNotContain("dev.adk4j.internal");
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
    }
  }
}
