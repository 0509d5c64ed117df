/**
 * Tool plumbing shared by {@code dev.adk4j.agents} and {@code dev.adk4j.tools}. Not API: public
 * only because Java packages must be; anything here may change in any release.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.adk4j.internal.tools;

import org.jspecify.annotations.NullMarked;
