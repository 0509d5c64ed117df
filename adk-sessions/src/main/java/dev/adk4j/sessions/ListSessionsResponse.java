package dev.adk4j.sessions;

import java.util.List;

/**
 * The sessions of one user in one app, each with its merged state and without its events, in
 * ascending order of id.
 */
public record ListSessionsResponse(List<Session> sessions) {
  public ListSessionsResponse {
    sessions = List.copyOf(sessions);
  }
}
