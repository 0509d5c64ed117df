package dev.adk4j.sessions;

import org.jspecify.annotations.Nullable;

/**
 * ADK for Java's name for the three ids of a session: its app, its user and its own id. The session
 * service and {@code Runner} take one where they take the three ids ({@code createSession(key)},
 * {@code getSession(key, config)}, {@code runAsync(key, message)}, ...).
 *
 * @param appName the app's name
 * @param userId the user's id
 * @param id the session's id; null only to have {@link
 *     BaseSessionService#createSession(SessionKey)} choose one
 */
public record SessionKey(String appName, String userId, @Nullable String id) {}
