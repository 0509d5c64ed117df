package dev.adk4j.server;

import dev.adk4j.sessions.AdkPythonImporter;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import java.io.PrintStream;
import java.util.Objects;

/**
 * The command that copies ADK for Python's sessions into an adk4j database ({@link
 * AdkPythonImporter}), printing its report:
 *
 * <pre>{@code
 * java -cp ... dev.adk4j.server.AdkPythonImport \
 *     --from jdbc:sqlite:adk_python.db --to jdbc:sqlite:data/server.db
 * }</pre>
 *
 * <p>{@code --from} is ADK for Python's database (SQLite or PostgreSQL), {@code --to} the adk4j
 * database the server then uses ({@code --store}); run again, it copies only what is missing. The
 * exit status is 0 when everything was copied, 1 when the report lists problems, 2 on an error.
 */
public final class AdkPythonImport {
  private AdkPythonImport() {}

  /** Runs the command; see the class comment. */
  public static void main(String[] args) {
    int status;
    try {
      status = run(args, System.out);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      status = 2;
    } catch (RuntimeException e) {
      System.err.println("import failed: " + e.getMessage());
      status = 2;
    }
    System.exit(status);
  }

  /**
   * Copies and prints the report to {@code out}.
   *
   * @return the exit status: 0 everything copied, 1 problems reported
   * @throws IllegalArgumentException for missing or unknown options
   */
  static int run(String[] args, PrintStream out) {
    String from = null;
    String to = null;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        value = arg.substring(eq + 1);
        arg = arg.substring(0, eq);
      } else if (i + 1 < args.length) {
        value = args[i + 1];
        i++;
      }
      switch (arg) {
        case "--from" -> from = value;
        case "--to" -> to = value;
        default ->
            throw new IllegalArgumentException(
                "unknown option '"
                    + arg
                    + "'; usage: --from <ADK for Python JDBC URL> --to <adk4j JDBC URL>");
      }
    }
    if (from == null || to == null) {
      throw new IllegalArgumentException(
          "usage: --from <ADK for Python JDBC URL> --to <adk4j JDBC URL>");
    }
    // the target may be the same database (both side by side): allowed here, on purpose
    DatabaseSessionConfig config =
        DatabaseSessionConfig.builder().allowAdkPythonTables(true).build();
    try (DatabaseSessionService target =
        new DatabaseSessionService(Objects.requireNonNull(to), config)) {
      AdkPythonImporter.Report report = AdkPythonImporter.copy(from, target);
      out.println(report.summary());
      return report.problems().isEmpty() ? 0 : 1;
    }
  }
}
