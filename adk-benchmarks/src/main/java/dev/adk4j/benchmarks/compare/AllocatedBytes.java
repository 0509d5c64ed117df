package dev.adk4j.benchmarks.compare;

import java.lang.management.ManagementFactory;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Bytes allocated by one operation of a {@code SingleShotTime} comparison, all threads together.
 *
 * <p>Why not {@code -prof gc} there: its {@code gc.alloc.rate.norm} counts everything allocated
 * between the start and the end of an iteration, and a single-shot iteration starts with its
 * {@code @Setup(Level.Iteration)}, which here fills a session with up to 10,000 events: far more
 * than the measured operation. So those benchmarks take the JVM's count of bytes allocated by all
 * threads ({@code com.sun.management.ThreadMXBean#getTotalThreadAllocatedBytes}, the counter {@code
 * -prof gc} reads) at the end of the setup and again in the teardown, after waiting for anything
 * the operation left running, and report the difference divided by the operations of the
 * invocation, as the secondary result {@code allocBytesPerOp}.
 *
 * <p>JMH adds such an event counter over the iterations: the {@code allocBytesPerOp} it prints, and
 * the {@code score} in its JSON, is the <b>sum over the measurement iterations</b>; the mean per
 * operation is that divided by the iteration count (the JSON's {@code rawData} holds each
 * iteration's value, and the chart program takes their mean). The window also holds a few hundred
 * bytes of JMH's own bookkeeping between the setup and the call.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class AllocatedBytes {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** This iteration's bytes per operation; JMH resets it before each iteration. */
  public long allocBytesPerOp;

  /** The JVM's total of bytes allocated so far, all threads. */
  static long now() {
    return THREADS.getTotalThreadAllocatedBytes();
  }
}
