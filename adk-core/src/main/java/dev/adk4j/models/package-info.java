/**
 * The model SPI: {@link dev.adk4j.models.BaseLlm}, its request and response, and {@link
 * dev.adk4j.models.Gemini} over the google-genai client.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.models;

import org.jspecify.annotations.NullMarked;
