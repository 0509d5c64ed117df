package dev.adk4j.benchmarks.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Several {@code adk-server} instances under load (issue 32, item 2): starts 1, 2 and 3 {@link
 * LoadServer} processes on one embedded PostgreSQL (a new database per configuration), and one on a
 * SQLite file; drives them over loopback HTTP ({@code POST /run_sse}) with {@code --users} users,
 * each in a session of its own on instance {@code user % instances}, plus {@code --pairs} sessions
 * that two users send to at once, one through instance 0 and one through instance 1 (the same one
 * when there is one). Every turn: user message, scripted model (fixed latency), the tool
 * incrementing the shared {@code app:turns} and the session's {@code turns}, model again, answer.
 *
 * <p>Per configuration: turns per second and p50/p95/p99 latency over the measured window (after
 * {@code --warmup-seconds}), errors by type, lease waits (runs whose stream says they waited for
 * their session), CPU per turn of the server processes and of PostgreSQL's processes; then it
 * proves that no update was lost ({@code app:turns} equals the successful turns, each session's
 * {@code turns} its own) and that every history is valid (complete turns of four events: user
 * message, call, response, answer, as many as the session's successful turns). Bounded: {@code
 * --seconds} per configuration and {@code --max-requests} in all.
 *
 * <pre>
 * java -cp adk-benchmarks/target/benchmarks.jar dev.adk4j.benchmarks.load.LoadBenchmark \
 *     [--users 8] [--pairs 2] [--seconds 20] [--warmup-seconds 5] [--latency-ms 50] \
 *     [--configs pg1,pg2,pg3,sqlite1] [--out target/load]
 * </pre>
 *
 * adk-benchmarks/load.sh runs it.
 */
public final class LoadBenchmark {
  private LoadBenchmark() {}

  static final ObjectMapper JSON = new ObjectMapper();

  int users = 8;
  int pairs = 2;
  int seconds = 20;
  int warmupSeconds = 5;
  long latencyMs = 50;
  long maxRequests = 200_000;
  List<String> configs = List.of("pg1", "pg2", "pg3", "sqlite1");
  Path out = Path.of("adk-benchmarks/target/load");
  int pgPort;

  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  /** One client: a user sending turns to one session through one instance. */
  static final class Client {
    final String user;
    final String session;
    final URI server;

    Client(String user, String session, URI server) {
      this.user = user;
      this.session = session;
      this.server = server;
    }
  }

  /** What the clients of one configuration saw. */
  static final class Tally {
    final LongAdder succeeded = new LongAdder();
    final LongAdder waits = new LongAdder();
    final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    final Map<String, LongAdder> perSession = new ConcurrentHashMap<>();
    final List<long[]> latencies = new ArrayList<>();
    final AtomicLong measured = new AtomicLong();
  }

  public static void main(String[] args) throws Exception {
    LoadBenchmark b = new LoadBenchmark();
    for (int i = 0; i < args.length; i++) {
      String v = i + 1 < args.length ? args[i + 1] : "";
      switch (args[i]) {
        case "--users":
          b.users = Integer.parseInt(v);
          break;
        case "--pairs":
          b.pairs = Integer.parseInt(v);
          break;
        case "--seconds":
          b.seconds = Integer.parseInt(v);
          break;
        case "--warmup-seconds":
          b.warmupSeconds = Integer.parseInt(v);
          break;
        case "--latency-ms":
          b.latencyMs = Long.parseLong(v);
          break;
        case "--max-requests":
          b.maxRequests = Long.parseLong(v);
          break;
        case "--configs":
          b.configs = Arrays.asList(v.split(","));
          break;
        case "--out":
          b.out = Path.of(v);
          break;
        default:
          throw new IllegalArgumentException("unknown option " + args[i]);
      }
      i++;
    }
    b.run();
    System.exit(0);
  }

  void run() throws Exception {
    Files.createDirectories(out);
    StringBuilder table = new StringBuilder();
    table.append(
        "| store | instances | clients | turns (window) | turns/s | p50 ms | p95 ms | p99 ms | errors"
            + " | lease waits | server CPU ms/turn | PostgreSQL CPU ms/turn | app:turns = successes"
            + " | valid histories |\n");
    table.append(
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- | --- |\n");
    EmbeddedPostgres pg = null;
    try {
      for (String config : configs) {
        boolean sqlite = config.startsWith("sqlite");
        int instances = Integer.parseInt(config.replaceAll("\\D", ""));
        String url;
        if (sqlite) {
          Path file = out.resolve("load-" + config + ".db");
          Files.deleteIfExists(file);
          Files.deleteIfExists(Path.of(file + "-wal"));
          Files.deleteIfExists(Path.of(file + "-shm"));
          url = "jdbc:sqlite:" + file.toAbsolutePath();
        } else {
          if (pg == null) {
            pg = EmbeddedPostgres.builder().start();
          }
          String db = "load_" + config;
          try (Connection c = pg.getPostgresDatabase().getConnection();
              Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + db);
            s.execute("CREATE DATABASE " + db);
          }
          url = pg.getJdbcUrl("postgres", db);
        }
        pgPort = sqlite ? 0 : pg.getPort();
        String row = runConfig(sqlite ? "SQLite" : "PostgreSQL", instances, url, config);
        table.append(row).append('\n');
        System.out.println(row);
        Files.writeString(out.resolve("table.md"), table.toString(), StandardCharsets.UTF_8);
      }
    } finally {
      if (pg != null) {
        pg.close();
      }
    }
    System.out.println();
    System.out.print(table);
  }

  String runConfig(String store, int instances, String url, String config) throws Exception {
    List<Process> servers = new ArrayList<>();
    List<URI> urls = new ArrayList<>();
    try {
      // One after the other: each migrates the schema (a no-op after the first) before serving.
      for (int i = 0; i < instances; i++) {
        Process p =
            new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx512m",
                    "-cp",
                    System.getProperty("java.class.path"),
                    LoadServer.class.getName(),
                    "--store",
                    url,
                    "--latency-ms",
                    Long.toString(latencyMs))
                .redirectError(out.resolve("server-" + config + "-" + i + ".log").toFile())
                .start();
        servers.add(p);
        BufferedReader lines =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        URI found = null;
        while ((line = lines.readLine()) != null) {
          if (line.startsWith("listening ")) {
            found = URI.create(line.substring("listening ".length()).trim());
            break;
          }
        }
        if (found == null) {
          throw new IllegalStateException(
              "server " + i + " of " + config + " ended before listening; see its log in " + out);
        }
        urls.add(found);
      }
      List<Client> clients = new ArrayList<>();
      for (int u = 0; u < users; u++) {
        clients.add(new Client("user-" + u, "own-" + u, urls.get(u % instances)));
      }
      for (int p = 0; p < pairs; p++) {
        clients.add(new Client("pair-" + p, "shared-" + p, urls.get(0)));
        clients.add(new Client("pair-" + p, "shared-" + p, urls.get(1 % instances)));
      }
      for (Client c : clients) {
        create(c);
      }
      Tally tally = new Tally();
      long start = System.nanoTime();
      long windowStart = start + warmupSeconds * 1_000_000_000L;
      long end = windowStart + seconds * 1_000_000_000L;
      AtomicLong requests = new AtomicLong();
      List<Thread> threads = new ArrayList<>();
      for (Client c : clients) {
        long[] lat = new long[1 << 16];
        synchronized (tally.latencies) {
          tally.latencies.add(lat);
        }
        Thread t =
            new Thread(() -> drive(c, tally, lat, windowStart, end, requests), "client-" + c.user);
        threads.add(t);
      }
      threads.forEach(Thread::start);
      long sleep = windowStart - System.nanoTime();
      if (sleep > 0) {
        Thread.sleep(sleep / 1_000_000);
      }
      long serverCpu0 = cpu(servers);
      long pgCpu0 = postgresCpu(pgPort);
      long ok0 = tally.succeeded.sum();
      long waits0 = tally.waits.sum();
      long rest = end - System.nanoTime();
      if (rest > 0) {
        Thread.sleep(rest / 1_000_000);
      }
      long serverCpu1 = cpu(servers);
      long pgCpu1 = postgresCpu(pgPort);
      long okWindow = tally.succeeded.sum() - ok0;
      long waitsWindow = tally.waits.sum() - waits0;
      for (Thread t : threads) {
        t.join();
      }
      // Latencies of the turns that ended in the window.
      long n = 0;
      for (long[] lat : tally.latencies) {
        for (long v : lat) {
          n += v > 0 ? 1 : 0;
        }
      }
      long[] all = new long[(int) n];
      int k = 0;
      for (long[] lat : tally.latencies) {
        for (long v : lat) {
          if (v > 0) {
            all[k++] = v;
          }
        }
      }
      Arrays.sort(all);
      // Proofs, after every client has finished.
      long total = tally.succeeded.sum();
      JsonNode any = get(clients.get(0));
      long appTurns = any.path("state").path(LoadServer.APP_COUNTER).asLong(-1);
      int valid = 0;
      List<String> invalid = new ArrayList<>();
      List<String> seen = new ArrayList<>();
      for (Client c : clients) {
        if (seen.contains(c.session)) {
          continue;
        }
        seen.add(c.session);
        String problem = history(get(c), tally.perSession.get(c.session));
        if (problem == null) {
          valid++;
        } else {
          invalid.add(c.session + ": " + problem);
        }
      }
      Files.write(out.resolve("invalid-" + config + ".txt"), invalid, StandardCharsets.UTF_8);
      double window = seconds;
      Map<String, Long> errors = new TreeMap<>();
      tally.errors.forEach((type, count) -> errors.put(type, count.sum()));
      return String.format(
          Locale.ROOT,
          "| %s | %d | %d | %,d | %.1f | %.0f | %.0f | %.0f | %s | %d | %.2f | %s | %s (%,d = %,d) | %d of %d |",
          store,
          instances,
          clients.size(),
          okWindow,
          okWindow / window,
          pct(all, 0.50),
          pct(all, 0.95),
          pct(all, 0.99),
          errors.isEmpty() ? "none" : errors.toString(),
          waitsWindow,
          okWindow == 0 ? 0.0 : (serverCpu1 - serverCpu0) / 1e6 / okWindow,
          store.equals("SQLite")
              ? "–"
              : String.format(
                  Locale.ROOT, "%.2f", okWindow == 0 ? 0.0 : (pgCpu1 - pgCpu0) / 1e6 / okWindow),
          appTurns == total ? "yes" : "NO",
          appTurns,
          total,
          valid,
          seen.size());
    } finally {
      for (Process p : servers) {
        p.getOutputStream().close();
      }
      for (Process p : servers) {
        if (!p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
          p.destroy();
        }
      }
    }
  }

  void drive(Client c, Tally tally, long[] lat, long windowStart, long end, AtomicLong requests) {
    int next = 0;
    ObjectNode body = JSON.createObjectNode();
    body.put("appName", LoadServer.APP);
    body.put("userId", c.user);
    body.put("sessionId", c.session);
    body.put("streaming", false);
    ObjectNode msg = body.putObject("newMessage");
    msg.put("role", "user");
    msg.putArray("parts").addObject().put("text", "Count this turn.");
    String json = body.toString();
    while (System.nanoTime() < end && requests.incrementAndGet() <= maxRequests) {
      long t0 = System.nanoTime();
      String error = null;
      boolean waited = false;
      try {
        HttpResponse<String> r =
            http.send(
                HttpRequest.newBuilder(c.server.resolve("/run_sse"))
                    .timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
          error = "HTTP " + r.statusCode() + " " + errorKind(r.body());
        } else {
          boolean answered = false;
          for (String line : r.body().split("\n")) {
            if (line.startsWith(": waiting")) {
              waited = true;
            } else if (line.startsWith("data:")) {
              JsonNode e = JSON.readTree(line.substring(5));
              if (e.has("error")) {
                error = "stream " + errorKind(e.toString());
              } else if (LoadServer.ANSWER.equals(
                  e.path("content").path("parts").path(0).path("text").asText(null))) {
                answered = true;
              }
            }
          }
          if (error == null && !answered) {
            error = "no answer";
          }
        }
      } catch (IOException e) {
        error = e.getClass().getSimpleName();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      long t1 = System.nanoTime();
      if (waited) {
        tally.waits.increment();
      }
      if (error == null) {
        tally.succeeded.increment();
        tally.perSession.computeIfAbsent(c.session, k -> new LongAdder()).increment();
        if (t1 >= windowStart && t1 <= end && next < lat.length) {
          lat[next++] = t1 - t0;
        }
      } else {
        tally.errors.computeIfAbsent(error, k -> new LongAdder()).increment();
      }
    }
  }

  /** The error's kind: the error message up to its first colon, at most 60 characters. */
  static String errorKind(String body) {
    try {
      String m = JSON.readTree(body).path("error").asText(body);
      int colon = m.indexOf(':');
      m = colon > 0 ? m.substring(0, colon) : m;
      return m.length() > 60 ? m.substring(0, 60) : m;
    } catch (IOException e) {
      return "(not JSON)";
    }
  }

  void create(Client c) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(
                    c.server.resolve(
                        "/apps/" + LoadServer.APP + "/users/" + c.user + "/sessions/" + c.session))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    // The second client of a shared session finds it created (409 or 400 is fine there).
    if (r.statusCode() != 200 && !c.session.startsWith("shared-")) {
      throw new IllegalStateException(
          "creating session " + c.session + ": HTTP " + r.statusCode() + " " + r.body());
    }
  }

  JsonNode get(Client c) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(
                    c.server.resolve(
                        "/apps/" + LoadServer.APP + "/users/" + c.user + "/sessions/" + c.session))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException("reading session " + c.session + ": HTTP " + r.statusCode());
    }
    return JSON.readTree(r.body());
  }

  /**
   * Null when the session's events are whole turns (user message, call, response, answer), as many
   * as its successful runs, and its {@code turns} counter says so too; otherwise what is wrong.
   */
  static String history(JsonNode session, LongAdder succeeded) {
    long expected = succeeded == null ? 0 : succeeded.sum();
    StringBuilder kinds = new StringBuilder();
    for (JsonNode e : session.path("events")) {
      JsonNode part = e.path("content").path("parts").path(0);
      if (part.has("functionCall")) {
        kinds.append('C');
      } else if (part.has("functionResponse")) {
        kinds.append('R');
      } else if ("user".equals(e.path("author").asText())) {
        kinds.append('U');
      } else {
        kinds.append('A');
      }
    }
    String k = kinds.toString();
    if (!k.matches("(UCRA)*")) {
      return "events are not whole turns: " + (k.length() > 40 ? k.substring(0, 40) + "..." : k);
    }
    long turns = k.length() / 4;
    if (turns != expected) {
      return turns + " turns stored, " + expected + " runs succeeded";
    }
    long counter = session.path("state").path(LoadServer.SESSION_COUNTER).asLong(0);
    if (counter != turns) {
      return "session counter " + counter + " after " + turns + " turns";
    }
    return null;
  }

  /** The {@code p}-quantile (nearest rank) of {@code sorted} nanoseconds, in milliseconds. */
  public static double pct(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int i = (int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1);
    return sorted[Math.max(0, i)] / 1e6;
  }

  /** CPU nanoseconds the processes have used so far. */
  static long cpu(List<Process> processes) {
    long sum = 0;
    for (Process p : processes) {
      sum += p.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }
    return sum;
  }

  /**
   * CPU nanoseconds used so far by the embedded PostgreSQL on {@code port}: its postmaster (which
   * {@code pg_ctl} detaches, so it is no descendant of this JVM; found by the port among its
   * arguments) and the postmaster's descendants (backends, writers); 0 when there is none.
   */
  static long postgresCpu(int port) {
    if (port <= 0) {
      return 0;
    }
    String p = Integer.toString(port);
    long[] sum = {0};
    ProcessHandle.allProcesses()
        .filter(h -> h.info().command().map(c -> c.endsWith("/postgres")).orElse(false))
        .filter(h -> h.info().arguments().map(a -> Arrays.asList(a).contains(p)).orElse(false))
        .forEach(
            postmaster -> {
              sum[0] += cpu(postmaster);
              postmaster.descendants().forEach(h -> sum[0] += cpu(h));
            });
    return sum[0];
  }

  static long cpu(ProcessHandle h) {
    return h.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }
}
