/**
 * adk4j against the other Java agent frameworks (issue 32): the same turn through each one's own
 * agent abstraction, with a scripted model in each one's model interface.
 */
package dev.adk4j.benchmarks.peers;
