package dev.adk4j.examples;

import dev.adk4j.agents.RunConfig;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.workflows.Node;
import dev.adk4j.workflows.Workflow;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A durable workflow (issue 30, see {@code docs/workflows.md}): an order goes through reserve,
 * charge, ship and confirm, each a function node. The example starts the workflow in a second JVM,
 * kills that process (SIGKILL) while it is inside {@code ship}, and resumes the run in this process
 * on the same SQLite file. Reserve and charge are not run again (their completions are stored),
 * ship is run again (a node that was running when its process died runs once more), confirm runs,
 * and the order was charged once.
 */
public final class DurableWorkflowExample {
  private DurableWorkflowExample() {}

  static final String APP = "orders_app";
  static final String USER = "user7";
  static final String SESSION = "order-1001";

  /** What the second JVM prints once it is inside {@code ship}: the moment to kill it. */
  static final String IN_SHIP = "IN-SHIP";

  /** Which process this is, as the nodes record it. */
  private static String process = "this process";

  private static volatile boolean stopInShip;

  /** Where the nodes say where they run: the transcript here, standard output in the second JVM. */
  private static volatile java.util.function.Consumer<String> report =
      line -> {
        System.out.println(line);
        System.out.flush();
      };

  static Workflow order() {
    Node reserve = step("reserve", "reserved");
    Node charge = step("charge", "charged");
    Node ship = step("ship", "shipped");
    Node confirm = step("confirm", "confirmed");
    return Workflow.builder()
        .name("order")
        .description("reserve -> charge -> ship -> confirm")
        .start(reserve)
        .edge(reserve, charge)
        .edge(charge, ship)
        .edge(ship, confirm)
        .build();
  }

  private static Node step(String name, String key) {
    return Node.function(
        name,
        Object.class,
        String.class,
        (ctx, in) -> {
          report.accept("node " + name + " runs in " + process);
          if (name.equals("ship") && stopInShip) {
            System.out.println(IN_SHIP);
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE); // until the example kills this process
          }
          ctx.state().put(key, process);
          if (name.equals("charge")) {
            ctx.state().increment("charges", 1);
          }
          return name + " done";
        });
  }

  static DatabaseSessionService sessions(String url) {
    // A short lease: the killed process's lease lapses within a second.
    return new DatabaseSessionService(
        url, DatabaseSessionConfig.builder().leaseDuration(Duration.ofSeconds(1)).build());
  }

  static void run(Path dataDir, Transcript t) {
    try {
      runChecked(dataDir, t);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static void runChecked(Path dataDir, Transcript t)
      throws IOException, InterruptedException {
    Path db = dataDir.resolve("durable-workflow.db");
    for (String suffix : List.of("", "-wal", "-shm")) {
      Files.deleteIfExists(Path.of(db + suffix));
    }
    String url = "jdbc:sqlite:" + db.toAbsolutePath();
    t.step("Start the order workflow in a second JVM; kill it (SIGKILL) while 'ship' runs");
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                classpath(),
                DurableWorkflowExample.class.getName(),
                url)
            .redirectErrorStream(true)
            .start();
    List<String> seen = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.equals(IN_SHIP)) {
        if (line.startsWith("node ")) {
          t.say(line);
        } else {
          seen.add(line);
        }
      }
      if (line == null) {
        throw new IllegalStateException(
            "the second JVM ended before it reached 'ship': " + String.join("\n", seen));
      }
      child.destroyForcibly(); // SIGKILL: no shutdown hook, no lease released
      if (!child.waitFor(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the second JVM did not stop");
      }
    } finally {
      child.destroyForcibly();
    }
    t.say("second JVM killed inside 'ship'");

    try (DatabaseSessionService sessions = sessions(url)) {
      t.state("Stored state after the kill", nodeState(load(sessions)));
      t.step("Resume in this process: the next turn on the session continues the run at 'ship'");
      Runner runner = new Runner(order(), APP, null, sessions);
      report = t::say;
      runner
          .runAsync(
              USER, SESSION, ExampleSupport.userMessage("resume"), RunConfig.builder().build())
          .blockingSubscribe();
      Session after = load(sessions);
      t.state("Stored state after the resume", nodeState(after));
      @SuppressWarnings("unchecked")
      Map<String, Object> record =
          (Map<String, Object>)
              java.util.Objects.requireNonNull(after.state().get("adk_workflow:order"));
      t.say("run " + record.get("status") + "; charges: " + after.state().get("charges"));
    }
  }

  private static Session load(DatabaseSessionService sessions) {
    return ExampleSupport.load(sessions, APP, USER, SESSION);
  }

  /** The state the nodes wrote, the workflow's own records left out. */
  private static Map<String, Object> nodeState(Session s) {
    Map<String, Object> written = new TreeMap<>(s.state());
    written.keySet().removeIf(k -> k.startsWith(Workflow.RECORD_PREFIX));
    return written;
  }

  /**
   * The class path of this program for the second JVM: the class loader's URLs when it has them
   * (the main job runs in Maven's JVM, whose own class path is Maven's), else {@code
   * java.class.path}.
   */
  private static String classpath() {
    List<String> entries = new ArrayList<>();
    ClassLoader loader = DurableWorkflowExample.class.getClassLoader();
    if (loader instanceof URLClassLoader urls) {
      for (URL u : urls.getURLs()) {
        try {
          entries.add(new File(u.toURI()).getPath());
        } catch (URISyntaxException | IllegalArgumentException e) {
          // not a file: left out
        }
      }
    }
    return entries.isEmpty()
        ? System.getProperty("java.class.path")
        : String.join(File.pathSeparator, entries);
  }

  /** The second JVM: {@code <jdbc url>}; runs the order workflow until it is killed in ship. */
  public static void main(String[] args) {
    process = "the second JVM";
    stopInShip = true;
    ((ch.qos.logback.classic.Logger)
            org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
        .setLevel(ch.qos.logback.classic.Level.ERROR);
    DatabaseSessionService sessions = sessions(args[0]);
    sessions.createSession(APP, USER, null, SESSION).blockingGet();
    new Runner(order(), APP, null, sessions)
        .runAsync(USER, SESSION, ExampleSupport.userMessage("order 1001: one lamp"))
        .blockingSubscribe();
  }
}
