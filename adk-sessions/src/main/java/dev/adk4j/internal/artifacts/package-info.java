/**
 * The artifact-name rule shared by the artifact services and the agents' contexts. Not API: public
 * only because Java packages must be; anything here may change in any release.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.adk4j.internal.artifacts;

import org.jspecify.annotations.NullMarked;
