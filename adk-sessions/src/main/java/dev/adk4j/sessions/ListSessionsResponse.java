package dev.adk4j.sessions;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Sessions of one user in one app, each with its merged state and without its events.
 *
 * <p>From {@code listSessions(app, user)}: all of them, in ascending order of id, and no {@link
 * #nextPageToken()}. From {@code listSessions(app, user, ListSessionsRequest)}: one page, most
 * recently updated first, with the token of the next page unless this is the last (adk4j).
 */
public record ListSessionsResponse(List<Session> sessions, Optional<String> nextPageToken) {
  public ListSessionsResponse {
    sessions = List.copyOf(sessions);
    nextPageToken = Objects.requireNonNull(nextPageToken, "nextPageToken");
  }

  /** All the sessions there are: no next page. */
  public ListSessionsResponse(List<Session> sessions) {
    this(sessions, Optional.empty());
  }
}
