/**
 * Runnable examples of every documented state scenario; {@link dev.adk4j.examples.Examples} is the
 * main job.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.examples;

import org.jspecify.annotations.NullMarked;
