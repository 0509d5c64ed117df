package dev.adk4j.benchmarks.peers;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Framework overhead by conversation length: one turn of {@link PeerWorkload} on a conversation
 * with {@code prior} earlier messages (question and answer texts, written through the framework's
 * session service or chat memory) and, when there are any, one turn through the framework before
 * (so it has served the conversation, as in a live one). {@code prior=0} is a conversation's first
 * turn.
 *
 * <p>{@code SingleShotTime}: before each iteration {@value #CONVERSATIONS} conversations are
 * prepared (untimed); the shot is one turn on each, and the score is divided by {@value
 * #CONVERSATIONS}. Bytes per turn: {@link AllocatedBytes} ({@code allocBytesPerOp}, summed over the
 * iterations by JMH). Each trial starts with {@link PeerChecks#turns} and {@value #WARM_UP_TURNS}
 * turns on fresh conversations (fewer on a database), and each iteration ends by checking every
 * conversation's counter and messages.
 *
 * <p>Each fork runs with a fixed, pre-touched heap of 1 GiB, as {@link PeerTurnCompare} (why: see
 * there).
 *
 * <p>Run: {@code adk-benchmarks-peers/peers.sh}, or {@code java -jar
 * adk-benchmarks-peers/target/peers.jar PeerHistoryCompare [-p setup=spring-ai/sqlite]}.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 10)
@Measurement(iterations = 20)
@Fork(
    value = 1,
    jvmArgsPrepend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@State(Scope.Thread)
public class PeerHistoryCompare {

  static final int CONVERSATIONS = 10;

  /** Turns on fresh conversations before the first iteration ({@code -Dpeers.warmUpTurns}). */
  static final int WARM_UP_TURNS = Integer.getInteger("peers.warmUpTurns", 5_000);

  /** The same on a database: each turn there waits for commits. */
  static final int WARM_UP_TURNS_DATABASE = WARM_UP_TURNS / 10;

  @Param({
    PeerWorkload.ADK4J,
    PeerWorkload.ADK_JAVA,
    PeerWorkload.LANGCHAIN4J,
    PeerWorkload.SPRING_AI
  })
  public String setup;

  @Param({"0", "100", "1000"})
  public int prior;

  private PeerTurns ops;
  private final String[] ids = new String[CONVERSATIONS];
  private final int[] messagesBefore = new int[CONVERSATIONS];
  private final long[] counterBefore = new long[CONVERSATIONS];
  private int conversations;
  private long allocatedBefore;

  @Setup(Level.Trial)
  public void setUp() {
    ops = PeerSetups.create(setup);
    PeerChecks.turns(ops, setup);
    int warmUp = PeerSetups.persistent(setup) ? WARM_UP_TURNS_DATABASE : WARM_UP_TURNS;
    for (int t = 0; t < warmUp; t++) {
      String id = "warm-" + t;
      ops.begin(id);
      ops.turn(id);
      ops.end(id);
    }
  }

  @Setup(Level.Iteration)
  public void prepare() {
    for (int c = 0; c < CONVERSATIONS; c++) {
      String id = "history-" + ++conversations;
      ids[c] = id;
      ops.begin(id);
      if (prior > 0) {
        ops.fill(id, prior);
        ops.turn(id);
      }
      messagesBefore[c] = ops.messages(id);
      counterBefore[c] = ops.counter(id);
    }
    allocatedBefore = AllocatedBytes.now();
  }

  @Benchmark
  @OperationsPerInvocation(CONVERSATIONS)
  public void turn(Blackhole bh) {
    for (String id : ids) {
      bh.consume(ops.turn(id));
    }
  }

  @TearDown(Level.Iteration)
  public void finish(AllocatedBytes bytes) {
    bytes.allocBytesPerOp = (AllocatedBytes.now() - allocatedBefore) / CONVERSATIONS;
    for (int c = 0; c < CONVERSATIONS; c++) {
      PeerChecks.checkAfter(ops, setup, ids[c], messagesBefore[c], counterBefore[c], prior == 0);
      ops.end(ids[c]);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    ops.close();
  }
}
