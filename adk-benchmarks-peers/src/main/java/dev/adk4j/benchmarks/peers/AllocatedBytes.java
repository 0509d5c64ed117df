package dev.adk4j.benchmarks.peers;

import java.lang.management.ManagementFactory;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Bytes allocated by one operation of a {@code SingleShotTime} benchmark, all threads: the JVM's
 * total ({@code getTotalThreadAllocatedBytes}, what {@code -prof gc} reads) after the untimed setup
 * and again after the shot, divided by the operations. {@code -prof gc} would count the setup,
 * which fills conversations with up to 1,000 messages. JMH sums such a counter over the iterations:
 * divide its score by the measurement iterations (the report does).
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class AllocatedBytes {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** This iteration's bytes per operation; JMH resets it before each iteration. */
  public long allocBytesPerOp;

  static long now() {
    return THREADS.getTotalThreadAllocatedBytes();
  }
}
