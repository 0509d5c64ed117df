package dev.adk4j.spring;

import dev.adk4j.sessions.SessionWait;
import java.util.function.Consumer;

/**
 * Told when a run of the ADK API waits for its session (another turn holds it). Kept free of
 * Micrometer types, so the web configuration can ask for one whether or not metrics are on; {@link
 * MetricsPlugin} counts them.
 */
interface SessionWaits extends Consumer<SessionWait> {}
