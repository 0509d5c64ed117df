package dev.adk4j.eval;

import java.util.Map;
import java.util.Objects;

/**
 * How a case's session starts ({@code session_input} in ADK's JSON): its app, user and initial
 * state. The map is copied and read-only.
 */
public record SessionInput(String appName, String userId, Map<String, Object> state) {
  public SessionInput {
    Objects.requireNonNull(appName, "appName");
    Objects.requireNonNull(userId, "userId");
    state = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(state));
  }
}
