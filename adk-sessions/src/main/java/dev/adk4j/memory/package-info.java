/**
 * Memory services: what an agent remembers of a user's past sessions, searched by keyword. The
 * {@link dev.adk4j.memory.BaseMemoryService} contract (ADK's), an in-memory implementation and a
 * database one that lives in the same SQLite or PostgreSQL store as {@code DatabaseSessionService}.
 * Agents reach it through the {@code load_memory} and {@code preload_memory} tools.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.memory;

import org.jspecify.annotations.NullMarked;
