package dev.adk4j.runner;

import com.google.genai.types.Content;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.events.Event;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.StateConflictException;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;

/**
 * The counting agent of {@link CrossProcessConcurrencyTest}, and the main of its child JVM.
 *
 * <p>The agent: an {@link LlmAgent} whose scripted model answers each turn first with a call of the
 * tool {@code count}, then, once it sees the function response, with the text {@code done}. The
 * tool adds one to {@code user:count}: by a plain read-modify-write ({@link Mode#RMW}), by {@code
 * State.increment} ({@link Mode#ATOMIC}), or by an increment after which it reports {@code IN_TOOL}
 * and blocks for ten minutes ({@link Mode#BLOCK}, for the process-kill test).
 *
 * <p>As a child JVM: arguments JDBC URL, mode, session id, number of turns, lease duration in ms.
 * It builds the service and runner, prints {@code READY}, waits for a {@code GO} line on stdin,
 * runs the turns on the session of user {@link #USER} one after the other, then prints an {@code
 * OTHER <description>} line for each of the first failures that were not state conflicts and
 * finally {@code RESULT ok=<n> conflicts=<n> others=<n> ms=<elapsed>}. Only these lines go to
 * stdout; logging goes to stderr.
 */
public final class TurnWorker {
  static final String APP = "xproc_app";
  static final String USER = "alice";
  static final String KEY = "user:count";

  /** How the tool adds one to the counter. */
  enum Mode {
    RMW,
    ATOMIC,
    BLOCK
  }

  /** Where the child writes its protocol lines (its real stdout). */
  private static volatile PrintStream protocol = System.out;

  private TurnWorker() {}

  /** The tool's owner; {@code count} is the tool. */
  static final class Counter {
    private final Mode mode;

    Counter(Mode mode) {
      this.mode = mode;
    }

    public Map<String, Object> count(ToolContext ctx) {
      switch (mode) {
        case RMW:
          {
            Object v = ctx.state().get(KEY);
            int next = (v == null ? 0 : ((Number) v).intValue()) + 1;
            ctx.state().put(KEY, next);
            return Map.of("count", next);
          }
        case ATOMIC:
          return Map.of("count", ctx.state().increment(KEY, 1));
        case BLOCK:
          {
            ctx.state().increment(KEY, 1);
            say("IN_TOOL");
            try {
              TimeUnit.MINUTES.sleep(10);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return Map.of("count", -1);
          }
        default:
          throw new AssertionError(mode);
      }
    }
  }

  /**
   * The counting agent.
   *
   * @param firstModelCall if not null, set to {@link System#nanoTime()} at the model's first call
   */
  static LlmAgent agent(Mode mode, @Nullable AtomicLong firstModelCall) {
    ScriptedLlm llm =
        ScriptedLlm.answering(
            request -> {
              if (firstModelCall != null) {
                firstModelCall.compareAndSet(0, System.nanoTime());
              }
              return lastContentIsFunctionResponse(request)
                  ? ScriptedLlm.textResponse("done")
                  : ScriptedLlm.functionCallResponse("count", Map.of());
            });
    return LlmAgent.builder()
        .name("counter")
        .model(llm)
        .instruction("Count with the count tool, then say done.")
        .tools(FunctionTool.create(new Counter(mode), "count"))
        .build();
  }

  private static boolean lastContentIsFunctionResponse(LlmRequest request) {
    List<Content> contents = request.contents();
    if (contents.isEmpty()) {
      return false;
    }
    return contents.get(contents.size() - 1).parts().orElse(List.of()).stream()
        .anyMatch(p -> p.functionResponse().isPresent());
  }

  static DatabaseSessionService service(String url, Duration leaseDuration) {
    return new DatabaseSessionService(
        url, DatabaseSessionConfig.builder().leaseDuration(leaseDuration).build());
  }

  /** One turn: the events the run emitted and the error it ended with, if any. */
  record Turn(List<Event> events, @Nullable Throwable error) {
    /** Completed without error, its last event the text {@code done}. */
    boolean ok() {
      if (error != null || events.isEmpty()) {
        return false;
      }
      Event last = events.get(events.size() - 1);
      return last.errorCode().isEmpty() && "done".equals(last.stringifyContent());
    }

    /** Failed with a state conflict, its last event carrying errorCode STATE_CONFLICT. */
    boolean conflict() {
      return error instanceof StateConflictException
          && !events.isEmpty()
          && events.get(events.size() - 1).errorCode().orElse("").equals("STATE_CONFLICT");
    }

    @Nullable String invocationId() {
      return events.isEmpty() ? null : events.get(0).invocationId();
    }

    String describe() {
      return "error="
          + error
          + ", events="
          + events.stream()
              .map(
                  e ->
                      e.author()
                          + ":"
                          + e.stringifyContent()
                          + e.functionCalls()
                          + e.functionResponses()
                          + e.errorCode().orElse(""))
              .toList();
    }
  }

  /** Runs one turn to its end. */
  static Turn turn(Runner runner, String sessionId) {
    List<Event> events = new ArrayList<>();
    Throwable[] error = new Throwable[1];
    runner
        .runAsync(USER, sessionId, Contents.user("count"), RunConfig.builder().build())
        .blockingSubscribe(events::add, e -> error[0] = e);
    if (error[0] == null) {
      // A failed invocation ends with its error event; the exception behind it is its cause.
      error[0] =
          InvocationFailedException.of(events).map(InvocationFailedException::failure).orElse(null);
    }
    return new Turn(events, error[0]);
  }

  /** The outcomes of many turns; thread-safe. */
  static final class Tally {
    final AtomicInteger ok = new AtomicInteger();
    final AtomicInteger conflicts = new AtomicInteger();
    final Queue<String> others = new ConcurrentLinkedQueue<>();
    final Set<String> okInvocations = ConcurrentHashMap.newKeySet();
    final Set<String> conflictInvocations = ConcurrentHashMap.newKeySet();

    void add(Turn t) {
      if (t.ok()) {
        ok.incrementAndGet();
        okInvocations.add(String.valueOf(t.invocationId()));
      } else if (t.conflict()) {
        conflicts.incrementAndGet();
        conflictInvocations.add(String.valueOf(t.invocationId()));
      } else {
        others.add(t.describe());
      }
    }

    int total() {
      return ok.get() + conflicts.get() + others.size();
    }
  }

  private static void say(String line) {
    protocol.println(line);
    protocol.flush();
  }

  public static void main(String[] args) throws Exception {
    // Protocol lines only on stdout: everything else (logging included) goes to stderr.
    protocol = System.out;
    System.setOut(System.err);
    if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
        instanceof ch.qos.logback.classic.Logger root) {
      root.setLevel(ch.qos.logback.classic.Level.WARN);
    }
    String url = args[0];
    Mode mode = Mode.valueOf(args[1]);
    String sessionId = args[2];
    int turns = Integer.parseInt(args[3]);
    Duration lease = Duration.ofMillis(Long.parseLong(args[4]));
    int status = 0;
    try (DatabaseSessionService service = service(url, lease)) {
      Runner runner = new Runner(agent(mode, null), APP, null, service);
      say("READY");
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String go = in.readLine();
      if (!"GO".equals(go)) {
        System.err.println("expected GO, got " + go);
        status = 2;
      } else {
        Tally tally = new Tally();
        long start = System.nanoTime();
        for (int i = 0; i < turns; i++) {
          tally.add(turn(runner, sessionId));
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        tally.others.stream().limit(5).forEach(o -> say("OTHER " + o.replace('\n', ' ')));
        say(
            "RESULT ok="
                + tally.ok.get()
                + " conflicts="
                + tally.conflicts.get()
                + " others="
                + tally.others.size()
                + " ms="
                + ms);
      }
    } catch (Throwable t) {
      t.printStackTrace();
      say("OTHER child failed: " + t);
      status = 1;
    }
    System.exit(status);
  }
}
