package dev.adk4j.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Where the time of an {@link AppendBenchmark} append goes, for the service and the raw JDBC loop
 * side by side: the same writers (each thread its own session of one shared user, the same event
 * and rows), run for a fixed time after a warm-up, with per append
 *
 * <ul>
 *   <li>the CPU time of the writer threads (the client's own work: adk4j's, or the raw loop's) and
 *       of the whole JVM;
 *   <li>on PostgreSQL, the CPU time of the server backends of the run's database ({@code
 *       /proc/<pid>/stat}), the server time of each statement ({@code pg_stat_statements}, with
 *       planning time), and what the backends were doing, sampled every 5 ms from {@code
 *       pg_stat_activity}: executing, waiting for a lock (and on what), or waiting for the client
 *       inside a transaction ({@code idle in transaction}) or between transactions ({@code idle}).
 * </ul>
 *
 * The embedded PostgreSQL is the benchmark's (zonky, not durable) with {@code pg_stat_statements}
 * preloaded; each run gets a fresh database. Not a JMH benchmark: one run per row, figures to
 * explain the benchmark's, not to replace them.
 *
 * <p>Run (from the repository root; arguments: seconds measured per row, default 10, and the
 * databases, default both):
 *
 * <pre>
 * mvn -B -pl adk-benchmarks -am package -DskipTests
 * java -cp adk-benchmarks/target/benchmarks.jar dev.adk4j.benchmarks.AppendServerTime 10 postgresql sqlite
 * </pre>
 */
public final class AppendServerTime {

  private static final String[] IMPLS = {"DatabaseSessionService", "rawJdbc"};
  private static final int[] THREADS = {1, 4};
  private static final long SAMPLE_MILLIS = 5;

  private AppendServerTime() {}

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    List<String> kinds = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      kinds.add(args[i].toLowerCase(Locale.ROOT));
    }
    if (kinds.isEmpty()) {
      kinds = List.of(BenchDatabase.POSTGRESQL, BenchDatabase.SQLITE);
    }
    for (String kind : kinds) {
      if (kind.equals(BenchDatabase.POSTGRESQL)) {
        postgres(seconds);
      } else {
        sqlite(seconds);
      }
    }
  }

  private static void postgres(int seconds) throws Exception {
    try (EmbeddedPostgres pg =
            EmbeddedPostgres.builder()
                .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                .setServerConfig("pg_stat_statements.track_planning", "on")
                .setServerConfig("pg_stat_statements.max", "1000")
                .start();
        Connection admin = pg.getPostgresDatabase().getConnection()) {
      execute(admin, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      int n = 0;
      for (int threads : THREADS) {
        for (String impl : IMPLS) {
          String name = "append_" + (++n);
          execute(admin, "CREATE DATABASE " + name);
          String url = pg.getJdbcUrl("postgres", name);
          Run run = new Run(BenchDatabase.external(BenchDatabase.POSTGRESQL, url), impl, threads);
          run.measure(seconds, new ServerProbe(admin, name));
        }
      }
    }
  }

  private static void sqlite(int seconds) throws Exception {
    for (int threads : THREADS) {
      for (String impl : IMPLS) {
        try (BenchDatabase db = BenchDatabase.start(BenchDatabase.SQLITE)) {
          new Run(db, impl, threads).measure(seconds, null);
        }
      }
    }
  }

  /** One row: its service (used by both sides to create the sessions), writers and threads. */
  private static final class Run {
    final BenchDatabase db;
    final String impl;
    final int threads;

    Run(BenchDatabase db, String impl, int threads) {
      this.db = db;
      this.impl = impl;
      this.threads = threads;
    }

    void measure(int seconds, @Nullable ServerProbe server) throws Exception {
      AppendBenchmark b = new AppendBenchmark();
      b.database = db.kind;
      b.impl = impl;
      b.db = db;
      b.service =
          new DatabaseSessionService(
              db.url, DatabaseSessionConfig.builder().maximumPoolSize(8).minimumIdle(4).build());
      ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      OperatingSystemMXBean os =
          (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicBoolean counting = new AtomicBoolean();
      AtomicLong appends = new AtomicLong();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> writers = new ArrayList<>();
      try {
        for (int t = 0; t < threads; t++) {
          AppendBenchmark.Writer w = new AppendBenchmark.Writer();
          w.start(b);
          Thread thread =
              new Thread(
                  () -> {
                    try {
                      while (!stop.get()) {
                        w.append(b);
                        if (counting.get()) {
                          appends.incrementAndGet();
                        }
                      }
                    } catch (Throwable e) {
                      failure.compareAndSet(null, e);
                    } finally {
                      try {
                        w.stop();
                      } catch (SQLException e) {
                        failure.compareAndSet(null, e);
                      }
                    }
                  },
                  "writer-" + t);
          writers.add(thread);
        }
        writers.forEach(Thread::start);
        Thread.sleep(Math.max(5, seconds) * 1000L); // warm-up: JIT, prepared statements
        if (server != null) {
          server.start();
        }
        long threadCpu = threadCpu(mx, writers);
        long processCpu = os.getProcessCpuTime();
        long start = System.nanoTime();
        counting.set(true);
        long until = start + seconds * 1_000_000_000L;
        while (System.nanoTime() < until && failure.get() == null) {
          if (server != null) {
            server.sample();
          }
          Thread.sleep(server != null ? SAMPLE_MILLIS : 100);
        }
        counting.set(false);
        long n = Math.max(1, appends.get());
        double elapsed = (System.nanoTime() - start) / 1e9;
        double clientUs = (threadCpu(mx, writers) - threadCpu) / 1e3 / n;
        double jvmUs = (os.getProcessCpuTime() - processCpu) / 1e3 / n;
        System.out.printf(
            Locale.ROOT,
            "%n== %s, %s, %d thread(s): %.0f appends/s (%d in %.1f s); CPU per append:"
                + " writer threads %.0f µs, JVM %.0f µs%n",
            db.kind,
            impl,
            threads,
            n / elapsed,
            n,
            elapsed,
            clientUs,
            jvmUs);
        if (server != null) {
          server.report(n);
        }
      } finally {
        stop.set(true);
        for (Thread t : writers) {
          t.join(30_000);
        }
        b.service.close();
      }
      if (failure.get() != null) {
        throw new IllegalStateException("A writer failed", failure.get());
      }
    }

    private static long threadCpu(ThreadMXBean mx, List<Thread> threads) {
      long sum = 0;
      for (Thread t : threads) {
        sum += Math.max(0, mx.getThreadCpuTime(t.getId()));
      }
      return sum;
    }
  }

  /** The server side of one PostgreSQL row: the backends of its database. */
  private static final class ServerProbe {
    final Connection admin;
    final String database;
    final Map<String, Integer> states = new TreeMap<>();
    final Map<String, Integer> lockWaits = new TreeMap<>();
    int samples;
    Map<Integer, Long> cpuAtStart = Map.of();

    ServerProbe(Connection admin, String database) {
      this.admin = admin;
      this.database = database;
    }

    void start() throws SQLException, IOException {
      execute(admin, "SELECT pg_stat_statements_reset()");
      cpuAtStart = backendCpu();
    }

    /** One sample of what the run's backends are doing. */
    void sample() throws SQLException {
      samples++;
      try (PreparedStatement ps =
          admin.prepareStatement(
              "SELECT state, wait_event_type, wait_event, left(query, 60) FROM pg_stat_activity"
                  + " WHERE datname = ? AND backend_type = 'client backend'")) {
        ps.setString(1, database);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            String state = String.valueOf(rs.getString(1));
            String type = rs.getString(2);
            String event = rs.getString(3);
            String what = state + (type == null ? "" : " / " + type + ":" + event);
            states.merge(what, 1, Integer::sum);
            if ("Lock".equals(type)) {
              lockWaits.merge(event + " in: " + rs.getString(4), 1, Integer::sum);
            }
          }
        }
      }
    }

    void report(long appends) throws Exception {
      Map<Integer, Long> cpu = backendCpu();
      long ticks = 0;
      for (Map.Entry<Integer, Long> e : cpu.entrySet()) {
        ticks += e.getValue() - cpuAtStart.getOrDefault(e.getKey(), 0L);
      }
      System.out.printf(
          Locale.ROOT,
          "   server backends' CPU per append: %.0f µs (%d backends)%n",
          ticks * 10_000.0 / appends, // clock ticks of 10 ms
          cpu.size());
      System.out.printf(
          Locale.ROOT,
          "   backend states (%d samples, every %d ms; backend-samples per state):%n",
          samples,
          SAMPLE_MILLIS);
      states.entrySet().stream()
          .sorted((a, b) -> b.getValue() - a.getValue())
          .forEach(e -> System.out.printf(Locale.ROOT, "     %6d  %s%n", e.getValue(), e.getKey()));
      if (!lockWaits.isEmpty()) {
        System.out.println("   lock waits (backend-samples):");
        lockWaits.forEach((k, v) -> System.out.printf(Locale.ROOT, "     %6d  %s%n", v, k));
      }
      System.out.println(
          "   statements (per append: calls, server ms executing, ms planning; mean ms):");
      try (PreparedStatement ps =
          admin.prepareStatement(
              "SELECT calls, total_exec_time, total_plan_time, mean_exec_time,"
                  + " regexp_replace(query, '\\s+', ' ', 'g') FROM pg_stat_statements"
                  + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = ?)"
                  + " ORDER BY total_exec_time DESC")) {
        ps.setString(1, database);
        double exec = 0;
        double plan = 0;
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            long calls = rs.getLong(1);
            if (calls < appends / 2) {
              continue; // setup and sampling statements
            }
            exec += rs.getDouble(2);
            plan += rs.getDouble(3);
            String query = rs.getString(5);
            System.out.printf(
                Locale.ROOT,
                "     %5.2f  %7.4f  %7.4f  (%.4f)  %s%n",
                calls / (double) appends,
                rs.getDouble(2) / appends,
                rs.getDouble(3) / appends,
                rs.getDouble(4),
                query.length() > 110 ? query.substring(0, 110) + "…" : query);
          }
        }
        System.out.printf(
            Locale.ROOT,
            "   server time per append: %.3f ms executing, %.3f ms planning%n",
            exec / appends,
            plan / appends);
      }
    }

    /** CPU clock ticks (user + system) of each client backend of the database, by pid. */
    private Map<Integer, Long> backendCpu() throws SQLException, IOException {
      Map<Integer, Long> ticks = new TreeMap<>();
      try (PreparedStatement ps =
          admin.prepareStatement(
              "SELECT pid FROM pg_stat_activity WHERE datname = ?"
                  + " AND backend_type = 'client backend'")) {
        ps.setString(1, database);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            int pid = rs.getInt(1);
            Path stat = Path.of("/proc", Integer.toString(pid), "stat");
            if (Files.exists(stat)) {
              String s = Files.readString(stat);
              // Fields after the command name, which is in parentheses: utime is the 14th field.
              String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
              ticks.put(pid, Long.parseLong(f[11]) + Long.parseLong(f[12]));
            }
          }
        }
      }
      return ticks;
    }
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
