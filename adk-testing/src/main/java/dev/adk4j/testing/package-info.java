/**
 * The adk4j test kit, published as {@code dev.adk4j:adk-testing} (add it at test scope): {@link
 * dev.adk4j.testing.ScriptedLlm}, a model that answers from a script, so that agents, tools and
 * callbacks run offline and deterministically, and that records what it was sent.
 */
@NullMarked
package dev.adk4j.testing;

import org.jspecify.annotations.NullMarked;
