package dev.adk4j.server;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The options a started server runs with (see {@link AdkServer.Builder}). */
record ServerConfig(
    int maxBodyBytes,
    boolean checkHost,
    List<String> allowedHosts,
    List<String> corsOrigins,
    AdkServer.@Nullable Authenticator authenticator,
    @Nullable String bearerToken,
    boolean debug,
    Duration heartbeat,
    java.util.function.Consumer<dev.adk4j.sessions.SessionWait> onSessionWait,
    boolean traces) {}
