/**
 * Session services: the {@link dev.adk4j.sessions.BaseSessionService} contract, its in-memory and
 * database implementations, sessions, paging and the session exceptions.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.sessions;

import org.jspecify.annotations.NullMarked;
