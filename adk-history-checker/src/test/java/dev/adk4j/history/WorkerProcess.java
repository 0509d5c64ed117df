package dev.adk4j.history;

import dev.adk4j.testsupport.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Worker} child JVM: started on the test class path (optionally under {@code faketime}
 * with its wall clock skewed), its protocol lines read from stdout, its stderr kept in a file;
 * killed with SIGKILL, paused with SIGSTOP and resumed with SIGCONT by process id.
 */
final class WorkerProcess implements AutoCloseable {

  private static final String EOF = "\u0000EOF";

  final String name;
  final Process process;
  final Path history;
  private final Path stderr;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private volatile boolean paused;

  private WorkerProcess(String name, Process process, Path history, Path stderr) {
    this.name = name;
    this.process = process;
    this.history = history;
    this.stderr = stderr;
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  lines.add(line);
                }
              } catch (IOException e) {
                // killed
              } finally {
                lines.add(EOF);
              }
            },
            "worker-stdout-" + name);
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts a worker.
   *
   * @param skew if not null, a {@code faketime} offset for its wall clock (e.g. {@code "+2h"}); its
   *     monotonic clock, which the history's times use, is left alone
   */
  static WorkerProcess start(
      Path dir,
      String name,
      long seed,
      String backend,
      String where,
      Duration lease,
      Path diskFullFlag,
      @Nullable String skew)
      throws IOException {
    Path history = dir.resolve("history-" + name + ".jsonl");
    Path stderr = dir.resolve("worker-" + name + ".err");
    List<String> command =
        ChildJvm.command(
            "-Xmx256m",
            "-cp",
            System.getProperty("java.class.path"),
            Worker.class.getName(),
            name,
            String.valueOf(seed),
            history.toString(),
            backend,
            where,
            String.valueOf(lease.toMillis()),
            diskFullFlag.toString());
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(stderr.toFile());
    if (skew != null) {
      // libfaketime preloaded into the JVM itself (not through the faketime launcher, which would
      // stand between this process and the JVM, so SIGKILL and SIGSTOP would miss the JVM).
      Path lib = fakeTimeLibrary();
      if (lib == null) {
        throw new IllegalStateException("libfaketime is not installed");
      }
      pb.environment().put("LD_PRELOAD", lib.toString());
      pb.environment().put("FAKETIME", skew);
      // The monotonic clocks are offset too (with FAKETIME_DONT_FAKE_MONOTONIC the JVM runs ten
      // times slower): the run subtracts the offset from this process's recorded times.
    }
    return new WorkerProcess(name, pb.start(), history, stderr);
  }

  /** The offset of a {@code faketime} setting such as {@code +1h}, in nanoseconds. */
  static long skewNanos(String skew) {
    char unit = skew.charAt(skew.length() - 1);
    long n = Long.parseLong(skew.substring(1, skew.length() - 1));
    long seconds =
        switch (unit) {
          case 's' -> n;
          case 'm' -> n * 60;
          case 'h' -> n * 3600;
          case 'd' -> n * 86400;
          default -> throw new IllegalArgumentException("unit of " + skew);
        };
    return (skew.charAt(0) == '-' ? -seconds : seconds) * 1_000_000_000L;
  }

  /** Debian's libfaketime ({@code apt-get install faketime}), or null if it is not installed. */
  static @Nullable Path fakeTimeLibrary() {
    Path lib = Path.of("/usr/lib");
    if (!Files.isDirectory(lib)) {
      return null;
    }
    try (var dirs = Files.list(lib)) {
      return dirs.map(d -> d.resolve("faketime/libfaketime.so.1"))
          .filter(Files::isRegularFile)
          .findFirst()
          .orElse(null);
    } catch (IOException e) {
      return null;
    }
  }

  /** Waits for a line starting with {@code prefix}. */
  String await(String prefix, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<String> seen = new ArrayList<>();
    while (true) {
      long left = deadline - System.nanoTime();
      String line = left <= 0 ? null : lines.poll(left, TimeUnit.NANOSECONDS);
      if (line == null || line.equals(EOF)) {
        throw new IllegalStateException(
            "worker "
                + name
                + (line == null ? " wrote no '" + prefix + "' within " + timeout : " ended")
                + "; it wrote "
                + seen
                + "; stderr:\n"
                + err());
      }
      seen.add(line);
      if (line.startsWith(prefix)) {
        return line;
      }
    }
  }

  void send(String line) {
    try {
      OutputStream in = process.getOutputStream();
      in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    } catch (IOException e) {
      // the process is gone
    }
  }

  void kill() throws InterruptedException {
    signal("KILL");
    process.waitFor(10, TimeUnit.SECONDS);
  }

  void pause() {
    signal("STOP");
    paused = true;
  }

  void resume() {
    signal("CONT");
    paused = false;
  }

  boolean paused() {
    return paused;
  }

  private void signal(String name) {
    try {
      new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid()))
          .redirectErrorStream(true)
          .start()
          .waitFor(10, TimeUnit.SECONDS);
    } catch (IOException e) {
      throw new IllegalStateException("cannot send SIG" + name + " to " + this.name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  String err() {
    try {
      String text = Files.readString(stderr);
      return text.length() > 6000 ? "..." + text.substring(text.length() - 6000) : text;
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  @Override
  public void close() {
    if (paused) {
      resume();
    }
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
