/**
 * Artifact services: versioned binary or text parts saved by name per session or per user.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.artifacts;

import org.jspecify.annotations.NullMarked;
