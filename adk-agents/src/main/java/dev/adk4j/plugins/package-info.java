/**
 * Plugins: one policy applied to every agent, model call and tool call of a {@code Runner}'s
 * invocations ({@link dev.adk4j.plugins.BasePlugin}), and two ready ones, {@link
 * dev.adk4j.plugins.LoggingPlugin} and {@link dev.adk4j.plugins.GlobalInstructionPlugin}.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.plugins;

import org.jspecify.annotations.NullMarked;
