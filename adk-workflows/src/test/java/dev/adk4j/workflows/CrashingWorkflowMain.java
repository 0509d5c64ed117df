package dev.adk4j.workflows;

import com.google.genai.types.FunctionDeclaration;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.plugins.BasePlugin;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The 6-node workflow of {@link WorkflowCrashTest} (intake, three concurrent enrichments, the third
 * an agent node, a join, a summary), and the second JVM's main: it runs the workflow on a database
 * and, when a node reaches the kill point it was given, prints {@value #KILL_POINT} and waits to be
 * killed.
 *
 * <p>Every function node first appends its name to a log file (its external effect, at least once),
 * then writes state; a kill point {@code start:<node>} is right after that line (a node boundary:
 * the nodes before it have stored their completion), {@code mid:<node>} after the node's state
 * writes (in the middle of the node: its writes are in memory only). The agent node's points are in
 * its model ({@link #slaAgent}), and {@code end} is after the last node's completion, before the
 * run's end ({@link EndKillPoint}).
 */
public final class CrashingWorkflowMain {
  static final String KILL_POINT = "KILL-POINT-REACHED";
  static final String COMPLETED = "RUN-COMPLETED";
  static final Duration LEASE = Duration.ofMillis(300);

  private CrashingWorkflowMain() {}

  static Workflow workflow(Path log, String killPoint) {
    Node intake = step("intake", log, killPoint, Map.of("ticket", "T-42"));
    Node a = step("enrich_a", log, killPoint, Map.of("customer", "ACME"));
    Node b = step("enrich_b", log, killPoint, Map.of("priority", 2));
    Node c = Node.agent(slaAgent(log, killPoint));
    Node join = Node.join("gather");
    Node summary =
        Node.function(
            "summary",
            Map.class,
            String.class,
            (ctx, in) -> {
              reached("summary", log, killPoint, "start");
              String text =
                  new java.util.TreeMap<>(in).keySet() + " " + ctx.state().get("customer");
              ctx.state().put("summary", text);
              ctx.state().increment("completions", 1);
              reached("summary", log, killPoint, "mid");
              return text;
            });
    return Workflow.builder()
        .name("support")
        .start(intake)
        .edge(intake, a)
        .edge(intake, b)
        .edge(intake, c)
        .edge(a, join)
        .edge(b, join)
        .edge(c, join)
        .edge(join, summary)
        .build();
  }

  /**
   * The agent node {@code enrich_c}: its model calls the {@code sla} tool (which writes {@code
   * sla_hours}, reads and rewrites {@code sla_checks}, and counts a completion), then answers. Its
   * kill points are in its model: {@code start:enrich_c} at the first call, {@code mid:enrich_c} at
   * the second, once the tool's event (with its writes) is stored.
   */
  static LlmAgent slaAgent(Path log, String killPoint) {
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenAnswer(
                request -> {
                  reached("enrich_c", log, killPoint, "start");
                  return ScriptedLlm.functionCallResponse("sla", Map.of());
                })
            .thenAnswer(
                request -> {
                  reached("enrich_c", log, killPoint, "mid");
                  return ScriptedLlm.textResponse("enrich_c ok");
                })
            .build();
    BaseTool sla =
        new BaseTool("sla", "looks up the SLA") {
          @Override
          public Optional<FunctionDeclaration> declaration() {
            return Optional.of(FunctionDeclaration.builder().name("sla").build());
          }

          @Override
          public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext ctx) {
            return Single.fromCallable(
                () -> {
                  ctx.state().put("sla_hours", 24);
                  int checks = ((Number) ctx.state().getOrDefault("sla_checks", 0)).intValue();
                  ctx.state().put("sla_checks", checks + 1);
                  ctx.state().increment("completions", 1);
                  return Map.of("hours", 24);
                });
          }
        };
    return LlmAgent.builder().name("enrich_c").model(model).tools(sla).build();
  }

  /**
   * Stops for ever at kill point {@code end} when the last node's completion is emitted (it is
   * stored by then): after it, before the run's end event. Events reach the plugins on the thread
   * that stored them, so the workflow does not go on.
   */
  static final class EndKillPoint extends BasePlugin {
    private final String killPoint;

    EndKillPoint(String killPoint) {
      super("end-kill-point");
      this.killPoint = killPoint;
    }

    @Override
    public Maybe<Event> onEventCallback(InvocationContext invocationContext, Event event) {
      if (killPoint.equals("end")
          && event.nodeInfo().map(n -> n.path().equals("support/summary")).orElse(false)
          && event.output().isPresent()) {
        stopHere(killPoint);
      }
      return Maybe.empty();
    }
  }

  private static Node step(String name, Path log, String killPoint, Map<String, Object> writes) {
    return Node.function(
        name,
        Object.class,
        String.class,
        (ctx, in) -> {
          reached(name, log, killPoint, "start");
          writes.forEach(ctx.state()::put);
          ctx.state().increment("completions", 1);
          reached(name, log, killPoint, "mid");
          return name + " ok";
        });
  }

  /** Logs the node's start, and stops here for ever if this is the kill point. */
  private static void reached(String node, Path log, String killPoint, String where) {
    if (where.equals("start")) {
      try {
        Files.writeString(
            log,
            node + "\n",
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    if (killPoint.equals(where + ":" + node)) {
      stopHere(killPoint);
    }
  }

  private static void stopHere(String killPoint) {
    System.out.println(KILL_POINT + " " + killPoint);
    System.out.flush();
    try {
      Thread.sleep(Long.MAX_VALUE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static DatabaseSessionService sessions(String url) {
    return new DatabaseSessionService(
        url, DatabaseSessionConfig.builder().leaseDuration(LEASE).build());
  }

  static RunConfig runConfig() {
    return RunConfig.builder()
        .autoCreateSession(true)
        .maxSessionWait(Duration.ofSeconds(20))
        .build();
  }

  static void run(Workflow wf, DatabaseSessionService sessions, String session, String text) {
    run(wf, sessions, session, text, "none");
  }

  static void run(
      Workflow wf, DatabaseSessionService sessions, String session, String text, String point) {
    Runner runner =
        Runner.builder()
            .agent(wf)
            .appName("app")
            .sessionService(sessions)
            .plugins(new EndKillPoint(point))
            .build();
    List<?> events =
        runner.runAsync("u", session, Contents.user(text), runConfig()).toList().blockingGet();
    if (events.isEmpty()) {
      throw new IllegalStateException("no events");
    }
  }

  /**
   * {@code <jdbc url> <log dir> <kill point>,<kill point>...}: one run per kill point, each on its
   * own session ({@code s0}, {@code s1}...) and log file ({@code s0.log}...), all at once; each
   * stops at its kill point, and the JVM is killed once all have reached theirs.
   */
  public static void main(String[] args) throws Exception {
    String[] points = args[2].split(",");
    try (DatabaseSessionService sessions = sessions(args[0])) {
      List<Thread> runs = new java.util.ArrayList<>();
      for (int i = 0; i < points.length; i++) {
        String session = "s" + i;
        Workflow wf = workflow(Path.of(args[1]).resolve(session + ".log"), points[i]);
        String point = points[i];
        Thread t = new Thread(() -> run(wf, sessions, session, "ticket 42", point));
        t.start();
        runs.add(t);
      }
      for (Thread t : runs) {
        t.join();
      }
    }
    System.out.println(COMPLETED);
    System.out.flush();
  }
}
