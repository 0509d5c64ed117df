package dev.adk4j.history;

import dev.adk4j.history.Checker.Report;
import dev.adk4j.history.Workload.SessionRef;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.sessions.StateChange;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * One run of the history checker against one database: worker processes doing random turns on the
 * shared sessions of {@link Workload} while a nemesis injects faults, then final reads, then the
 * {@link Checker}.
 *
 * <p>Faults, in an order drawn from the seed so that each kind comes once before any comes twice
 * (the short run of {@code verify} injects each kind once, a {@link #rounds} run as many rounds as
 * fit in its time):
 *
 * <ul>
 *   <li>{@code kill}: a worker is killed with SIGKILL mid-work, and a new one started in its place;
 *   <li>{@code pause}: a worker is stopped with SIGSTOP for 2.5 leases (its lease expires and
 *       another worker takes its session over), then continued with SIGCONT;
 *   <li>{@code pg-restart} (PostgreSQL): the server is stopped (fast shutdown) and started again on
 *       the same data and port;
 *   <li>{@code net-cut} (PostgreSQL): one worker's connections are cut by its proxy, and new ones
 *       refused, for 2.5 leases;
 *   <li>{@code disk-full} (SQLite): the file may not grow for a while ({@link DiskLimitedSqlite}).
 * </ul>
 *
 * <p>And throughout, when libfaketime is installed, one worker runs with its wall clock an hour
 * ahead: leases are timed by the database's clock, so this must change nothing.
 */
final class HistoryRun implements AutoCloseable {

  enum Backend {
    SQLITE,
    POSTGRES
  }

  static final Duration LEASE = Duration.ofSeconds(1);

  /**
   * A run bounded by faults goes on, quiet, after the last until the workers have acknowledged this
   * many operations, so that a slow machine still checks a history of some length.
   */
  static final int MIN_ACKNOWLEDGED = 60;

  /**
   * The wall-clock offset of the skewed worker (slot 0): an hour ahead, so that it is an hour ahead
   * of the three others and they an hour behind it. Only ahead: libfaketime also offsets the thread
   * CPU-time clocks, and a JVM whose CPU time reads negative hangs at start. One worker only: under
   * libfaketime every clock read is a system call, and a JVM starts about ten times slower.
   */
  static final List<String> SKEWS = List.of("+1h");

  /** What a run did and found. */
  record Result(
      Report report,
      List<Entry> history,
      Stored stored,
      Map<String, Integer> faults,
      Map<String, Long> skewMillis,
      Map<String, Long> monotonicOffsets,
      long workloadMillis,
      long elapsedMillis,
      Path dir) {

    String summary(Backend backend, long seed) {
      Map<String, Integer> c = report.counts();
      int ops = 0;
      int ok = 0;
      int fail = 0;
      int info = 0;
      for (Map.Entry<String, Integer> e : c.entrySet()) {
        if (e.getKey().startsWith("ops.")) {
          ops += e.getValue();
          if (e.getKey().endsWith(".ok")) {
            ok += e.getValue();
          } else if (e.getKey().endsWith(".fail")) {
            fail += e.getValue();
          } else {
            info += e.getValue();
          }
        }
      }
      return String.format(
          "HISTORY backend=%s seed=%d workloadMs=%d elapsedMs=%d ops=%d ok=%d fail=%d"
              + " indeterminate=%d storedInvocations=%d faults=%s skewMs=%s anomalies=%d counts=%s"
              + " dir=%s",
          backend,
          seed,
          workloadMillis,
          elapsedMillis,
          ops,
          ok,
          fail,
          info,
          c.getOrDefault("stored.invocations", 0),
          faults,
          skewMillis,
          report.anomalies().size(),
          c,
          dir);
    }
  }

  private final Backend backend;
  private final long seed;
  private final @Nullable Duration workload;
  private final int workers;
  private final Path dir;
  private final Random random;
  private final Path diskFull;
  private final List<WorkerProcess> all = new ArrayList<>();
  private final WorkerProcess[] slots;
  private final int[] incarnations;
  private final FaultProxy[] proxies;
  private final Map<String, Integer> faults = new TreeMap<>();
  private final Map<String, Long> monotonicOffsets = new TreeMap<>();
  private final Map<String, Long> skewedProcesses = new TreeMap<>();

  /** Per skewed process, how far its monotonic clock may be from the measured offset. */
  private final Map<String, Long> clockMargins = new TreeMap<>();

  /** How long the nemesis went on (the workload's length). */
  private long nemesisMillis;

  private final boolean skew;
  private @Nullable EmbeddedPostgres postgres;
  private int pgPort;
  private final String directUrl;

  /**
   * A run whose nemesis goes on for {@code workload}, or, if it is null, until it has injected
   * every fault kind of the backend once (each after a quiet spell, and quiet spells after the last
   * until the workers have acknowledged {@value #MIN_ACKNOWLEDGED} operations): bounded by faults
   * and operations, not by time.
   */
  HistoryRun(Backend backend, long seed, @Nullable Duration workload, int workers, Path dir)
      throws IOException {
    this.backend = backend;
    this.seed = seed;
    this.workload = workload;
    this.workers = workers;
    this.dir = dir;
    this.random = new Random(seed);
    this.diskFull = dir.resolve("disk-full");
    this.slots = new WorkerProcess[workers];
    this.incarnations = new int[workers];
    this.proxies = new FaultProxy[workers];
    this.skew = WorkerProcess.fakeTimeLibrary() != null;
    deleteRecursively(dir);
    Files.createDirectories(dir);
    if (backend == Backend.POSTGRES) {
      startPostgres();
      directUrl = postgres().getJdbcUrl("postgres", "postgres");
      for (int i = 0; i < workers; i++) {
        proxies[i] = new FaultProxy(pgPort);
      }
    } else {
      directUrl = "jdbc:sqlite:" + dir.resolve("history.db");
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private EmbeddedPostgres postgres() {
    if (postgres == null) {
      throw new IllegalStateException("PostgreSQL is not running");
    }
    return postgres;
  }

  private void startPostgres() throws IOException {
    EmbeddedPostgres.Builder b =
        EmbeddedPostgres.builder()
            .setDataDirectory(dir.resolve("pgdata"))
            // Never cleaned: closing a server started with a clean data directory deletes it, and
            // the restart must find the data. The run's folder starts empty instead.
            .setCleanDataDirectory(false)
            .setServerConfig("max_connections", "200");
    if (pgPort != 0) {
      b.setPort(pgPort);
    }
    postgres = b.start();
    pgPort = postgres.getPort();
  }

  private String workerWhere(int slot) {
    if (backend == Backend.SQLITE) {
      return dir.resolve("history.db").toString();
    }
    return directUrl.replace(
        "localhost:" + pgPort + "/", "localhost:" + proxies[slot].port() + "/");
  }

  private @Nullable String skewOf(int slot) {
    return skew && slot < SKEWS.size() ? SKEWS.get(slot) : null;
  }

  private WorkerProcess startWorker(int slot) throws IOException {
    String name = "w" + slot + "_" + incarnations[slot]++;
    WorkerProcess w =
        WorkerProcess.start(
            dir,
            name,
            seed * 31 + name.hashCode(),
            backend == Backend.SQLITE ? "sqlite" : "postgresql",
            workerWhere(slot),
            LEASE,
            diskFull,
            skewOf(slot));
    all.add(w);
    slots[slot] = w;
    String skew = skewOf(slot);
    if (skew != null) {
      skewedProcesses.put(name, WorkerProcess.skewNanos(skew));
    }
    return w;
  }

  private static DatabaseSessionConfig checkerConfig() {
    return DatabaseSessionConfig.builder()
        .leaseDuration(LEASE)
        .connectionTimeout(Duration.ofSeconds(5))
        .build();
  }

  Result run() throws Exception {
    long start = System.nanoTime();
    // The sessions, created before any worker starts.
    try (DatabaseSessionService setup = new DatabaseSessionService(directUrl, checkerConfig())) {
      for (SessionRef s : Workload.SESSIONS) {
        setup.createSession(Workload.APP, s.user(), null, s.session()).blockingGet();
      }
    }
    for (int i = 0; i < workers; i++) {
      startWorker(i);
    }
    for (WorkerProcess w : all) {
      w.await("READY", Duration.ofSeconds(180));
      if (skewedProcesses.containsKey(w.name)) {
        measureClock(w);
      }
    }
    long nemesisStart = System.nanoTime();
    nemesis(workload == null ? Long.MAX_VALUE : System.nanoTime() + workload.toNanos());
    nemesisMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nemesisStart);
    for (WorkerProcess w : slots) {
      w.send("STOP");
    }
    for (WorkerProcess w : slots) {
      try {
        w.await("DONE", Duration.ofSeconds(60));
      } catch (IllegalStateException e) {
        w.kill();
        count("kill-at-stop");
      }
    }
    for (WorkerProcess w : all) {
      w.close();
    }
    // Quiet now: the leases of killed workers expire, then one final turn per session reads
    // every key (and closes a turn a killed worker left open).
    TimeUnit.MILLISECONDS.sleep(LEASE.toMillis() * 2);
    List<Path> files = new ArrayList<>();
    for (WorkerProcess w : all) {
      files.add(w.history);
    }
    Path finalHistory = dir.resolve("history-final.jsonl");
    files.add(finalHistory);
    Stored stored;
    try (DatabaseSessionService sessions = new DatabaseSessionService(directUrl, checkerConfig());
        HistoryLog log = new HistoryLog(finalHistory)) {
      Worker reader = new Worker("final", seed, log, sessions);
      for (SessionRef s : Workload.SESSIONS) {
        reader.turn(reader.nextOpId(), s, Workload.readAll(s));
      }
      stored = read(sessions);
    }
    // A skewed process's monotonic clock is offset: its records go back on the shared time line,
    // each operation widened by the measurement's uncertainty (so that no order is invented).
    List<Entry> history = new ArrayList<>();
    for (Entry e : HistoryLog.read(files)) {
      Long offset = monotonicOffsets.get(e.process());
      if (offset == null) {
        history.add(e);
      } else {
        long margin = clockMargins.get(e.process());
        history.add(e.shifted(-offset + (e.type().equals(Entry.INVOKE) ? -margin : margin)));
      }
    }
    Report report = Checker.check(history, stored);
    return new Result(
        report,
        history,
        stored,
        faults,
        skews(history),
        monotonicOffsets,
        nemesisMillis,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
        dir);
  }

  /**
   * Measures how far a worker's monotonic clock is from this JVM's: twenty pings, the offset taken
   * from the quickest round trip, whose half is the margin of error.
   */
  private void measureClock(WorkerProcess w) throws InterruptedException {
    long best = Long.MAX_VALUE;
    for (int i = 0; i < 20; i++) {
      long before = System.nanoTime();
      w.send("PING");
      long theirs = Long.parseLong(w.await("PONG", Duration.ofSeconds(30)).substring(5).trim());
      long after = System.nanoTime();
      if (after - before < best) {
        best = after - before;
        monotonicOffsets.put(w.name, theirs - (before + after) / 2);
        clockMargins.put(w.name, best / 2 + 1_000_000);
      }
    }
  }

  /** Per skewed process, how far its wall clock was from this JVM's (from its records). */
  private Map<String, Long> skews(List<Entry> history) {
    long offset = System.currentTimeMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
    Map<String, Long> out = new TreeMap<>();
    for (Entry e : history) {
      long skewMs = e.wall() - (TimeUnit.NANOSECONDS.toMillis(e.nanos()) + offset);
      if (Math.abs(skewMs) > 60_000) {
        out.putIfAbsent(e.process(), skewMs);
      }
    }
    return out;
  }

  private void count(String fault) {
    faults.merge(fault, 1, Integer::sum);
  }

  /**
   * Injects faults until {@code deadline}, or, with no deadline ({@code Long.MAX_VALUE}), one of
   * each kind; every fault is healed when it returns, and a quiet spell follows the last.
   */
  private void nemesis(long deadline) throws Exception {
    List<String> kinds = new ArrayList<>(List.of("kill", "pause"));
    kinds.add(backend == Backend.POSTGRES ? "pg-restart" : "disk-full");
    if (backend == Backend.POSTGRES) {
      kinds.add("net-cut");
    }
    boolean oneRound = deadline == Long.MAX_VALUE;
    long start = System.nanoTime();
    List<String> bag = new ArrayList<>();
    int injected = 0;
    while (System.nanoTime() < deadline) {
      // A quiet spell, then a fault.
      sleepUntil(Math.min(deadline, System.nanoTime() + millis(700 + random.nextInt(800))));
      if (System.nanoTime() >= deadline
          || (oneRound && injected == kinds.size() && acknowledged() >= MIN_ACKNOWLEDGED)) {
        break;
      }
      if (oneRound && injected == kinds.size()) {
        if (System.nanoTime() - start > TimeUnit.MINUTES.toNanos(3)) {
          break; // the test's count of acknowledged turns will say so
        }
        continue; // every fault came once, but too few operations completed yet: quiet on
      }
      injected++;
      if (bag.isEmpty()) {
        bag.addAll(kinds);
        Collections.shuffle(bag, random);
      }
      String kind = bag.remove(0);
      int slot = random.nextInt(workers);
      count(kind);
      switch (kind) {
        case "kill" -> {
          // Not the skewed worker: its clock offset is measured once, when it starts.
          if (skewOf(slot) != null) {
            slot = 1 + random.nextInt(workers - 1);
          }
          slots[slot].kill();
          startWorker(slot); // it starts working once its service is open
        }
        case "pause" -> {
          WorkerProcess w = slots[slot];
          w.pause();
          TimeUnit.MILLISECONDS.sleep(LEASE.toMillis() * 5 / 2);
          w.resume();
        }
        case "disk-full" -> {
          Files.writeString(diskFull, "full");
          TimeUnit.MILLISECONDS.sleep(1_500);
          Files.deleteIfExists(diskFull);
        }
        case "pg-restart" -> {
          postgres().close();
          TimeUnit.MILLISECONDS.sleep(500);
          startPostgres();
        }
        case "net-cut" -> {
          proxies[slot].cut();
          TimeUnit.MILLISECONDS.sleep(LEASE.toMillis() * 5 / 2);
          proxies[slot].heal();
        }
        default -> throw new IllegalStateException(kind);
      }
    }
  }

  /**
   * The operations the workers have acknowledged so far (their history files, flushed line by
   * line).
   */
  private long acknowledged() {
    long n = 0;
    for (WorkerProcess w : all) {
      try (var lines = Files.lines(w.history)) {
        n += lines.filter(l -> l.contains("\"type\":\"ok\"")).count();
      } catch (IOException | java.io.UncheckedIOException e) {
        // not written yet
      }
    }
    return n;
  }

  private static long millis(long ms) {
    return TimeUnit.MILLISECONDS.toNanos(ms);
  }

  private static void sleepUntil(long nanos) throws InterruptedException {
    long left = nanos - System.nanoTime();
    if (left > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  /** Everything the store holds, read by a fresh service. */
  static Stored read(DatabaseSessionService sessions) {
    Stored stored = Stored.empty();
    for (SessionRef s : Workload.SESSIONS) {
      Session session = sessions.getSession(Workload.APP, s.user(), s.session()).blockingGet();
      if (session == null) {
        continue;
      }
      stored.events().put(s.key(), session.events().stream().map(StoredEvent::of).toList());
      stored.finalStates().put(s.key(), new LinkedHashMap<>(session.state()));
    }
    for (String key : Workload.REGISTERS) {
      if (!key.contains(":")) {
        continue;
      }
      List<SessionRef> askers =
          key.startsWith("app:")
              ? List.of(Workload.SESSIONS.get(0))
              : List.of(Workload.SESSIONS.get(0), Workload.SESSIONS.get(3));
      for (SessionRef s : askers) {
        List<Stored.Change> changes = new ArrayList<>();
        for (StateChange c :
            sessions.stateHistory(Workload.APP, s.user(), s.session(), key).blockingGet()) {
          changes.add(
              new Stored.Change(
                  c.value(), String.valueOf(c.invocationId()), c.userId() + "/" + c.sessionId()));
        }
        stored.keyHistories().put(KeyRef.of(s.user(), s.session(), key), changes);
      }
    }
    return stored;
  }

  @Override
  public void close() throws Exception {
    for (WorkerProcess w : all) {
      w.close();
    }
    for (FaultProxy p : proxies) {
      if (p != null) {
        p.close();
      }
    }
    Files.deleteIfExists(diskFull);
    if (postgres != null) {
      postgres.close();
    }
  }
}
