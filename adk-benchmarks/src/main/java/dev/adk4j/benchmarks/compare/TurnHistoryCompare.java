package dev.adk4j.benchmarks.compare;

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
 * adk4j vs Google's ADK for Java: one {@code Runner} turn (see {@link TurnOps}) on a session in a
 * given state, the sessions being put back in that state before every measurement.
 *
 * <ul>
 *   <li>{@code fresh}: a session just created; the turn is its first.
 *   <li>{@code 10turns}: the session has had 10 turns through the same runner (40 events); the turn
 *       is the 11th.
 *   <li>{@code 100events}, {@code 1000events}: 100 resp. 1,000 history events (question and answer
 *       texts) appended through the session service, then one turn through the runner (so the
 *       runner has served the session before, as in a live conversation: adk4j's runner keeps the
 *       events of the sessions it served, ADK's reads the whole session every turn); the turn
 *       measured is the second, on 104 resp. 1,004 events.
 * </ul>
 *
 * <p>One runner per trial. Before each iteration, {@value #SESSIONS} new sessions are prepared that
 * way (untimed) and the previous ones deleted; the operation is one turn on each of them, one after
 * the other, and the score is divided by {@value #SESSIONS}: the time of one turn. ({@code
 * SingleShotTime}, since a session cannot be put back in its state inside a timed loop; {@value
 * #SESSIONS} turns per shot rather than one, because a lone turn after the setup runs on cold
 * caches and idle threads, and its time varies twice as much.) Bytes per turn: {@link
 * AllocatedBytes}, all threads, taken after the setup and again after the turns and any work they
 * left running ({@code -prof gc} would count the setup too). Each trial starts with {@value
 * #WARM_UP_TURNS} turns on fresh sessions, and each setup ends with {@value #TURNS_BEFORE_SHOT},
 * untimed, and a full collection, so that no shot holds a collection the previous setup's
 * allocations brought about.
 *
 * <p>Run: {@code java -jar adk-benchmarks/target/benchmarks.jar TurnHistoryCompare}.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 10)
@Measurement(iterations = 40)
@Fork(1)
@State(Scope.Thread)
public class TurnHistoryCompare {

  /** Sessions prepared per iteration, one turn on each per operation. */
  static final int SESSIONS = 10;

  /**
   * Turns on fresh sessions before the first iteration: both runners need several thousand turns
   * before the JIT has compiled their paths (a turn got 5 to 10 times faster over the first 8,000
   * in a plain loop), far more than the warm-up iterations' turns.
   */
  static final int WARM_UP_TURNS = 8_000;

  /**
   * Turns on throwaway sessions at the end of every setup, so that every shot follows the same
   * work: without them the {@code fresh} shot came right after an idle setup and took about four
   * times as long as a turn in a loop.
   */
  static final int TURNS_BEFORE_SHOT = 10;

  @Param({Workload.ADK4J, Workload.ADK_JAVA})
  public String impl;

  @Param({"fresh", "10turns", "100events", "1000events"})
  public String history;

  private TurnOps ops;
  private final String[] sessionIds = new String[SESSIONS];
  private int sessions;
  private final int[] eventsBefore = new int[SESSIONS];
  private long allocatedBefore;

  @Setup(Level.Trial)
  public void setUp() {
    ops = TurnOps.create(impl);
    Checks.turns(ops, impl);
    for (int t = 0; t < WARM_UP_TURNS; t++) {
      String id = "warm-" + t;
      ops.createSession(id);
      ops.turn(id);
      ops.settle(id);
      ops.deleteSession(id);
    }
  }

  @Setup(Level.Iteration)
  public void prepare() {
    for (int s = 0; s < SESSIONS; s++) {
      String id = "history-" + ++sessions;
      sessionIds[s] = id;
      ops.createSession(id);
      switch (history) {
        case "fresh":
          break;
        case "10turns":
          for (int t = 0; t < 10; t++) {
            ops.turn(id);
          }
          break;
        case "100events":
          ops.fillHistory(id, 100);
          ops.turn(id);
          break;
        case "1000events":
          ops.fillHistory(id, 1000);
          ops.turn(id);
          break;
        default:
          throw new IllegalArgumentException("unknown history " + history);
      }
      ops.settle(id);
      eventsBefore[s] = ops.eventCount(id);
    }
    // The same last work before every shot, whatever the history took to prepare.
    for (int t = 0; t < TURNS_BEFORE_SHOT; t++) {
      String id = "before-shot-" + t;
      ops.createSession(id);
      ops.turn(id);
      ops.settle(id);
      ops.deleteSession(id);
    }
    // Every shot starts on an empty young generation. Without this, whether a collection fell
    // inside the shot decided it: adk4j's shots after 10 turns fell into two groups (47-72 us and
    // 173-231 us a turn) whose medians were 2-3x apart from run to run, since a 10-turn shot
    // allocates too little to hold a collection every time. What a collection costs each side is
    // in the bytes-per-turn column.
    System.gc();
    allocatedBefore = AllocatedBytes.now();
  }

  @Benchmark
  @OperationsPerInvocation(SESSIONS)
  public void turn(Blackhole bh) {
    for (String id : sessionIds) {
      bh.consume(ops.turn(id));
    }
  }

  @TearDown(Level.Iteration)
  public void finish(AllocatedBytes bytes) {
    for (String id : sessionIds) {
      ops.settle(id);
    }
    bytes.allocBytesPerOp = (AllocatedBytes.now() - allocatedBefore) / SESSIONS;
    for (int s = 0; s < SESSIONS; s++) {
      Checks.expect(
          impl,
          "events after the turn",
          eventsBefore[s] + Workload.EVENTS_PER_TURN,
          ops.eventCount(sessionIds[s]));
      ops.deleteSession(sessionIds[s]);
    }
  }
}
