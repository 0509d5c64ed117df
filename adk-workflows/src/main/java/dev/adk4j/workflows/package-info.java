/**
 * Graph workflows (ADK 2.0's vocabulary): a {@link dev.adk4j.workflows.Workflow} is an agent whose
 * {@link dev.adk4j.workflows.Node}s (agents, typed functions, classifiers, joins, bounded loops)
 * are connected by {@link dev.adk4j.workflows.Edge}s with routes and state conditions. Its progress
 * is derived from the session's stored events, so a run interrupted at any point resumes at its
 * first unfinished node on any instance sharing the session store. See {@code docs/workflows.md}.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.adk4j.workflows;

import org.jspecify.annotations.NullMarked;
