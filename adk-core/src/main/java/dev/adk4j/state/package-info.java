/**
 * Session state: the tracked {@link dev.adk4j.state.State} map with its scopes ({@code app:},
 * {@code user:}, {@code temp:}, session) and its read-only view.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.state;

import org.jspecify.annotations.NullMarked;
