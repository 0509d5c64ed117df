package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import java.util.List;

/** The stored events of one session, oldest first. */
public record ListEventsResponse(List<Event> events) {
  public ListEventsResponse {
    events = List.copyOf(events);
  }
}
