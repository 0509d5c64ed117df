package dev.adk4j.benchmarks.peers;

import java.util.Objects;

/**
 * Checks, run at the start of every trial and after every measured batch, that a framework did the
 * turn's work: the final answer, the counter the tool wrote, the messages its memory keeps, two
 * model calls per turn. {@code java -cp peers.jar dev.adk4j.benchmarks.peers.PeerChecks [setup...]}
 * runs them for every in-memory setup (or those named).
 */
public final class PeerChecks {
  private PeerChecks() {}

  public static void main(String[] args) {
    String[] setups = args.length > 0 ? args : PeerSetups.IN_MEMORY;
    for (String setup : setups) {
      try (PeerTurns turns = PeerSetups.create(setup)) {
        turns(turns, setup);
        System.out.println(setup + ": turns check out");
      }
    }
  }

  /** Two turns on a fresh conversation, then one on a conversation with six prior messages. */
  public static void turns(PeerTurns ops, String setup) {
    String id = "check-fresh";
    long calls = ops.modelCalls();
    ops.begin(id);
    int before = 0;
    for (int t = 1; t <= 3; t++) {
      expect(setup, "answer of turn " + t, PeerWorkload.FINAL_ANSWER, ops.turn(id));
      expect(setup, "counter after turn " + t, (long) t, ops.counter(id));
      expect(setup, "model calls after turn " + t, calls + 2L * t, ops.modelCalls());
      int after = ops.messages(id);
      int expected = before + ops.messagesPerTurn() + (t == 1 ? ops.firstTurnExtra() : 0);
      expect(setup, "messages after turn " + t, expected, after);
      before = after;
    }
    ops.end(id);
    String history = "check-history";
    ops.begin(history);
    ops.fill(history, 6);
    expect(setup, "prior messages", 6, ops.messages(history));
    turn(ops, setup, history, 6, 0, true);
    ops.end(history);
  }

  /**
   * One turn on a conversation that has {@code messagesBefore} messages and a counter of {@code
   * counterBefore}, checked.
   */
  static void turn(
      PeerTurns ops,
      String setup,
      String id,
      int messagesBefore,
      long counterBefore,
      boolean firstTurn) {
    expect(setup, "answer", PeerWorkload.FINAL_ANSWER, ops.turn(id));
    checkAfter(ops, setup, id, messagesBefore, counterBefore, firstTurn);
  }

  /** The state after one turn on such a conversation. */
  static void checkAfter(
      PeerTurns ops,
      String setup,
      String id,
      int messagesBefore,
      long counterBefore,
      boolean firstTurn) {
    expect(setup, "counter after the turn", counterBefore + 1, ops.counter(id));
    expect(
        setup,
        "messages after the turn",
        messagesBefore + ops.messagesPerTurn() + (firstTurn ? ops.firstTurnExtra() : 0),
        ops.messages(id));
  }

  static void expect(String setup, String what, Object expected, Object actual) {
    if (!Objects.equals(expected, actual)) {
      throw new IllegalStateException(
          setup + ": " + what + " is " + actual + ", expected " + expected);
    }
  }
}
