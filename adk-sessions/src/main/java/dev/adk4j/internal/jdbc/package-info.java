/**
 * The JDBC store behind {@link dev.adk4j.sessions.DatabaseSessionService} (SQLite and PostgreSQL):
 * schema, transactions, retries. Not API: public only because Java packages must be; anything here
 * may change in any release.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.internal.jdbc;

import org.jspecify.annotations.NullMarked;
