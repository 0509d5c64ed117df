package dev.adk4j.benchmarks.devservers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The load side of the dev-server comparison (issue 32, item 3): drives one running server (adk4j's
 * {@link Adk4jDevServer}, ADK for Java's dev server or ADK for JavaScript's; adk-benchmarks/
 * devservers.sh starts each in turn) over loopback HTTP with the same calls: for each endpoint
 * ({@code /run}, {@code /run_sse}) and each number of users, that many users, each in a new session
 * of its own, send the same message in a loop ({@code --warmup-seconds}, then a measured window of
 * {@code --seconds}). Every turn: user message, model (fixed latency), the tool's call and response
 * (the session's {@code turns} read and written back plus one), model again, answer.
 *
 * <p>A turn counts only if its response holds the tool's call, its response and the answer; after
 * each window every session is read back and must hold four events per successful turn and {@code
 * turns} equal to them (the server ran the turns and stored their state). Per endpoint and users:
 * turns per second and p50/p95/p99 latency over the window, errors by kind, the server process's
 * CPU per turn ({@code --pid}), and the sessions that passed the check. Appends one markdown row
 * each to {@code --out}/rows.md. Before the first window the server is warmed up, unmeasured, on
 * every endpoint with the most users ({@code --server-warmup-seconds} in all), so the first row
 * does not pay for a cold JIT. Bounded: {@code --max-requests} per endpoint and users.
 *
 * <pre>
 * java -cp adk-benchmarks/target/benchmarks.jar dev.adk4j.benchmarks.devservers.DevServersBenchmark \
 *     --server "adk4j (memory)" --url http://127.0.0.1:8080 [--app latency_agent] [--pid 1234] \
 *     [--users 1,8] [--endpoints run,run_sse] [--seconds 10] [--warmup-seconds 3] \
 *     [--server-warmup-seconds 10] [--max-requests 20000] [--latency-ms 50] [--out adk-benchmarks/target/devservers]
 * </pre>
 */
public final class DevServersBenchmark {
  private DevServersBenchmark() {}

  static final ObjectMapper JSON = new ObjectMapper();

  String server = "server";
  URI url = URI.create("http://127.0.0.1:8080");
  String app = Adk4jDevServer.APP;
  long pid = -1;
  List<Integer> users = List.of(1, 8);
  List<String> endpoints = List.of("run", "run_sse");
  int seconds = 10;
  int warmupSeconds = 3;
  int serverWarmupSeconds = 10;
  long maxRequests = 20_000;
  long latencyMs = 50;
  Path out = Path.of("adk-benchmarks/target/devservers");
  boolean failed;

  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  /** What the users of one endpoint and count saw. */
  static final class Tally {
    final LongAdder succeeded = new LongAdder();
    final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    final Map<String, LongAdder> perSession = new ConcurrentHashMap<>();
    final List<long[]> latencies = new ArrayList<>();
  }

  public static void main(String[] args) throws Exception {
    DevServersBenchmark b = new DevServersBenchmark();
    for (int i = 0; i < args.length; i++) {
      String v = i + 1 < args.length ? args[i + 1] : "";
      switch (args[i]) {
        case "--server":
          b.server = v;
          break;
        case "--url":
          b.url = URI.create(v);
          break;
        case "--app":
          b.app = v;
          break;
        case "--pid":
          b.pid = Long.parseLong(v);
          break;
        case "--users":
          b.users = Arrays.stream(v.split(",")).map(Integer::valueOf).toList();
          break;
        case "--endpoints":
          b.endpoints = Arrays.asList(v.split(","));
          break;
        case "--seconds":
          b.seconds = Integer.parseInt(v);
          break;
        case "--warmup-seconds":
          b.warmupSeconds = Integer.parseInt(v);
          break;
        case "--server-warmup-seconds":
          b.serverWarmupSeconds = Integer.parseInt(v);
          break;
        case "--max-requests":
          b.maxRequests = Long.parseLong(v);
          break;
        case "--latency-ms":
          b.latencyMs = Long.parseLong(v);
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
    System.exit(b.failed ? 1 : 0);
  }

  void run() throws Exception {
    Files.createDirectories(out);
    String tag = Long.toString(System.currentTimeMillis(), 36);
    for (String endpoint : endpoints) {
      if (!endpoint.equals("run") && !endpoint.equals("run_sse")) {
        throw new IllegalArgumentException("unknown endpoint " + endpoint + " (run, run_sse)");
      }
    }
    // The server's own warm-up (JIT, pools, caches), unmeasured: every endpoint with the most
    // users.
    int most = users.stream().mapToInt(Integer::intValue).max().orElse(1);
    for (String endpoint : endpoints) {
      measure(endpoint, most, "warm-" + tag, serverWarmupSeconds / endpoints.size(), 0);
    }
    for (String endpoint : endpoints) {
      for (int n : users) {
        String row = measure(endpoint, n, tag, warmupSeconds, seconds);
        System.out.println(row);
        Files.writeString(
            out.resolve("rows.md"),
            row + "\n",
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      }
    }
  }

  /**
   * Drives {@code endpoint} with {@code n} users in new sessions for {@code warmup} seconds, then
   * measures a window of {@code window} seconds; checks the sessions; returns the markdown row.
   */
  String measure(String endpoint, int n, String tag, int warmup, int window) throws Exception {
    List<String> sessions = new ArrayList<>();
    for (int u = 0; u < n; u++) {
      String session = endpoint + "-" + n + "-" + u + "-" + tag;
      create("user-" + u, session);
      sessions.add(session);
    }
    Tally tally = new Tally();
    long start = System.nanoTime();
    long windowStart = start + warmup * 1_000_000_000L;
    long end = windowStart + window * 1_000_000_000L;
    AtomicLong requests = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (int u = 0; u < n; u++) {
      long[] lat = new long[1 << 17];
      tally.latencies.add(lat);
      String user = "user-" + u;
      String session = sessions.get(u);
      threads.add(
          new Thread(
              () -> drive(endpoint, user, session, tally, lat, windowStart, end, requests),
              "client-" + u));
    }
    threads.forEach(Thread::start);
    sleepUntil(windowStart);
    long cpu0 = cpu();
    long ok0 = tally.succeeded.sum();
    sleepUntil(end);
    long cpu1 = cpu();
    long okWindow = tally.succeeded.sum() - ok0;
    for (Thread t : threads) {
      t.join();
    }
    long[] all =
        tally.latencies.stream()
            .flatMapToLong(Arrays::stream)
            .filter(v -> v > 0)
            .sorted()
            .toArray();
    // The check: each session holds its successful turns, whole, and its counter says so.
    int checked = 0;
    List<String> problems = new ArrayList<>();
    for (int u = 0; u < n; u++) {
      String session = sessions.get(u);
      LongAdder ok = tally.perSession.get(session);
      String problem = check(get("user-" + u, session), ok == null ? 0 : ok.sum());
      if (problem == null) {
        checked++;
      } else {
        problems.add(session + ": " + problem);
      }
    }
    if (!problems.isEmpty()) {
      failed = true;
      System.err.println(server + " " + endpoint + " " + n + " users: " + problems);
    }
    Map<String, Long> errors = new TreeMap<>();
    tally.errors.forEach((kind, count) -> errors.put(kind, count.sum()));
    if (okWindow == 0 && window > 0) {
      failed = true;
    }
    return String.format(
        Locale.ROOT,
        "| %s | %d ms | /%s | %d | %,d | %.1f | %.1f | %.1f | %.1f | %s | %s | %d of %d |",
        server,
        latencyMs,
        endpoint,
        n,
        okWindow,
        window == 0 ? 0.0 : okWindow / (double) window,
        pct(all, 0.50),
        pct(all, 0.95),
        pct(all, 0.99),
        errors.isEmpty() ? "none" : errors.toString(),
        pid <= 0 || okWindow == 0
            ? "–"
            : String.format(Locale.ROOT, "%.2f", (cpu1 - cpu0) / 1e6 / okWindow),
        checked,
        n);
  }

  static void sleepUntil(long nanoTime) throws InterruptedException {
    long rest = nanoTime - System.nanoTime();
    if (rest > 0) {
      Thread.sleep(rest / 1_000_000, (int) (rest % 1_000_000));
    }
  }

  void drive(
      String endpoint,
      String user,
      String session,
      Tally tally,
      long[] lat,
      long windowStart,
      long end,
      AtomicLong requests) {
    ObjectNode body = JSON.createObjectNode();
    body.put("appName", app);
    body.put("userId", user);
    body.put("sessionId", session);
    if (endpoint.equals("run_sse")) {
      body.put("streaming", false);
    }
    ObjectNode msg = body.putObject("newMessage");
    msg.put("role", "user");
    msg.putArray("parts").addObject().put("text", "Count this turn.");
    HttpRequest request =
        HttpRequest.newBuilder(url.resolve("/" + endpoint))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
            .build();
    int next = 0;
    while (System.nanoTime() < end && requests.incrementAndGet() <= maxRequests) {
      long t0 = System.nanoTime();
      String error;
      try {
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        error =
            r.statusCode() != 200
                ? "HTTP " + r.statusCode()
                : endpoint.equals("run") ? checkRun(r.body()) : checkSse(r.body());
      } catch (IOException e) {
        error = e.getClass().getSimpleName();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      long t1 = System.nanoTime();
      if (error == null) {
        tally.succeeded.increment();
        tally.perSession.computeIfAbsent(session, k -> new LongAdder()).increment();
        if (t1 >= windowStart && t1 <= end && next < lat.length) {
          lat[next++] = t1 - t0;
        }
      } else {
        tally.errors.computeIfAbsent(error, k -> new LongAdder()).increment();
      }
    }
  }

  /** Null when the {@code /run} answer (a JSON array of events) is the whole turn. */
  static String checkRun(String body) throws IOException {
    JsonNode events = JSON.readTree(body);
    if (!events.isArray()) {
      return "not an array of events";
    }
    List<JsonNode> list = new ArrayList<>();
    events.forEach(list::add);
    return turn(list);
  }

  /** Null when the {@code /run_sse} stream's events are the whole turn. */
  static String checkSse(String body) throws IOException {
    List<JsonNode> list = new ArrayList<>();
    for (String line : body.split("\n")) {
      if (line.startsWith("data:")) {
        JsonNode e = JSON.readTree(line.substring(5));
        if (e.has("error")) {
          return "error event";
        }
        list.add(e);
      }
    }
    return turn(list);
  }

  /** Null when the events are a call of the tool, its response and the answer, in that order. */
  static String turn(List<JsonNode> events) {
    String kinds = kinds(events);
    return kinds.equals("CRA") ? null : "events " + (kinds.isEmpty() ? "none" : kinds);
  }

  /** U user message, C the tool's call, R its response, A the answer, ? anything else. */
  static String kinds(Iterable<JsonNode> events) {
    StringBuilder k = new StringBuilder();
    for (JsonNode e : events) {
      JsonNode part = e.path("content").path("parts").path(0);
      if (part.path("functionCall").path("name").asText("").equals(Adk4jDevServer.TOOL)) {
        k.append('C');
      } else if (part.path("functionResponse")
          .path("name")
          .asText("")
          .equals(Adk4jDevServer.TOOL)) {
        k.append('R');
      } else if ("user".equals(e.path("author").asText())) {
        k.append('U');
      } else if (Adk4jDevServer.ANSWER.equals(part.path("text").asText(null))) {
        k.append('A');
      } else {
        k.append('?');
      }
    }
    return k.toString();
  }

  /**
   * Null when the stored session holds {@code expected} whole turns (user message, call, response,
   * answer) and its {@code turns} equals them; otherwise what is wrong.
   */
  static String check(JsonNode session, long expected) {
    List<JsonNode> events = new ArrayList<>();
    session.path("events").forEach(events::add);
    String k = kinds(events);
    if (!k.matches("(UCRA)*")) {
      return "events are not whole turns: " + (k.length() > 40 ? k.substring(0, 40) + "..." : k);
    }
    if (k.length() / 4 != expected) {
      return k.length() / 4 + " turns stored, " + expected + " runs succeeded";
    }
    long counter = session.path("state").path(Adk4jDevServer.COUNTER).asLong(0);
    if (counter != expected) {
      return "turns " + counter + " after " + expected + " turns";
    }
    return null;
  }

  void create(String user, String session) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(sessionUri(user, session))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(
          server + ": creating session " + session + ": HTTP " + r.statusCode());
    }
  }

  JsonNode get(String user, String session) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(sessionUri(user, session)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(
          server + ": reading session " + session + ": HTTP " + r.statusCode());
    }
    return JSON.readTree(r.body());
  }

  URI sessionUri(String user, String session) {
    return url.resolve("/apps/" + app + "/users/" + user + "/sessions/" + session);
  }

  /** CPU nanoseconds the server process ({@code --pid}) has used so far; 0 without one. */
  long cpu() {
    if (pid <= 0) {
      return 0;
    }
    Optional<ProcessHandle> h = ProcessHandle.of(pid);
    return h.flatMap(p -> p.info().totalCpuDuration()).map(Duration::toNanos).orElse(0L);
  }

  static double pct(long[] sorted, double p) {
    return dev.adk4j.benchmarks.load.LoadBenchmark.pct(sorted, p);
  }
}
