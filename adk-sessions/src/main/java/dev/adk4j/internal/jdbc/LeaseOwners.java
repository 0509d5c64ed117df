package dev.adk4j.internal.jdbc;

import java.lang.management.ManagementFactory;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Names of lease owners, and whether the process an owner names is gone.
 *
 * <p>An owner is {@code <pid>@<host>#<start>/<uuid>}: this JVM's process id and host (as the JVM
 * names them, {@code RuntimeMXBean.getName()}), its start time in epoch milliseconds, and a random
 * id per lease. A waiter on the same host can then tell that a lease's holder crashed (no process
 * with that id, or one that started at another time, the id having been reused) and take the lease
 * at once instead of waiting for it to expire. Misjudging costs no safety: an append through a
 * lease that was taken over is refused ({@code SessionBusyException}) and every append checks the
 * session's revision.
 */
final class LeaseOwners {
  private LeaseOwners() {}

  /** This JVM as it names itself: {@code <pid>@<host>}. */
  private static final String NAME = ManagementFactory.getRuntimeMXBean().getName();

  /** This host, as {@link #NAME} gives it. */
  private static final String HOST = NAME.substring(NAME.indexOf('@') + 1);

  /** This JVM: {@code <pid>@<host>#<start millis>}. */
  static final String INSTANCE =
      ProcessHandle.current()
          .info()
          .startInstant()
          .map(s -> NAME + "#" + s.toEpochMilli())
          .orElse(NAME);

  /** A new owner name for one lease of this JVM. */
  static String newOwner() {
    return INSTANCE + "/" + UUID.randomUUID();
  }

  /**
   * Whether {@code owner} names a process on this host that is no longer running: no process has
   * its id, or the one that has it started at another time. False when it cannot be told (another
   * host, a name in another form, no process information).
   */
  static boolean isGone(@Nullable String owner) {
    if (owner == null) {
      return false;
    }
    int slash = owner.lastIndexOf('/');
    String instance = slash < 0 ? owner : owner.substring(0, slash);
    int at = instance.indexOf('@');
    if (at <= 0) {
      return false;
    }
    long pid;
    try {
      pid = Long.parseLong(instance.substring(0, at));
    } catch (NumberFormatException e) {
      return false;
    }
    String rest = instance.substring(at + 1);
    int hash = rest.lastIndexOf('#');
    String host = hash < 0 ? rest : rest.substring(0, hash);
    if (!host.equals(HOST)) {
      return false;
    }
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    if (process.isEmpty() || !process.get().isAlive()) {
      return true;
    }
    if (hash < 0) {
      return false; // no start time to compare: the process with that id may be the holder
    }
    long started;
    try {
      started = Long.parseLong(rest.substring(hash + 1));
    } catch (NumberFormatException e) {
      return false;
    }
    return process
        .get()
        .info()
        .startInstant()
        .map(s -> Math.abs(s.toEpochMilli() - started) > 1_000)
        .orElse(false);
  }
}
