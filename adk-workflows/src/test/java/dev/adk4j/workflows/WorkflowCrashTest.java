package dev.adk4j.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.adk4j.events.Event;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.SharedEmbeddedPostgres;
import dev.adk4j.testsupport.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kills a second JVM (SIGKILL) at every node boundary and in the middle of every function node of a
 * 6-node workflow with a fan-out ({@link CrashingWorkflowMain}; one session per kill point, all
 * stopped at their points when the JVM dies), then resumes each run in this JVM on the same
 * database, on SQLite and PostgreSQL, and shows: every node whose completion was stored before the
 * kill ran exactly once, the final state equals an uninterrupted run's, and the stored history
 * holds one completion per node.
 */
class WorkflowCrashTest {
  @RegisterExtension static final SharedEmbeddedPostgres POSTGRES = new SharedEmbeddedPostgres();

  @TempDir Path dir;

  /**
   * Every node boundary (before each node), the middle of each function node and of the agent node
   * ({@code mid:enrich_c}: its tool's writes are stored, its model not yet answered), and after the
   * last node's completion, before the run's end ({@code end}).
   */
  static final List<String> KILL_POINTS =
      List.of(
          "start:intake",
          "mid:intake",
          "start:enrich_a",
          "mid:enrich_a",
          "start:enrich_b",
          "mid:enrich_b",
          "start:enrich_c",
          "mid:enrich_c",
          "start:summary",
          "mid:summary",
          "end");

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"sqlite", "postgres"})
  void aRunKilledAtAnyPoint_resumesOnAnotherInstance_withEachFinishedNodeRunOnce(String backend)
      throws Exception {
    String url =
        backend.equals("sqlite")
            ? "jdbc:sqlite:" + dir.resolve("sessions.db")
            : POSTGRES.newMigratedDatabase();
    Path refLog = dir.resolve("reference.log");

    // Every point on both backends: one second JVM runs one session per kill point, all at once;
    // each stops at its point; then SIGKILL.
    List<String> points = KILL_POINTS;
    killSecondJvmAt(url, points);

    try (DatabaseSessionService sessions = CrashingWorkflowMain.sessions(url)) {
      CrashingWorkflowMain.run(
          CrashingWorkflowMain.workflow(refLog, "none"), sessions, "ref", "ticket 42");
      Session reference = session(sessions, "ref");
      for (int i = 0; i < points.size(); i++) {
        String id = "s" + i;
        String point = points.get(i);
        Path log = dir.resolve(id + ".log");
        Set<String> finishedBeforeKill = finishedNodes(session(sessions, id));
        if (point.equals("mid:enrich_c")) {
          // The agent node's tool event, with its writes, was stored before the kill.
          assertThat(session(sessions, id).state())
              .containsEntry("sla_checks", 1)
              .doesNotContainKey("adk_workflow:support.enrich_c");
        }
        if (point.equals("end")) {
          assertThat(finishedBeforeKill).contains("adk_workflow:support.summary");
        }
        assertThat(lines(log)).as("the killed JVM reached %s", point).isNotEmpty();

        CrashingWorkflowMain.run(
            CrashingWorkflowMain.workflow(log, "none"), sessions, id, "resume after the crash");

        Session resumed = session(sessions, id);
        assertThat(comparable(resumed))
            .as("state after %s", point)
            .isEqualTo(comparable(reference));
        assertThat(resumed.state()).containsEntry("completions", 5);
        List<String> ran = lines(log);
        for (String path : finishedBeforeKill) {
          String node = path.substring(path.lastIndexOf('.') + 1);
          if (!node.equals("START") && !node.equals("gather")) {
            assertThat(ran)
                .as("runs of %s, finished before the kill at %s", node, point)
                .containsOnlyOnce(node);
          }
        }
        assertThat(new TreeSet<>(ran)).isEqualTo(new TreeSet<>(lines(refLog)));
        // The stored history: one completion per node of the run, and the run ended.
        assertThat(completions(resumed))
            .as("completions after %s", point)
            .isEqualTo(completions(reference));
        assertThat(completions(resumed).values()).containsOnly(1);
      }
    }
  }

  private void killSecondJvmAt(String url, List<String> killPoints) throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(
                ChildJvm.command(
                    "-Xmx256m",
                    "-cp",
                    System.getProperty("java.class.path"),
                    CrashingWorkflowMain.class.getName(),
                    url,
                    dir.toString(),
                    String.join(",", killPoints)))
            .redirectError(dir.resolve("child.err").toFile());
    Process child = pb.start();
    try {
      CompletableFuture<Set<String>> reached =
          CompletableFuture.supplyAsync(
              () -> {
                Set<String> points = new TreeSet<>();
                try (BufferedReader out =
                    new BufferedReader(
                        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                  String line;
                  while (points.size() < killPoints.size() && (line = out.readLine()) != null) {
                    if (line.startsWith(CrashingWorkflowMain.KILL_POINT + " ")) {
                      points.add(line.substring(CrashingWorkflowMain.KILL_POINT.length() + 1));
                    }
                  }
                } catch (java.io.IOException e) {
                  // the child is gone: the points reached so far are the answer
                }
                return points;
              });
      Set<String> points = reached.get(60, TimeUnit.SECONDS);
      assertThat(points)
          .as("kill points reached (stderr: %s)", Files.readString(dir.resolve("child.err")))
          .isEqualTo(new TreeSet<>(killPoints));
    } finally {
      child.destroyForcibly(); // SIGKILL: no shutdown hook, no orderly close
      child.waitFor(30, TimeUnit.SECONDS);
    }
  }

  static List<String> lines(Path log) throws Exception {
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  static Session session(DatabaseSessionService sessions, String id) {
    return sessions.getSession("app", "u", id, Optional.empty()).blockingGet();
  }

  /** The state without the run's id. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> comparable(Session s) {
    Map<String, Object> state = new TreeMap<>(s.state());
    Map<String, Object> run =
        new HashMap<>((Map<String, Object>) state.get("adk_workflow:support"));
    run.remove("run");
    state.put("adk_workflow:support", run);
    return state;
  }

  /** The nodes whose completion the session's last run stored. */
  static Set<String> finishedNodes(Session s) {
    return completions(s).keySet();
  }

  /** How many completions each node of the last run stored. */
  static Map<String, Integer> completions(Session s) {
    Map<String, Integer> done = new TreeMap<>();
    String runId = null;
    List<Event> events = new ArrayList<>(s.events());
    for (Event e : events) {
      for (Map.Entry<String, Object> d : e.actions().stateDelta().entrySet()) {
        if (!(d.getValue() instanceof Map<?, ?> m)) {
          continue;
        }
        if (d.getKey().equals("adk_workflow:support")) {
          if (!m.get("run").equals(runId)) {
            runId = (String) m.get("run");
            done.clear();
          }
        } else if (d.getKey().startsWith("adk_workflow:support.")
            && "done".equals(m.get("status"))) {
          done.merge(d.getKey(), 1, Integer::sum);
        }
      }
    }
    return done;
  }
}
