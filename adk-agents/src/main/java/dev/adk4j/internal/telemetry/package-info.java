/**
 * adk4j's OpenTelemetry tracing, through the API only. Internal to adk4j: not part of its API, may
 * change in any release.
 */
@NullMarked
package dev.adk4j.internal.telemetry;

import org.jspecify.annotations.NullMarked;
