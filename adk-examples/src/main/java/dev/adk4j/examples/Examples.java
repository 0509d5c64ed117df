package dev.adk4j.examples;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * The main job: runs every example in order on an embedded SQLite file, printing a transcript, or
 * only the example named on the command line.
 *
 * <pre>
 * ./mvnw -q -B -Pexamples -DskipTests package                        # all examples
 * ./mvnw -q -B -Pexamples -DskipTests package -Dexample=pipeline     # one of them
 * ./mvnw -q -B -Pexamples -DskipTests package -Dadk4j.verbose=true   # all, with debug logging
 * </pre>
 *
 * Arguments (or the words of {@code -Dexample}): example names and {@code -v}/{@code --verbose};
 * {@code -Dadk4j.verbose=true} also turns on debug logging. The store is {@code
 * <adk4j.data>/examples.db} ({@code data/} by default); delete it to start over.
 */
public final class Examples {
  private Examples() {}

  /** One runnable example. */
  interface Example {
    void run(BaseSessionService sessions, Path dataDir, Transcript t);
  }

  static Map<String, Example> all() {
    Map<String, Example> examples = new LinkedHashMap<>();
    examples.put("state-scoping", (s, d, t) -> StateScopingExample.run(s, t.out()));
    examples.put("initial-state", (s, d, t) -> InitialStateExample.run(s, t));
    examples.put("greeting", (s, d, t) -> GreetingAgentExample.run(s, t));
    examples.put("manual-update", (s, d, t) -> ManualStateUpdateExample.run(s, t));
    examples.put("tool-state", (s, d, t) -> ToolStateExample.run(s, t));
    examples.put("callback-state", (s, d, t) -> CallbackStateExample.run(s, t));
    examples.put("templating", (s, d, t) -> TemplatingExample.run(s, t));
    examples.put("pipeline", (s, d, t) -> PipelineExample.run(s, t));
    examples.put("compaction", (s, d, t) -> CompactionExample.run(s, t));
    examples.put("state-history", (s, d, t) -> StateHistoryExample.run(s, t));
    examples.put("memory", (s, d, t) -> MemoryExample.run(d, t));
    examples.put("secret-state", (s, d, t) -> SecretStateExample.run(s, d, t));
    examples.put("expiry", (s, d, t) -> ExpiryExample.run(t));
    examples.put("rewind", (s, d, t) -> RewindExample.run(s, t));
    examples.put("agent-tool", (s, d, t) -> AgentToolExample.run(s, t));
    examples.put("parallel-tools", (s, d, t) -> ParallelToolsExample.run(s, t));
    examples.put("triage-workflow", (s, d, t) -> TriageWorkflowExample.run(s, t));
    examples.put("durable-workflow", (s, d, t) -> DurableWorkflowExample.run(d, t));
    examples.put("plugins", (s, d, t) -> PluginsExample.run(s, t));
    examples.put("tracing", (s, d, t) -> TracingExample.run(s, t));
    examples.put("human-in-the-loop", (s, d, t) -> HumanInTheLoopExample.run(d, t));
    examples.put("mcp-tools", (s, d, t) -> McpToolsExample.run(s, t));
    examples.put("eval", (s, d, t) -> EvalExample.run(s, t));
    examples.put(
        "a2a",
        (s, d, t) -> {
          try {
            A2aExample.run(s, t);
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
    examples.put(
        "persistence",
        (s, d, t) -> {
          Path file = d.resolve("persistence.db");
          t.step("Run the visit-counting program twice against " + file);
          PersistenceExample.runOnce(file, t);
          PersistenceExample.runOnce(file, t);
        });
    return examples;
  }

  public static void main(String[] args) throws Exception {
    List<String> names = new ArrayList<>();
    boolean verbose = Boolean.getBoolean("adk4j.verbose");
    List<String> words = new ArrayList<>(List.of(args));
    String property = System.getProperty("example", "");
    if (!property.isBlank()) {
      words.addAll(List.of(property.trim().split("[,\\s]+")));
    }
    for (String w : words) {
      if (w.equals("-v") || w.equals("--verbose")) {
        verbose = true;
      } else if (!w.isBlank()) {
        names.add(w);
      }
    }
    ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
        .setLevel(verbose ? Level.DEBUG : Level.WARN);

    Map<String, Example> examples = all();
    for (String name : names) {
      if (!examples.containsKey(name)) {
        System.err.println("Unknown example '" + name + "'. Known: " + examples.keySet());
        System.exit(2);
      }
    }
    Path dataDir = Path.of(System.getProperty("adk4j.data", "data"));
    Files.createDirectories(dataDir);
    PrintStream out = System.out;
    Transcript t = new Transcript(out);
    Path store = dataDir.resolve("examples.db");
    out.println("adk4j examples. " + ExampleModels.describe());
    out.println("Session store: SQLite file " + store.toAbsolutePath());
    out.println();
    try (DatabaseSessionService sessions = new DatabaseSessionService("jdbc:sqlite:" + store)) {
      for (Map.Entry<String, Example> e : examples.entrySet()) {
        if (names.isEmpty() || names.contains(e.getKey())) {
          out.println("=== " + e.getKey() + " ===");
          e.getValue().run(sessions, dataDir, t);
          out.println();
        }
      }
    }
  }
}
