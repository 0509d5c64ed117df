/**
 * adk4j models over the OpenAI Chat Completions API: {@link dev.adk4j.models.openai.OpenAiModel}.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.models.openai;

import org.jspecify.annotations.NullMarked;
