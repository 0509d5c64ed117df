package com.example.mapstore;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.SessionLimits;
import dev.adk4j.sessions.SessionServiceContract;
import dev.adk4j.sessions.StoreBackedSessionService;

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
}
