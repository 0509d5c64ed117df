package dev.adk4j.examples;

import dev.adk4j.sessions.InMemorySessionService;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs every example in order, or the one named by the first argument (or the {@code example}
 * system property).
 */
public final class Examples {
  private Examples() {}

  static Map<String, Consumer<PrintStream>> all() {
    Map<String, Consumer<PrintStream>> examples = new LinkedHashMap<>();
    examples.put(
        "state-scoping", out -> StateScopingExample.run(new InMemorySessionService(), out));
    return examples;
  }

  public static void main(String[] args) {
    String only = args.length > 0 ? args[0] : System.getProperty("example", "");
    Map<String, Consumer<PrintStream>> examples = all();
    if (!only.isBlank() && !examples.containsKey(only)) {
      System.err.println("Unknown example '" + only + "'. Known: " + examples.keySet());
      System.exit(2);
    }
    PrintStream out = System.out;
    examples.forEach(
        (name, example) -> {
          if (only.isBlank() || only.equals(name)) {
            out.println("=== " + name + " ===");
            example.accept(out);
            out.println();
          }
        });
  }
}
