/**
 * adk4j models over the Anthropic Messages API: {@link dev.adk4j.models.anthropic.AnthropicModel}.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.models.anthropic;

import org.jspecify.annotations.NullMarked;
