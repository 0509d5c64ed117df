/**
 * adk4j's root: {@link dev.adk4j.AdkException}, the root of every exception adk4j defines.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j;

import org.jspecify.annotations.NullMarked;
