/**
 * The ADK REST API over adk4j agents and the ADK web dev UI: {@link dev.adk4j.server.AdkServer}.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.adk4j.server;

import org.jspecify.annotations.NullMarked;
