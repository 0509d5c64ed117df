package dev.adk4j.agents;

import dev.adk4j.events.Event;
import java.util.UUID;

/** {@link IdSource#random()}: the ids adk4j gives by default. */
final class RandomIds implements IdSource {
  static final RandomIds INSTANCE = new RandomIds();

  private RandomIds() {}

  @Override
  public String newInvocationId() {
    return "e-" + UUID.randomUUID();
  }

  @Override
  public String newEventId() {
    return Event.generateEventId();
  }

  @Override
  public String newFunctionCallId() {
    return "adk-" + UUID.randomUUID();
  }

  @Override
  public String toString() {
    return "IdSource.random()";
  }
}
