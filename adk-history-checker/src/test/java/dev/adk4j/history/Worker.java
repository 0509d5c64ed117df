package dev.adk4j.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.history.Workload.SessionRef;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.runner.InvocationFailedException;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.SessionBusyException;
import dev.adk4j.sessions.SessionException;
import dev.adk4j.sessions.StaleSessionException;
import dev.adk4j.sessions.StateConflictException;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;

/**
 * A worker process of the history checker: random turns through a real {@link Runner} on the shared
 * sessions of {@link Workload}, each recorded in its history file before it is invoked and after it
 * completes.
 *
 * <p>Every turn is one invocation of an {@link LlmAgent} (named after the process, so that stored
 * events say which process wrote them) whose {@link ScriptedLlm} answers the user message {@code op
 * <id> <steps as JSON>} with one call of the tool {@code apply}, then, seeing its response, with
 * the text {@code done}. The tool performs the steps through its {@code ToolContext.state()}: a
 * {@code rmw} reads then writes, so its event carries the read value as an expectation the store
 * checks; {@code incr} is {@code State.increment}. All of a turn's writes are in one event.
 *
 * <p>Arguments: {@code <process> <seed> <history file> <sqlite|postgresql> <JDBC URL or SQLite
 * file> <lease ms> <disk-full flag file>}. It prints {@code READY <nanoTime>} once its service is
 * open and warmed up, then works until a line {@code STOP} (or the end of stdin) and prints {@code
 * DONE <ops>}; it answers each line {@code PING} with {@code PONG <nanoTime>}. Only these lines go
 * to stdout.
 */
public final class Worker {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String process;
  private final Random random;
  private final HistoryLog log;
  private final Runner runner;
  private final RunConfig runConfig;
  private int sequence;

  /** Per rewind session, the invocations of this worker's last acknowledged turns. */
  private final Map<String, Deque<String>> recent = new HashMap<>();

  Worker(String process, long seed, HistoryLog log, BaseSessionService sessions) {
    this.process = process;
    this.random = new Random(seed);
    this.log = log;
    this.runner = new Runner(agent(process), Workload.APP, null, sessions);
    this.runConfig = RunConfig.builder().maxSessionWait(Duration.ofSeconds(8)).build();
  }

  /** The tool: performs a turn's steps on the state. */
  public static final class Apply {
    public Map<String, Object> apply(String request, ToolContext ctx) throws Exception {
      List<Step> steps = parse(request);
      List<Map<String, Object>> results = new ArrayList<>();
      for (Step s : steps) {
        Map<String, Object> r = new LinkedHashMap<>();
        switch (s.f()) {
          case Step.WRITE -> ctx.state().put(s.k(), s.v());
          case Step.RMW -> {
            read(ctx.state().get(s.k()), r);
            ctx.state().put(s.k(), s.v());
          }
          // Removing an absent key changes nothing (and writes nothing): say which it was.
          case Step.DEL -> r.put("removed", ctx.state().remove(s.k()) != null);
          case Step.INCR -> r.put("value", ctx.state().increment(s.k(), 1));
          case Step.READ -> read(ctx.state().get(s.k()), r);
          default -> throw new IllegalArgumentException("unknown step " + s);
        }
        results.add(r);
      }
      return Map.of("results", results);
    }

    private static void read(@Nullable Object value, Map<String, Object> r) {
      if (value == null) {
        r.put("absent", true);
      } else {
        r.put("read", value);
      }
    }
  }

  static String message(String opId, List<Step> steps) throws Exception {
    return "op " + opId + " " + JSON.writeValueAsString(steps.stream().map(Step::toMap).toList());
  }

  static List<Step> parse(String message) throws Exception {
    int json = message.indexOf(' ', 3);
    List<Step> steps = new ArrayList<>();
    for (Object o : JSON.readValue(message.substring(json + 1), List.class)) {
      steps.add(Step.fromMap((Map<?, ?>) o));
    }
    return steps;
  }

  static LlmAgent agent(String process) {
    ScriptedLlm llm =
        ScriptedLlm.answering(
            request ->
                lastIsFunctionResponse(request)
                    ? ScriptedLlm.textResponse("done")
                    : ScriptedLlm.functionCallResponse(
                        "apply", Map.of("request", ScriptedLlm.userText(request))));
    return LlmAgent.builder()
        .name(process)
        .model(llm)
        .instruction("Apply the operation, then say done.")
        .tools(FunctionTool.create(new Apply(), "apply"))
        .build();
  }

  private static boolean lastIsFunctionResponse(LlmRequest request) {
    List<Content> contents = request.contents();
    return !contents.isEmpty()
        && contents.get(contents.size() - 1).parts().orElse(List.of()).stream()
            .anyMatch(p -> p.functionResponse().isPresent());
  }

  String nextOpId() {
    return process + "-" + (++sequence);
  }

  /** One random operation: a turn, or (sometimes, in an r session) a rewind. */
  void step() throws Exception {
    SessionRef session = Workload.SESSIONS.get(random.nextInt(Workload.SESSIONS.size()));
    Deque<String> mine = recent.computeIfAbsent(session.key(), k -> new ArrayDeque<>());
    if (session.rewinds() && !mine.isEmpty() && random.nextInt(100) < 15) {
      List<String> targets = new ArrayList<>(mine);
      rewind(session, targets.get(random.nextInt(targets.size())));
      return;
    }
    String opId = nextOpId();
    String invocation = turn(opId, session, Workload.turn(random, session, opId));
    if (invocation != null && session.rewinds()) {
      mine.addLast(invocation);
      if (mine.size() > 4) {
        mine.removeFirst();
      }
    }
  }

  /** Runs a turn, recording it; returns its invocation id if it was acknowledged. */
  @Nullable String turn(String opId, SessionRef session, List<Step> steps) throws Exception {
    log.write(
        Entry.invokeTurn(
            process, opId, System.nanoTime(), session.user(), session.session(), steps));
    List<Event> events = new ArrayList<>();
    Throwable[] error = new Throwable[1];
    Content message = Content.fromParts(Part.fromText(message(opId, steps)));
    message = message.toBuilder().role("user").build();
    runner
        .runAsync(session.user(), session.session(), message, runConfig)
        .blockingSubscribe(events::add, e -> error[0] = e);
    long done = System.nanoTime();
    if (error[0] == null) { // a failed invocation ends with its error event
      error[0] =
          InvocationFailedException.of(events).map(InvocationFailedException::failure).orElse(null);
    }
    // Acknowledged once the tool's own response (not an error closing the call) was stored.
    Event tool = null;
    Map<String, Object> response = Map.of();
    for (Event e : events) {
      if (!e.functionResponses().isEmpty() && e.errorCode().isEmpty()) {
        FunctionResponse fr = e.functionResponses().get(0);
        Map<String, Object> r = fr.response().orElse(Map.of());
        if (!r.containsKey("error")) {
          tool = e;
          response = r;
          break;
        }
      }
    }
    if (tool != null) {
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> results =
          new ArrayList<>((List<Map<String, Object>>) response.get("results"));
      // An increment's result as stored (the store adds to whatever it holds at the append).
      for (int i = 0; i < steps.size(); i++) {
        if (steps.get(i).f().equals(Step.INCR)) {
          Map<String, Object> r = new LinkedHashMap<>(results.get(i));
          r.put("value", tool.actions().stateDelta().get(steps.get(i).k()));
          results.set(i, r);
        }
      }
      String invocation = String.valueOf(tool.invocationId());
      log.write(
          Entry.ok(
              process,
              opId,
              done,
              invocation,
              results,
              error[0] == null ? null : "after its writes: " + describe(error[0])));
      return invocation;
    }
    Throwable t = error[0];
    if (definite(t)) {
      log.write(Entry.failed(Entry.FAIL, process, opId, done, describe(t)));
    } else {
      log.write(
          Entry.failed(
              Entry.INFO,
              process,
              opId,
              done,
              t == null ? "no tool response among " + events.size() + " events" : describe(t)));
    }
    return null;
  }

  void rewind(SessionRef session, String target) {
    String opId = nextOpId();
    log.write(
        Entry.invokeRewind(
            process, opId, System.nanoTime(), session.user(), session.session(), target));
    try {
      Event e = runner.rewind(session.user(), session.session(), target).blockingGet();
      log.write(
          Entry.ok(process, opId, System.nanoTime(), String.valueOf(e.invocationId()), List.of()));
    } catch (RuntimeException e) {
      boolean certain = definite(e) || e instanceof IllegalArgumentException;
      log.write(
          Entry.failed(
              certain ? Entry.FAIL : Entry.INFO, process, opId, System.nanoTime(), describe(e)));
    }
  }

  /**
   * A few turns and a rewind in an app of its own, not recorded: class loading and compilation
   * happen before the worker says READY, not in the measured run.
   */
  static void warmUp(BaseSessionService sessions, String process) {
    Runner warm = new Runner(agent(process), "history-warmup", null, sessions);
    String session = "warm-" + process + "-" + System.nanoTime();
    sessions.createSession("history-warmup", process, null, session).blockingGet();
    String last = null;
    for (int i = 0; i < 3; i++) {
      String op = "warm-" + i;
      List<Step> steps =
          List.of(
              new Step(Step.RMW, "user:a", op),
              new Step(Step.INCR, "app:c", null),
              new Step(i == 1 ? Step.DEL : Step.WRITE, "k", op));
      try {
        Content message =
            Content.fromParts(Part.fromText(message(op, steps))).toBuilder().role("user").build();
        List<Event> events = warm.runAsync(process, session, message).toList().blockingGet();
        last = events.get(0).invocationId();
      } catch (Exception e) {
        System.err.println("warm-up turn failed: " + e);
      }
    }
    if (last != null) {
      try {
        warm.rewind(process, session, last).blockingGet();
      } catch (RuntimeException e) {
        System.err.println("warm-up rewind failed: " + e);
      }
    }
  }

  /**
   * Whether a failure certainly stored nothing of the step it ended: a conflict, a busy or stale
   * session (refused inside the append's transaction), or a {@link SessionException} that does not
   * say the outcome is unknown (the store rolls back whatever fails, and says so when a commit was
   * in flight).
   */
  static boolean definite(@Nullable Throwable t) {
    if (t instanceof StateConflictException
        || t instanceof SessionBusyException
        || t instanceof StaleSessionException) {
      return true;
    }
    return t instanceof SessionException
        && t.getMessage() != null
        && !t.getMessage().contains("unknown");
  }

  private static String describe(Throwable t) {
    String m = t.getClass().getSimpleName() + ": " + t.getMessage();
    return m.length() > 300 ? m.substring(0, 300) + "..." : m;
  }

  static DatabaseSessionConfig config(Duration lease) {
    return DatabaseSessionConfig.builder()
        .leaseDuration(lease)
        .maximumPoolSize(4)
        .connectionTimeout(Duration.ofSeconds(2))
        .socketTimeout(Duration.ofSeconds(3))
        .statementTimeout(Duration.ofSeconds(2))
        .build();
  }

  public static void main(String[] args) throws Exception {
    PrintStream protocol = System.out;
    System.setOut(System.err);
    if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
        instanceof ch.qos.logback.classic.Logger root) {
      root.setLevel(ch.qos.logback.classic.Level.ERROR);
    }
    String process = args[0];
    long seed = Long.parseLong(args[1]);
    Path historyFile = Path.of(args[2]);
    boolean sqlite = args[3].equals("sqlite");
    String where = args[4];
    Duration lease = Duration.ofMillis(Long.parseLong(args[5]));
    Path diskFull = Path.of(args[6]);
    DatabaseSessionConfig config = config(lease);
    DiskLimitedSqlite dataSource = null;
    DatabaseSessionService service = null;
    // The database may be down (a restart under way): keep trying to open the service.
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (service == null) {
      try {
        if (sqlite) {
          dataSource = new DiskLimitedSqlite(Path.of(where), diskFull, config.busyTimeout());
          service = new DatabaseSessionService(dataSource, config);
        } else {
          service = new DatabaseSessionService(where, config);
        }
      } catch (RuntimeException e) {
        if (dataSource != null) {
          dataSource.close();
          dataSource = null;
        }
        if (System.nanoTime() > deadline) {
          throw e;
        }
        System.err.println("cannot open the session service yet: " + e);
        Thread.sleep(200);
      }
    }
    try (HistoryLog log = new HistoryLog(historyFile)) {
      warmUp(service, process);
      Worker worker = new Worker(process, seed, log, service);
      protocol.println("READY " + System.nanoTime());
      protocol.flush();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      Thread stopper =
          new Thread(
              () -> {
                try {
                  String line;
                  while ((line = in.readLine()) != null && !line.equals("STOP")) {
                    if (line.equals("PING")) {
                      // The run measures this process's clock offset (it may run under faketime).
                      synchronized (protocol) {
                        protocol.println("PONG " + System.nanoTime());
                        protocol.flush();
                      }
                    }
                  }
                } catch (java.io.IOException e) {
                  // stdin closed: stop
                }
                STOP.set(true);
              },
              "stop-reader");
      stopper.setDaemon(true);
      stopper.start();
      while (!STOP.get()) {
        worker.step();
      }
      synchronized (protocol) {
        protocol.println("DONE " + worker.sequence);
        protocol.flush();
      }
    } finally {
      service.close();
      if (dataSource != null) {
        dataSource.close();
      }
    }
    System.exit(0);
  }

  private static final java.util.concurrent.atomic.AtomicBoolean STOP =
      new java.util.concurrent.atomic.AtomicBoolean();
}
