/**
 * Agents and their contexts: {@link dev.adk4j.agents.LlmAgent}, the workflow agents, the
 * invocation, callback and read-only contexts, instruction templating and {@link
 * dev.adk4j.agents.RunConfig}.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.agents;

import org.jspecify.annotations.NullMarked;
