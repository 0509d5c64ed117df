package dev.adk4j.eval;

import dev.adk4j.AdkException;

/**
 * An eval set, test config or recording is not valid: the message names the file (or source) and
 * the JSON path of the offending node, such as {@code
 * $.eval_cases[2].conversation[0].user_content}, never a data value.
 */
public final class EvalFormatException extends AdkException {
  private static final long serialVersionUID = 1L;

  private final String path;

  EvalFormatException(String source, String path, String problem) {
    super("Invalid " + source + " at " + path + ": " + problem);
    this.path = path;
  }

  EvalFormatException(String source, String path, String problem, Throwable cause) {
    super("Invalid " + source + " at " + path + ": " + problem, cause);
    this.path = path;
  }

  /** The JSON path of the offending node, {@code $} for the document itself. */
  public String path() {
    return path;
  }
}
