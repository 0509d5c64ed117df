package dev.adk4j.benchmarks.peers;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Framework overhead on a fresh conversation: one operation starts a conversation, runs one turn of
 * {@link PeerWorkload} (user message, tool call reading and writing the counter, final answer)
 * through the framework's agent / AI service / chat client with a scripted model of no latency, and
 * ends the conversation (deletes its session or clears its memory). One framework object serves all
 * operations of a trial, as in an application. Time per turn, and with {@code -prof gc} bytes per
 * turn (all threads). Every trial starts with {@link PeerChecks#turns}, and every iteration's last
 * conversation is checked before it is ended.
 *
 * <p>Each fork runs with a fixed heap of 1 GiB, touched at start ({@code -Xms1g -Xmx1g
 * -XX:+AlwaysPreTouch}): with the default heap, the JVM grows it while the turns run (380 MB to
 * over 1 GB in 30 s here), and every page the young generation uses for the first time costs a page
 * fault, which on this virtual machine takes tens of microseconds. An iteration that allocated into
 * fresh pages (5,000 to 25,000 faults a second) took 5 to 50 times as long as one that reused
 * touched pages, whichever framework ran; with the heap touched first, no page faults while
 * measuring.
 *
 * <p>Run: {@code adk-benchmarks-peers/peers.sh}, or {@code java -jar
 * adk-benchmarks-peers/target/peers.jar PeerTurnCompare -prof gc [-p setup=adk4j/sqlite]}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 10, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsPrepend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@State(Scope.Thread)
public class PeerTurnCompare {

  /** {@link PeerSetups}: a framework, in memory unless a store follows a slash. */
  @Param({
    PeerWorkload.ADK4J,
    PeerWorkload.ADK_JAVA,
    PeerWorkload.LANGCHAIN4J,
    PeerWorkload.SPRING_AI
  })
  public String setup;

  private PeerTurns ops;
  private int conversations;
  private String lastAnswer;

  @Setup(Level.Trial)
  public void setUp() {
    ops = PeerSetups.create(setup);
    PeerChecks.turns(ops, setup);
  }

  @Benchmark
  public String freshConversation() {
    String id = "fresh-" + ++conversations;
    ops.begin(id);
    lastAnswer = ops.turn(id);
    ops.end(id);
    return lastAnswer;
  }

  @TearDown(Level.Iteration)
  public void check() {
    PeerChecks.expect(setup, "last answer", PeerWorkload.FINAL_ANSWER, lastAnswer);
    String id = "iteration-check-" + conversations;
    ops.begin(id);
    PeerChecks.turn(ops, setup, id, 0, 0, true);
    ops.end(id);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    ops.close();
  }
}
