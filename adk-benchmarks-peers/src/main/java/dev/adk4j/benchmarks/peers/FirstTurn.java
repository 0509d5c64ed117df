package dev.adk4j.benchmarks.peers;

import java.lang.management.ManagementFactory;

/**
 * Time from JVM start to the first answered turn (issue 32, item 5): builds one setup (see {@link
 * PeerSetups}; on SQLite that includes the store's schema migration on a new file), runs one
 * checked turn of {@link PeerWorkload} on a new conversation and prints the milliseconds since the
 * JVM started ({@code RuntimeMXBean.getStartTime}). peers.sh --start runs it in new JVMs, five
 * times per setup, and also takes the process's wall time from outside.
 *
 * <p>Run: {@code java -cp adk-benchmarks-peers/target/peers.jar
 * dev.adk4j.benchmarks.peers.FirstTurn adk4j/sqlite}.
 */
public final class FirstTurn {
  private FirstTurn() {}

  public static void main(String[] args) {
    String setup = args[0];
    long answered;
    try (PeerTurns turns = PeerSetups.create(setup)) {
      turns.begin("first");
      PeerChecks.expect(setup, "first answer", PeerWorkload.FINAL_ANSWER, turns.turn("first"));
      answered = System.currentTimeMillis();
      PeerChecks.expect(setup, "counter", 1L, turns.counter("first"));
    }
    long start = ManagementFactory.getRuntimeMXBean().getStartTime();
    System.out.println(
        setup + " first turn answered " + (answered - start) + " ms after JVM start");
    System.exit(0);
  }
}
