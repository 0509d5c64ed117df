/**
 * Agent2Agent (A2A) both ways: {@link dev.adk4j.a2a.A2aServer} serves an adk4j agent to A2A clients
 * (JSON-RPC over HTTP, server-sent events for {@code message/stream}), one A2A context being one
 * adk4j session; {@link dev.adk4j.a2a.RemoteA2aAgent} is an agent of an adk4j tree that calls a
 * remote A2A agent. See {@code docs/protocols.md}.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.adk4j.a2a;

import org.jspecify.annotations.NullMarked;
