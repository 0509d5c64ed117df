package dev.adk4j.internal.tools;

/**
 * Marks an agent that must run again when a message resumes an invocation paused inside one of its
 * sub-agents, because it goes on after that sub-agent (as a sequential agent does): the runner
 * starts a resumed run at the highest such ancestor of the agent that paused, not at that agent.
 * The workflow agent ({@code dev.adk4j.workflows.Workflow}) implements it. Not API.
 */
public interface ResumesThroughChildren {}
