package dev.adk4j.agents;

/**
 * How a runner compacts a session's events, as the agents see it: what {@link
 * InvocationContext#eventsCompactionConfig()} answers. The runner's {@code
 * dev.adk4j.runner.EventsCompactionConfig} implements it (the agents do not depend on the runner);
 * it is the one implementation the runner reads.
 */
public interface CompactionSettings {

  /** How many invocations run between two compactions (at least 1). */
  int compactionInterval();

  /** How many already summarized invocations the next summary sees again (at least 0). */
  int overlapSize();
}
