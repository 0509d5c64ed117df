/**
 * The entry point: {@link dev.adk4j.runner.Runner} runs an agent's invocations against a session
 * service, end to end; event compaction.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.runner;

import org.jspecify.annotations.NullMarked;
