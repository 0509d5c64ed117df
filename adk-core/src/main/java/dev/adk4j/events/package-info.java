/**
 * Events, the unit of a session's history: {@link dev.adk4j.events.Event} and the {@link
 * dev.adk4j.events.EventActions} (state delta, artifact delta, transfer, escalation) it carries.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.events;

import org.jspecify.annotations.NullMarked;
