/**
 * Session internals shared with the agents and runner modules. Not API: public only because Java
 * packages must be; anything here may change in any release.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.adk4j.internal.sessions;

import org.jspecify.annotations.NullMarked;
