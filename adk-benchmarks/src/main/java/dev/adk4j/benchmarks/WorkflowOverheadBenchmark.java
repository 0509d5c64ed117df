package dev.adk4j.benchmarks;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.agents.SequentialAgent;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.workflows.Node;
import dev.adk4j.workflows.Workflow;
import io.reactivex.rxjava3.core.Flowable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-node overhead of the workflow engine (issue 30): one {@code Runner} turn through {@code
 * nodes} agents in a chain, as a {@link Workflow} of agent nodes ({@code workflow}) and as a
 * hand-written {@link SequentialAgent} of the same agents ({@code sequential}), on {@code
 * InMemorySessionService}. Each agent is an {@code LlmAgent} whose model answers at once, so the
 * difference is the engine's: per node a completion record appended (one event), the ready-node
 * bookkeeping, a hand-off to a worker thread, and the start of the run (reading the session's
 * events for an unfinished run) and its end record.
 *
 * <p><b>Unit</b>: average time of one turn in microseconds; divide by {@code nodes} for one node. A
 * new session per turn, so every turn starts a new run on a session holding nothing.
 *
 * <pre>
 * ./mvnw -q -B -pl adk-benchmarks -am package -DskipTests
 * java -jar adk-benchmarks/target/benchmarks.jar WorkflowOverheadBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WorkflowOverheadBenchmark {

  @Param({"10", "100"})
  public int nodes;

  @Param({"sequential", "workflow"})
  public String engine;

  private Runner runner;
  private final AtomicLong sessions = new AtomicLong();
  private static final Content MESSAGE =
      Content.builder().role("user").parts(Part.fromText("go")).build();
  private static final RunConfig CREATE = RunConfig.builder().autoCreateSession(true).build();

  @Setup
  public void setUp() {
    List<BaseAgent> agents = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      agents.add(LlmAgent.builder().name("a" + i).model(new InstantModel()).build());
    }
    BaseAgent root;
    if (engine.equals("sequential")) {
      root = SequentialAgent.builder().name("chain").subAgents(agents).build();
    } else {
      Workflow.Builder b = Workflow.builder().name("chain");
      Node previous = null;
      for (BaseAgent a : agents) {
        Node n = Node.agent(a);
        if (previous == null) {
          b.start(n);
        } else {
          b.edge(previous, n);
        }
        previous = n;
      }
      root = b.build();
    }
    runner =
        Runner.builder()
            .agent(root)
            .appName("bench")
            .sessionService(new InMemorySessionService())
            .build();
  }

  @Benchmark
  public int turn() {
    String session = "s" + sessions.incrementAndGet();
    return runner.runAsync("u", session, MESSAGE, CREATE).toList().blockingGet().size();
  }

  /** Answers every request at once with a short text. */
  static final class InstantModel extends BaseLlm {
    private static final LlmResponse ANSWER =
        LlmResponse.builder()
            .content(Content.builder().role("model").parts(Part.fromText("OK.")).build())
            .build();

    InstantModel() {
      super("instant-bench-model");
    }

    @Override
    public boolean blocksSubscriber() {
      return false; // answers at once
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
      return Flowable.just(ANSWER);
    }
  }
}
