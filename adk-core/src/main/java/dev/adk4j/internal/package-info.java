/**
 * Implementation details shared between adk4j's modules. Public only because Java packages must be;
 * not API: anything here may change in any release.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.internal;

import org.jspecify.annotations.NullMarked;
