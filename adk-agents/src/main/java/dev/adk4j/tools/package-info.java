/**
 * Tools an {@link dev.adk4j.agents.LlmAgent} can call: {@link dev.adk4j.tools.FunctionTool} over a
 * Java method and the {@link dev.adk4j.tools.ToolContext} it receives.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.tools;

import org.jspecify.annotations.NullMarked;
