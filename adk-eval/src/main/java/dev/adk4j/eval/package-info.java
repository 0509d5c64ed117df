/**
 * Evaluation as ADK defines it: eval sets in ADK's JSON format ({@link EvalSet}, {@link EvalCase},
 * {@link Invocation}), the test config with per-metric thresholds ({@link EvalConfig}), ADK's
 * metrics ({@link EvalMetrics}), adk4j's state checks ({@link StateExpectation}), and the ways to
 * run them: {@link EvalRunner} (N runs per case, record and replay), {@link EvalTests} (JUnit 5)
 * and {@link EvalCli} (a command that prints a table and writes ADK's eval-result JSON). See {@code
 * docs/evaluation.md}.
 */
@NullMarked
package dev.adk4j.eval;

import org.jspecify.annotations.NullMarked;
