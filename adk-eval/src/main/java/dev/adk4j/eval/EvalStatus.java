package dev.adk4j.eval;

/**
 * The outcome of a metric or a case. {@code PASSED}, {@code FAILED} and {@code NOT_EVALUATED} are
 * ADK's (written as 1, 2 and 3 in ADK's result JSON); {@code INFORMATIONAL} marks the operational
 * metrics, which report a value and never pass or fail; {@code ERRORED} (adk4j) marks a case or a
 * metric that could not be judged: the agent failed, the app is unknown, the judge model failed or
 * answered malformed JSON. ADK's JSON has neither of the last two: both are written as 3.
 */
public enum EvalStatus {
  PASSED(1),
  FAILED(2),
  NOT_EVALUATED(3),
  INFORMATIONAL(3),
  ERRORED(3);

  private final int adkValue;

  EvalStatus(int adkValue) {
    this.adkValue = adkValue;
  }

  /** The number ADK's result JSON writes for this status. */
  public int adkValue() {
    return adkValue;
  }
}
