package dev.adk4j.sessions;

import dev.adk4j.events.Event;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Stored events of one session.
 *
 * <p>From {@code listEvents(app, user, id)}: all of them, oldest first, and no {@link
 * #nextPageToken()}. From {@code listEvents(app, user, id, ListEventsRequest)}: one page in the
 * requested order, with the token of the next page unless this is the last (adk4j).
 */
public record ListEventsResponse(List<Event> events, Optional<String> nextPageToken) {
  public ListEventsResponse {
    events = List.copyOf(events);
    nextPageToken = Objects.requireNonNull(nextPageToken, "nextPageToken");
  }

  /** All the events there are: no next page. */
  public ListEventsResponse(List<Event> events) {
    this(events, Optional.empty());
  }
}
