package dev.adk4j.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.genai.types.FunctionDeclaration;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.runner.InvocationFailedException;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.BaseTool;
import dev.adk4j.tools.ToolContext;
import io.reactivex.rxjava3.core.Single;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property: on random small DAGs (seeded: function and agent nodes, joins, conditional edges that
 * read state), a run interrupted at a random node (the node throws an {@link Error}, as if the
 * process died there; an agent node after its tool's writes were stored) and continued by a fresh
 * {@link Runner} ends with the same state and the same finished nodes as an uninterrupted run, and
 * every node that had finished before the crash ran once.
 */
class RandomDagResumeTest {

  static final String APP = "app";
  static final RunConfig CREATE = RunConfig.builder().autoCreateSession(true).build();

  static List<Long> seeds() {
    List<Long> seeds = new ArrayList<>();
    for (long s = 1; s <= 25; s++) {
      seeds.add(s * 7919);
    }
    return seeds;
  }

  /** The process "dies" in a node: not retried, not recorded. */
  static final class Crash extends Error {
    Crash() {
      super("simulated crash");
    }
  }

  /** A random DAG whose nodes count their runs per session in {@code runs}. */
  static Workflow randomDag(
      long seed, Map<String, AtomicInteger> runs, Map<String, String> crashAt) {
    Random r = new Random(seed);
    int n = 3 + r.nextInt(6);
    List<List<Integer>> preds = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<Integer> p = new ArrayList<>();
      for (int j = 0; j < i; j++) {
        if (r.nextInt(3) == 0) {
          p.add(j);
        }
      }
      if (p.isEmpty() && i > 0 && r.nextBoolean()) {
        p.add(r.nextInt(i));
      }
      preds.add(p); // empty: an edge from START
    }
    Workflow.Builder b = Workflow.builder().name("dag");
    for (int i = 0; i < n; i++) {
      String name = "n" + i;
      if (preds.get(i).size() >= 2) {
        b.node(Node.join(name));
      } else if (r.nextInt(3) == 0) {
        b.node(Node.agent(agentNode(name, r.nextInt(100), runs, crashAt)));
      } else {
        int salt = r.nextInt(100);
        b.node(
            Node.function(
                name,
                Object.class,
                Integer.class,
                (ctx, in) -> {
                  String key = ctx.sessionId() + "/" + name;
                  int count = runs.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                  if (name.equals(crashAt.get(ctx.sessionId())) && count == 1) {
                    throw new Crash();
                  }
                  int v = Math.floorMod((String.valueOf(in) + salt).hashCode(), 100);
                  ctx.state().put("k_" + name, v);
                  ctx.state().increment("finished", 1);
                  return v;
                }));
      }
    }
    for (int i = 0; i < n; i++) {
      String to = "n" + i;
      if (preds.get(i).isEmpty()) {
        b.edge(Workflow.START, to);
        continue;
      }
      for (int j : preds.get(i)) {
        String from = "n" + j;
        boolean fromJoin = preds.get(j).size() >= 2;
        if (!fromJoin && r.nextInt(3) == 0) {
          int mod = 2 + r.nextInt(2);
          b.edgeIf(from, to, s -> ((Number) s.get("k_" + from)).intValue() % mod != 0);
        } else {
          b.edge(from, to);
        }
      }
    }
    return b.build();
  }

  /** How many crashes hit an agent node after its tool's writes were stored, over all seeds. */
  static final AtomicInteger AGENT_CRASHES = new AtomicInteger();

  @AfterAll
  static void someSeedsCrashAnAgentNodeAfterItsWritesWereStored() {
    assertThat(AGENT_CRASHES)
        .as("seeds whose crash hits an agent node midway")
        .hasValueGreaterThan(2);
  }

  /**
   * An agent node: its model calls a tool that writes {@code k_<name>} and increments {@code
   * finished}, then answers with the value. A crash in it comes at its second model call, after the
   * tool's event (with those writes) was stored: the rerun must undo them.
   */
  static LlmAgent agentNode(
      String name, int salt, Map<String, AtomicInteger> runs, Map<String, String> crashAt) {
    int v = Math.floorMod((name + salt).hashCode(), 100);
    ScriptedLlm model =
        ScriptedLlm.answering(
            request ->
                ScriptedLlm.functionResponses(request).isEmpty()
                    ? ScriptedLlm.functionCallResponse("record", Map.of())
                    : ScriptedLlm.textResponse(String.valueOf(v)));
    BaseTool record =
        new BaseTool("record", "records the value") {
          @Override
          public Optional<FunctionDeclaration> declaration() {
            return Optional.of(FunctionDeclaration.builder().name("record").build());
          }

          @Override
          public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext ctx) {
            return Single.fromCallable(
                () -> {
                  ctx.state().put("k_" + name, v);
                  ctx.state().increment("finished", 1);
                  return Map.of("ok", true);
                });
          }
        };
    return LlmAgent.builder()
        .name(name)
        .model(model)
        .tools(record)
        .beforeModelCallbackSync(
            (ctx, request) -> {
              String key = ctx.sessionId() + "/" + name;
              if (ScriptedLlm.functionResponses(request).isEmpty()) {
                runs.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
              } else if (name.equals(crashAt.get(ctx.sessionId())) && runs.get(key).get() == 1) {
                AGENT_CRASHES.incrementAndGet();
                throw new Crash();
              }
              return Optional.empty();
            })
        .build();
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void anInterruptedRun_resumed_equalsAnUninterruptedOne(long seed) {
    Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    Map<String, String> crashAt = new ConcurrentHashMap<>();
    Workflow wf = randomDag(seed, runs, crashAt);
    BaseSessionService sessions = new InMemorySessionService();

    run(wf, sessions, "clean", "input");
    Random r = new Random(seed * 31);
    String victim = wf.nodes().get(r.nextInt(wf.nodes().size())).name();
    crashAt.put("crashed", victim);
    boolean crashed = false;
    try {
      run(wf, sessions, "crashed", "input");
    } catch (Crash expected) {
      crashed = true;
    }
    Set<String> finishedBeforeCrash = finishedNodes(sessions, "crashed");
    if (crashed) {
      run(wf, sessions, "crashed", "resume"); // a fresh runner on the same store
    }

    assertThat(comparableState(sessions, "crashed"))
        .as("seed %d, crash in %s", seed, victim)
        .isEqualTo(comparableState(sessions, "clean"));
    assertThat(finishedNodes(sessions, "crashed")).isEqualTo(finishedNodes(sessions, "clean"));
    for (String node : finishedBeforeCrash) {
      AtomicInteger count = runs.get("crashed/" + node);
      assertThat(count == null ? 0 : count.get()).as("runs of %s", node).isLessThanOrEqualTo(1);
    }
  }

  static void run(Workflow wf, BaseSessionService sessions, String session, String text) {
    Runner runner = Runner.builder().agent(wf).appName(APP).sessionService(sessions).build();
    InvocationFailedException.throwIfFailed(
        runner.runAsync("u", session, Contents.user(text), CREATE).toList().blockingGet());
  }

  static Session session(BaseSessionService sessions, String id) {
    return sessions.getSession(APP, "u", id, Optional.empty()).blockingGet();
  }

  /** The state, with the run record's id left out (each run has its own). */
  @SuppressWarnings("unchecked")
  static Map<String, Object> comparableState(BaseSessionService sessions, String id) {
    Map<String, Object> state = new TreeMap<>(session(sessions, id).state());
    Map<String, Object> run = new HashMap<>((Map<String, Object>) state.get("adk_workflow:dag"));
    run.remove("run");
    state.put("adk_workflow:dag", run);
    return state;
  }

  /** The nodes whose completion of the session's last run is stored. */
  @SuppressWarnings("unchecked")
  static Set<String> finishedNodes(BaseSessionService sessions, String id) {
    Session s = session(sessions, id);
    Set<String> done = new TreeSet<>();
    String runId = null;
    for (Event e : s.events()) {
      for (Map.Entry<String, Object> d : e.actions().stateDelta().entrySet()) {
        if (d.getKey().equals("adk_workflow:dag") && d.getValue() instanceof Map<?, ?> m) {
          if (!m.get("run").equals(runId)) {
            runId = (String) m.get("run");
            done.clear();
          }
        } else if (d.getKey().startsWith("adk_workflow:dag.n")
            && d.getValue() instanceof Map<?, ?> m
            && "done".equals(m.get("status"))) {
          done.add(d.getKey());
        }
      }
    }
    return done;
  }
}
