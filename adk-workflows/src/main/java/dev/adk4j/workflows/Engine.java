package dev.adk4j.workflows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.ReadonlyContext;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.events.NodeInfo;
import dev.adk4j.internal.Json;
import dev.adk4j.internal.tools.PendingCalls;
import dev.adk4j.state.ReadonlyState;
import dev.adk4j.state.State;
import io.reactivex.rxjava3.core.FlowableEmitter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One invocation of a workflow: finds the run to continue (from the session's stored events), then
 * runs the graph, node by node, fanning out on the executor.
 *
 * <p>Concurrency: one coordinator thread per graph (the invocation's thread for the top level, a
 * worker's for a loop body or nested workflow) decides which nodes are ready and hands them to
 * workers; each worker runs its node's attempts and, under the graph run's lock, checks its writes
 * against the concurrent branches', chooses the edges, and appends the node's completion event. So
 * completions are appended one at a time, each with the node's writes, and whatever a node reads of
 * other branches' writes, the edges it takes are stored with it.
 */
final class Engine {
  private static final Logger log = LoggerFactory.getLogger(Engine.class);

  /** Used when the run config names no tool executor: daemon threads, made on demand. */
  private static final Executor NODES = newPool();

  private static final ObjectMapper MAPPER = Json.newMapper();

  static final String DONE = "done";
  static final String WAITING = "waiting";
  static final String RUNNING = "running";
  static final String FAILED = "failed";
  static final String UNDONE = "undone";

  /** The errorCode of the event that ends a run whose node failed. */
  static final String NODE_FAILED = "WORKFLOW_NODE_FAILED";

  private final Workflow workflow;
  private final InvocationContext ctx;
  private final FlowableEmitter<Event> emitter;
  private final String rootPath;
  private final String runKey;
  private final Executor executor;

  private @Nullable String runId;

  /** The records of the current run by path, loaded from events and added as nodes finish. */
  private final Map<String, Map<String, Object>> records = new ConcurrentHashMap<>();

  Engine(Workflow workflow, InvocationContext ctx, FlowableEmitter<Event> emitter) {
    this.workflow = workflow;
    this.ctx = ctx;
    this.emitter = emitter;
    this.rootPath = pathOf(workflow);
    this.runKey = Workflow.RECORD_PREFIX + rootPath;
    this.executor = ctx.runConfig().toolExecutor().orElse(NODES);
  }

  // ---------------------------------------------------------------- the run

  void run() {
    Object input = load();
    if (runId == null) {
      input = userText(ctx.userContent().orElse(null));
      runId = ctx.invocationId() + "/" + Event.generateEventId().substring(0, 8);
      Map<String, Object> run = runRecord(RUNNING);
      run.put("input", input);
      appendRecord(
          rootPath + "." + Workflow.START,
          startRecord(workflow.graph(), input),
          Map.<String, Object>of(runKey, run),
          null);
      log.debug("Workflow '{}' starts run {}", workflow.name(), runId);
    } else {
      log.debug("Workflow '{}' continues run {}", workflow.name(), runId);
    }
    GraphRun.Outcome outcome;
    try {
      outcome = new GraphRun(workflow.graph(), rootPath).run(input);
    } catch (NodeFailure f) {
      Map<String, Object> failed = runRecord(FAILED);
      failed.put("node", f.path);
      Event end =
          newEvent(f.path)
              .errorCode(NODE_FAILED)
              .errorMessage(f.getMessage())
              .actions(endActions(failed))
              .build();
      emit(ctx.persist(end));
      throw sneaky(f.getCause() == null ? f : f.getCause());
    }
    if (outcome.paused) {
      log.debug("Workflow '{}' run {} waits", workflow.name(), runId);
      return;
    }
    Map<String, Object> done = runRecord(DONE);
    done.put("output", outcome.output);
    emit(ctx.persist(newEvent(rootPath).output(outcome.output).actions(endActions(done)).build()));
  }

  /** The run's end: its record, and every node record of the run removed from state. */
  private EventActions endActions(Map<String, Object> run) {
    EventActions.Builder b = EventActions.builder();
    for (String path : new java.util.TreeSet<>(records.keySet())) {
      b.putState(Workflow.RECORD_PREFIX + path, null);
    }
    b.putState(runKey, run);
    return b.build();
  }

  private Map<String, Object> runRecord(String status) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("run", runId);
    r.put("status", status);
    return r;
  }

  /**
   * Finds the last run of this workflow in the session; if it has not ended, makes it the current
   * run (its id and records) and returns its input.
   */
  @SuppressWarnings("unchecked")
  private @Nullable Object load() {
    Map<String, Object> lastRun = null;
    Map<String, Map<String, Map<String, Object>>> byRun = new HashMap<>();
    String nodePrefix = runKey + ".";
    for (Event e : ctx.session().events()) {
      if (!workflow.name().equals(e.author())) {
        continue;
      }
      for (Map.Entry<String, @Nullable Object> d : e.actions().stateDelta().entrySet()) {
        String key = d.getKey();
        if (!(d.getValue() instanceof Map<?, ?> value) || !(value.get("run") instanceof String r)) {
          continue;
        }
        if (key.equals(runKey)) {
          lastRun = (Map<String, Object>) value;
        } else if (key.startsWith(nodePrefix)) {
          byRun
              .computeIfAbsent(r, k -> new HashMap<>())
              .put(key.substring(Workflow.RECORD_PREFIX.length()), (Map<String, Object>) value);
        }
      }
    }
    if (lastRun == null || !RUNNING.equals(lastRun.get("status"))) {
      return null;
    }
    runId = (String) lastRun.get("run");
    records.putAll(byRun.getOrDefault(runId, Map.of()));
    return lastRun.get("input");
  }

  // ---------------------------------------------------------------- one graph

  /** One run of one graph (the workflow's, a loop iteration's or a nested workflow's). */
  private final class GraphRun {
    final Graph graph;
    final String prefix;
    final Map<String, String> status = new HashMap<>();
    final Map<String, @Nullable Object> outputs = new HashMap<>();
    final Map<String, List<String>> next = new HashMap<>();

    /** Stored keys written by the finished nodes of this graph run, with the first writer. */
    final Map<String, String> writers = new HashMap<>();

    final Set<String> allWrites = new LinkedHashSet<>();
    final BlockingQueue<Completion> completions = new LinkedBlockingQueue<>();

    GraphRun(Graph graph, String prefix) {
      this.graph = graph;
      this.prefix = prefix;
    }

    record Outcome(boolean paused, @Nullable Object output, Set<String> writes) {}

    Outcome run(@Nullable Object input) {
      Map<String, Object> start = records.get(path(Workflow.START));
      if (start == null) {
        start = startRecord(graph, input);
        appendRecord(path(Workflow.START), start, Map.of(), null);
      }
      take(Workflow.START, start);
      for (String n : graph.nodes().keySet()) {
        Map<String, Object> r = records.get(path(n));
        if (r != null && DONE.equals(r.get("status"))) {
          take(n, r);
        } else if (r != null && WAITING.equals(r.get("status")) && !answered(n)) {
          status.put(n, WAITING);
        }
      }
      int running = 0;
      NodeFailure failure = null;
      Throwable crash = null;
      while (true) {
        boolean progress = true;
        while (progress && failure == null && crash == null && !ctx.endInvocation()) {
          progress = false;
          for (String n : graph.nodes().keySet()) {
            if (status.containsKey(n) || !predecessorsResolved(n)) {
              continue;
            }
            List<String> from = new ArrayList<>();
            for (Edge e : graph.incoming(n)) {
              if (next.getOrDefault(e.from(), List.of()).contains(n)) {
                from.add(e.from());
              }
            }
            progress = true;
            if (from.isEmpty()) {
              status.put(n, "skipped");
              continue;
            }
            Object in;
            try {
              in = inputOf(n, from);
            } catch (NodeFailure f) {
              failure = f;
              break;
            }
            status.put(n, RUNNING);
            running++;
            submit(n, in);
          }
        }
        if (running == 0) {
          break;
        }
        Completion c = takeCompletion();
        running--;
        if (c.crash != null) {
          crash = crash == null ? c.crash : crash;
        } else if (c.failure != null) {
          failure = failure == null ? c.failure : failure;
        } else if (c.waiting) {
          status.put(c.node, WAITING);
        } else {
          take(c.node, java.util.Objects.requireNonNull(records.get(path(c.node))));
        }
      }
      if (crash != null) {
        throw sneaky(crash);
      }
      if (failure != null) {
        throw failure;
      }
      boolean paused = status.containsValue(WAITING) || ctx.endInvocation();
      return new Outcome(paused, paused ? null : output(), allWrites);
    }

    /** The output of the graph: its one finished last node's, else theirs by name. */
    private @Nullable Object output() {
      Map<String, @Nullable Object> sinks = new LinkedHashMap<>();
      for (String n : graph.nodes().keySet()) {
        if (graph.outgoing(n).isEmpty() && DONE.equals(status.get(n))) {
          sinks.put(n, outputs.get(n));
        }
      }
      return sinks.size() == 1 ? sinks.values().iterator().next() : sinks;
    }

    /** Records a finished node (coordinator thread; the lock guards what workers read). */
    @SuppressWarnings("unchecked")
    private synchronized void take(String n, Map<String, Object> r) {
      status.put(n, DONE);
      outputs.put(n, r.get("output"));
      Object nx = r.get("next");
      next.put(n, nx instanceof List<?> l ? (List<String>) l : List.of());
      if (r.get("writes") instanceof List<?> w) {
        for (Object k : w) {
          writers.putIfAbsent((String) k, n);
          allWrites.add((String) k);
        }
      }
    }

    private boolean predecessorsResolved(String n) {
      for (Edge e : graph.incoming(n)) {
        if (e.from().equals(Workflow.START)) {
          continue;
        }
        String s = status.get(e.from());
        if (!DONE.equals(s) && !"skipped".equals(s)) {
          return false;
        }
      }
      return true;
    }

    /** Whether the message of this invocation answers calls of waiting node {@code n}. */
    private boolean answered(String n) {
      Node node = graph.node(n);
      BaseAgent agent = node.agentOrNull();
      if (agent == null || node.kind() == Node.Kind.LOOP || agent instanceof Workflow) {
        return true;
      }
      String by = PendingCalls.resumedAgent(ctx.session().events(), ctx.userContent().orElse(null));
      return by != null && agent.findAgent(by).isPresent();
    }

    private void submit(String n, @Nullable Object input) {
      Runnable task =
          () -> {
            Completion c;
            try {
              c = runNode(n, input);
            } catch (NodeFailure f) {
              c = Completion.failed(n, f);
            } catch (Throwable t) {
              c = Completion.crashed(n, t);
            }
            completions.add(c);
          };
      try {
        executor.execute(task);
      } catch (RejectedExecutionException e) {
        task.run(); // a refusing executor only serializes the nodes
      }
    }

    private Completion takeCompletion() {
      try {
        return completions.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(
            "Workflow '" + workflow.name() + "' was interrupted while its nodes ran", e);
      }
    }

    private String path(String node) {
      return prefix + "." + node;
    }

    /** The input of node {@code n}, given the nodes whose edges into it were taken. */
    private @Nullable Object inputOf(String n, List<String> from) {
      Node node = graph.node(n);
      if (node.kind() == Node.Kind.JOIN) {
        Map<String, @Nullable Object> in = new LinkedHashMap<>();
        for (String f : from) {
          in.put(f, outputs.get(f));
        }
        return in;
      }
      if (from.size() > 1) {
        throw new NodeFailure(
            path(n),
            new IllegalStateException(
                "Node '"
                    + n
                    + "' of workflow '"
                    + graph.workflow()
                    + "' was reached from several nodes at once "
                    + from
                    + "; put a join node before it"));
      }
      return outputs.get(from.get(0));
    }

    // ------------------------------------------------------------ running a node

    private Completion runNode(String n, @Nullable Object input) {
      Node node = graph.node(n);
      String path = path(n);
      RetryConfig retry = node.retry();
      for (int attempt = 1; ; attempt++) {
        try {
          java.time.Duration timeout = node.timeout().orElse(null);
          return timeout == null
              ? attempt(node, path, input, attempt)
              : attemptWithin(node, path, input, attempt, timeout);
        } catch (NodeStateConflictException e) {
          throw new NodeFailure(path, e);
        } catch (NodeFailure e) {
          throw e;
        } catch (Exception e) {
          if (attempt >= retry.maxAttempts() || !retry.retryOn().test(e)) {
            throw new NodeFailure(
                path,
                attempt,
                e,
                "Node '"
                    + n
                    + "' of workflow '"
                    + graph.workflow()
                    + "' failed"
                    + (attempt > 1 ? " after " + attempt + " attempts" : "")
                    + ": "
                    + e.getClass().getName()
                    + ": "
                    + e.getMessage());
          }
          log.warn(
              "Node '{}' of workflow '{}' failed (attempt {} of {}), retrying: {}",
              n,
              graph.workflow(),
              attempt,
              retry.maxAttempts(),
              e.getClass().getName());
          await(retry.delayBefore(attempt + 1));
        }
      }
    }

    /**
     * Runs one attempt on a thread of its own and waits for it at most {@code timeout} (measured by
     * the workflow's scheduler). Over it, the attempt is cancelled (its thread interrupted, an
     * agent's run disposed; its completion can no longer be appended) and a {@link
     * TimeoutException} naming the node is thrown, which the retry policy sees as any error. An
     * agent node's attempt is waited for until it has stopped, so the next attempt undoes all it
     * stored.
     */
    private Completion attemptWithin(
        Node node, String path, @Nullable Object input, int n, java.time.Duration timeout)
        throws Exception {
      Attempt token = new Attempt();
      java.util.concurrent.CompletableFuture<Completion> result =
          new java.util.concurrent.CompletableFuture<>();
      java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(1);
      Runnable task =
          () -> {
            CURRENT.set(token);
            try {
              if (token.started(Thread.currentThread())) { // else timed out before it started
                result.complete(attempt(node, path, input, n));
              }
            } catch (Throwable t) {
              if (token.claim()) {
                result.completeExceptionally(t);
              }
            } finally {
              CURRENT.remove();
              token.finished();
              ended.countDown();
            }
          };
      try {
        executor.execute(task);
      } catch (RejectedExecutionException e) {
        Thread t = new Thread(task, "adk4j-workflow-attempt");
        t.setDaemon(true);
        t.start();
      }
      java.util.concurrent.ScheduledFuture<?> timer =
          workflow
              .scheduler()
              .schedule(
                  () -> {
                    if (token.claim()) {
                      result.completeExceptionally(
                          new TimeoutException(
                              "Node '"
                                  + node.name()
                                  + "' of workflow '"
                                  + graph.workflow()
                                  + "' timed out after "
                                  + timeout
                                  + " (attempt "
                                  + n
                                  + ")"));
                      token.cancel();
                    }
                  },
                  timeout.toNanos(),
                  TimeUnit.NANOSECONDS);
      try {
        return result.get();
      } catch (java.util.concurrent.ExecutionException e) {
        if (e.getCause() instanceof TimeoutException && node.agentOrNull() != null) {
          ended.await();
        }
        throw sneaky(e.getCause() == null ? e : e.getCause());
      } finally {
        timer.cancel(false);
      }
    }

    private Completion attempt(Node node, String path, @Nullable Object input, int attempt)
        throws Exception {
      switch (node.kind()) {
        case JOIN:
          return complete(node, path, input, null, null, Set.of());
        case FUNCTION:
        case CLASSIFIER:
          if (node.function() != null) {
            return runFunction(node, path, input, attempt);
          }
          return runAgent(node, path, input);
        case LOOP:
          return runLoop(node, path, input);
        case AGENT:
        default:
          if (node.agentOrNull() instanceof Workflow nested) {
            Outcome o = new GraphRun(nested.graph(), path).run(input);
            return o.paused
                ? waiting(node, path)
                : complete(node, path, o.output, null, null, o.writes);
          }
          return runAgent(node, path, input);
      }
    }

    @SuppressWarnings("NullAway") // a node's input may be null (a node before it returned none)
    private Completion runFunction(Node node, String path, @Nullable Object input, int attempt)
        throws Exception {
      NodeContext nc = new NodeContext(ctx.withBranch(path), node.name(), path, attempt);
      try {
        Object in = convert(input, node.inputType());
        NodeFunction<Object, ?> fn = java.util.Objects.requireNonNull(node.function());
        Object out = fn.apply(nc, in);
        String route = node.kind() == Node.Kind.CLASSIFIER ? (String) out : nc.chosenRoute();
        Set<String> writes = new LinkedHashSet<>();
        for (String k : nc.state().delta().keySet()) {
          if (!k.startsWith(State.TEMP_PREFIX) && !nc.state().increments().containsKey(k)) {
            writes.add(k);
          }
        }
        return complete(node, path, out, route, nc, writes);
      } catch (Exception | Error e) {
        nc.state().discard();
        throw e;
      }
    }

    private Completion runAgent(Node node, String path, @Nullable Object input) {
      BaseAgent agent = java.util.Objects.requireNonNull(node.agentOrNull());
      String branch = undoUnfinishedAttempt(path);
      Set<String> writes = new LinkedHashSet<>();
      boolean[] waiting = {false};
      String[] text = {null};
      Throwable[] failure = {null};
      java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
      io.reactivex.rxjava3.disposables.Disposable run =
          agent
              .runAsync(ctx.withBranch(branch))
              .subscribe(
                  e -> {
                    emit(e);
                    EventActions a = e.actions();
                    // The stored event no longer tells an increment from a write: an integer may be
                    // a counter that concurrent branches add to, so only other values are compared.
                    for (Map.Entry<String, @Nullable Object> d : a.stateDelta().entrySet()) {
                      if (!a.stateIncrements().containsKey(d.getKey()) && !integral(d.getValue())) {
                        writes.add(d.getKey());
                      }
                    }
                    if (e.hasPendingLongRunningToolCall()) {
                      waiting[0] = true;
                    }
                    if (e.finalResponse()
                        && e.content().isPresent()
                        && !e.partial().orElse(false)) {
                      String t = e.stringifyContent();
                      if (!t.isEmpty()) {
                        text[0] = t;
                      }
                    }
                  },
                  t -> {
                    failure[0] = t;
                    done.countDown();
                  },
                  done::countDown);
      Attempt token = CURRENT.get();
      if (token != null) {
        token.onCancel(
            () -> {
              run.dispose();
              done.countDown();
            });
      }
      try {
        done.await();
      } catch (InterruptedException e) {
        run.dispose();
        Thread.currentThread().interrupt();
        throw new CancellationException("Node '" + node.name() + "' was interrupted");
      }
      if (token != null && token.cancelled()) {
        throw new CancellationException("Node '" + node.name() + "' was cancelled");
      }
      if (failure[0] instanceof Exception ex) {
        throw sneaky(ex);
      } else if (failure[0] != null) {
        throw sneaky(failure[0]);
      }
      if (waiting[0]) {
        return waiting(node, path);
      }
      String route = node.kind() == Node.Kind.CLASSIFIER && text[0] != null ? text[0].trim() : null;
      return complete(
          node, path, node.kind() == Node.Kind.CLASSIFIER ? route : text[0], route, null, writes);
    }

    @SuppressWarnings("unchecked")
    private Completion runLoop(Node node, String path, @Nullable Object input) {
      Workflow body = (Workflow) java.util.Objects.requireNonNull(node.agentOrNull());
      java.util.function.Predicate<ReadonlyState> until =
          java.util.Objects.requireNonNull(node.until());
      Object current = input;
      Set<String> writes = new LinkedHashSet<>();
      for (int i = 1; i <= node.maxIterations(); i++) {
        String iteration = path + "#" + i;
        Map<String, Object> r = records.get(iteration);
        boolean stop;
        if (r != null && DONE.equals(r.get("status"))) {
          current = r.get("output");
          stop = Boolean.TRUE.equals(r.get("stop"));
          if (r.get("writes") instanceof List<?> w) {
            writes.addAll((List<String>) w);
          }
        } else {
          Outcome o = new GraphRun(body.graph(), iteration).run(current);
          if (o.paused) {
            return waiting(node, path);
          }
          current = o.output;
          writes.addAll(o.writes);
          stop = until.test(readState());
          Map<String, Object> rec = record(DONE);
          rec.put("output", Json.normalize(Workflow.RECORD_PREFIX + iteration, current));
          rec.put("stop", stop);
          rec.put("writes", List.copyOf(writes));
          synchronized (this) {
            appendRecord(iteration, rec, Map.of(), null);
          }
        }
        if (stop) {
          break;
        }
      }
      return complete(node, path, current, null, null, writes);
    }

    private Completion waiting(Node node, String path) {
      synchronized (this) {
        Attempt token = CURRENT.get();
        if (token != null && !token.claim()) {
          throw new CancellationException("Node '" + node.name() + "' timed out");
        }
        appendRecord(path, record(WAITING), Map.of(), null);
      }
      return Completion.waiting(node.name());
    }

    /**
     * Under the graph run's lock: checks the node's writes against concurrent branches, chooses its
     * edges and appends its completion (with its writes, when {@code nc} made them).
     */
    private Completion complete(
        Node node,
        String path,
        @Nullable Object output,
        @Nullable String route,
        @Nullable NodeContext nc,
        Set<String> writes) {
      String recordKey = Workflow.RECORD_PREFIX + path;
      Object stored = Json.normalize(recordKey, output);
      synchronized (this) {
        Attempt token = CURRENT.get();
        if (token != null && !token.claim()) {
          throw new CancellationException("Node '" + node.name() + "' timed out");
        }
        for (String k : writes) {
          String first = writers.get(k);
          if (first != null && !first.equals(node.name()) && !graph.ordered(first, node.name())) {
            throw new NodeStateConflictException(
                ctx.appName(), ctx.userId(), ctx.session().id(), k, path(first), path);
          }
        }
        List<String> chosen = new ArrayList<>();
        ReadonlyState state = readState();
        for (Edge e : graph.outgoing(node.name())) {
          if (e.taken(route, state)) {
            chosen.add(e.to());
          }
        }
        Map<String, Object> rec = record(DONE);
        rec.put("output", stored);
        if (route != null) {
          rec.put("route", route);
        }
        rec.put("next", chosen);
        rec.put("writes", List.copyOf(writes));
        appendRecord(path, rec, Map.of(), nc == null ? null : nc.actions());
        for (String k : writes) {
          writers.putIfAbsent(k, node.name());
        }
        allWrites.addAll(writes);
      }
      return Completion.done(node.name());
    }
  }

  // ---------------------------------------------------------------- undoing an agent node's
  // attempt

  /**
   * Before an agent node runs: if an earlier attempt of it in this run stored events with state
   * writes and did not finish (its process died, or it failed and is retried), appends one event
   * that undoes those writes, so the node's writes take effect once, from the attempt that
   * finishes. The attempt's events stay in the history, each write in its own event's delta.
   *
   * <p>What the attempt wrote is read from the stored events: those on the node's branch (or below
   * it), not the workflow's own, after the run's start, the node's last {@code waiting} or {@code
   * undone} record. A key whose values were integers (a counter, or a number written) is undone by
   * incrementing it by minus what the attempt added (each of its events' value minus the value
   * before it in the history), so increments of concurrent branches are kept; any other key gets
   * back the value the history had before the attempt's first write (removed if none). A counter
   * the attempt created and nobody else wrote is removed.
   *
   * <p>Returns the branch the node's agent runs on: the node's path for its first attempt, {@code
   * path@n} for the attempt after the {@code (n-1)}th undo, so that the model of the new attempt
   * does not see the undone attempt's events (a sibling branch, not a descendant, of theirs).
   */
  private String undoUnfinishedAttempt(String path) {
    List<Event> events = ctx.session().events();
    String recordKey = Workflow.RECORD_PREFIX + path;
    int since = -1;
    int undone = 0;
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      if (!workflow.name().equals(e.author())) {
        continue;
      }
      Map<String, @Nullable Object> delta = e.actions().stateDelta();
      if ((since < 0 && isOfThisRun(delta.get(runKey))) || isOfThisRun(delta.get(recordKey))) {
        since = i;
      }
      if (delta.get(recordKey) instanceof Map<?, ?> r
          && isOfThisRun(r)
          && UNDONE.equals(r.get("status"))) {
        undone++;
      }
    }
    if (since < 0) {
      return path;
    }
    Map<String, @Nullable Object> last = new HashMap<>(); // the history's value of each key
    Map<String, @Nullable Object> before = new LinkedHashMap<>(); // before the attempt wrote it
    Map<String, Long> added = new HashMap<>(); // what the attempt added to an integer key
    Set<String> notIntegral = new java.util.HashSet<>();
    Set<String> otherWriters = new java.util.HashSet<>();
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      boolean attempt = i > since && onBranch(e, path);
      for (Map.Entry<String, @Nullable Object> d : e.actions().stateDelta().entrySet()) {
        String k = d.getKey();
        Object v = d.getValue();
        Object prev = last.get(k);
        if (attempt && !k.startsWith(State.TEMP_PREFIX) && !k.startsWith(Workflow.RECORD_PREFIX)) {
          if (!before.containsKey(k)) {
            before.put(k, prev);
          }
          if (integral(v) && (prev == null || integral(prev))) {
            long p = prev == null ? 0L : ((Number) prev).longValue();
            added.merge(k, ((Number) v).longValue() - p, Long::sum);
          } else {
            notIntegral.add(k);
          }
        } else if (!attempt && before.containsKey(k)) {
          otherWriters.add(k);
        }
        last.put(k, v);
      }
    }
    if (before.isEmpty()) {
      return attemptBranch(path, undone);
    }
    EventActions.Builder undo = EventActions.builder();
    ReadonlyState now = readState();
    for (Map.Entry<String, @Nullable Object> b : before.entrySet()) {
      String k = b.getKey();
      Object prior = b.getValue();
      // An app: or user: key another session wrote after the attempt no longer holds what the
      // attempt wrote (this session's history cannot show that write): the other writer's value
      // stays; only what the attempt added to an integer is taken back. A key that still holds the
      // attempt's value is undone on that condition (expectState), never over a later write.
      boolean shared = k.startsWith(State.APP_PREFIX) || k.startsWith(State.USER_PREFIX);
      boolean overwritten = shared && !java.util.Objects.equals(now.get(k), last.get(k));
      boolean restores = notIntegral.contains(k) || (prior == null && !otherWriters.contains(k));
      if (restores && overwritten) {
        long amount = notIntegral.contains(k) ? 0L : added.getOrDefault(k, 0L);
        if (amount != 0) {
          undo.incrementState(k, -amount);
        }
        continue;
      }
      if (restores && shared) {
        undo.expectState(k, last.get(k));
      }
      if (notIntegral.contains(k)) {
        undo.putState(k, prior);
      } else if (prior == null && !otherWriters.contains(k)) {
        undo.removeState(k);
      } else {
        long amount = added.getOrDefault(k, 0L);
        if (amount != 0) {
          undo.incrementState(k, -amount);
        }
      }
    }
    Map<String, Object> rec = record(UNDONE);
    rec.put("keys", List.copyOf(before.keySet()));
    log.debug("Workflow '{}' undoes the unfinished attempt of node '{}'", workflow.name(), path);
    appendRecord(path, rec, Map.of(), undo.build());
    return attemptBranch(path, undone + 1);
  }

  private static String attemptBranch(String path, int undone) {
    return undone == 0 ? path : path + "@" + (undone + 1);
  }

  private boolean isOfThisRun(@Nullable Object record) {
    return record instanceof Map<?, ?> r && runId != null && runId.equals(r.get("run"));
  }

  /** Whether {@code e} is an event of the agent of the node at {@code path}. */
  private boolean onBranch(Event e, String path) {
    if (workflow.name().equals(e.author()) || "user".equals(e.author())) {
      return false;
    }
    String b = e.branch().orElse("");
    return b.equals(path) || b.startsWith(path + ".") || b.startsWith(path + "@");
  }

  private static boolean integral(@Nullable Object v) {
    return v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte;
  }

  // ---------------------------------------------------------------- records and events

  private Map<String, Object> record(String status) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("run", runId);
    r.put("status", status);
    return r;
  }

  /** The record of a graph's start: its input and the edges from START taken. */
  private Map<String, Object> startRecord(Graph graph, @Nullable Object input) {
    List<String> chosen = new ArrayList<>();
    ReadonlyState state = readState();
    for (Edge e : graph.outgoing(Workflow.START)) {
      if (e.taken(null, state)) {
        chosen.add(e.to());
      }
    }
    Map<String, Object> r = record(DONE);
    r.put("output", input);
    r.put("next", chosen);
    r.put("writes", List.of());
    return r;
  }

  /**
   * Appends one event on {@code path}'s branch holding {@code record} under the path's key, the
   * {@code extra} entries, and the node's own actions ({@code nodeActions}, may be null); emits it.
   */
  private void appendRecord(
      String path,
      Map<String, Object> record,
      Map<String, Object> extra,
      @Nullable EventActions nodeActions) {
    EventActions.Builder b = nodeActions == null ? EventActions.builder() : nodeActions.toBuilder();
    extra.forEach(b::putState);
    b.putState(Workflow.RECORD_PREFIX + path, record);
    if (record.get("route") instanceof String route) {
      b.route(route);
    }
    Event stored =
        ctx.persist(
            newEvent(path)
                .output(DONE.equals(record.get("status")) ? record.get("output") : null)
                .actions(b.build())
                .build());
    records.put(path, record);
    emit(stored);
  }

  /** An event of the workflow on {@code path}'s branch, with the node's info (ADK's node_info). */
  private Event.Builder newEvent(String path) {
    return Event.builder()
        .invocationId(ctx.invocationId())
        .author(workflow.name())
        .branch(path)
        .nodeInfo(new NodeInfo(path.replace('.', '/'), runId));
  }

  private void emit(Event e) {
    if (!emitter.isCancelled()) {
      emitter.onNext(e);
    }
  }

  private ReadonlyState readState() {
    return new ReadonlyContext(ctx).state();
  }

  // ---------------------------------------------------------------- helpers

  private static @Nullable Object convert(@Nullable Object value, Class<?> type) {
    if (value == null || type.isInstance(value)) {
      return value;
    }
    return MAPPER.convertValue(value, type);
  }

  private static String userText(@Nullable Content content) {
    if (content == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    for (Part p : content.parts().orElse(List.of())) {
      p.text().ifPresent(sb::append);
    }
    return sb.toString();
  }

  /** The agent path of {@code agent} from the root of its tree, dot-separated. */
  static String pathOf(BaseAgent agent) {
    List<String> names = new ArrayList<>();
    for (BaseAgent a = agent; a != null; a = a.parentAgent().orElse(null)) {
      names.add(0, a.name());
    }
    return String.join(".", names);
  }

  /** Waits {@code d} as the workflow's scheduler measures it (a retry's backoff). */
  private void await(java.time.Duration d) {
    if (d.isZero()) {
      return;
    }
    try {
      workflow.scheduler().schedule(() -> {}, d.toNanos(), TimeUnit.NANOSECONDS).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting to retry a node", e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("The workflow's scheduler failed a retry's wait", e);
    }
  }

  /** The attempt with a timeout running on this thread, if any. */
  private static final ThreadLocal<@Nullable Attempt> CURRENT = new ThreadLocal<>();

  /**
   * One attempt with a timeout: whichever comes first, its completion (or failure) or its timeout,
   * {@linkplain #claim claims} it; the other then does nothing.
   */
  private static final class Attempt {
    private final java.util.concurrent.atomic.AtomicBoolean claimed =
        new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean cancelled;
    private @Nullable Thread thread;
    private @Nullable Runnable onCancel;

    boolean claim() {
      return claimed.compareAndSet(false, true);
    }

    boolean cancelled() {
      return cancelled;
    }

    /** Whether the attempt may run on {@code t}: false if it timed out before it started. */
    synchronized boolean started(Thread t) {
      if (cancelled) {
        return false;
      }
      thread = t;
      return true;
    }

    synchronized void finished() {
      thread = null;
    }

    synchronized void onCancel(Runnable r) {
      onCancel = r;
      if (cancelled) {
        r.run();
      }
    }

    /** Stops the attempt: its agent's run disposed, its thread interrupted (if still in it). */
    synchronized void cancel() {
      cancelled = true;
      if (onCancel != null) {
        onCancel.run();
      }
      if (thread != null) {
        thread.interrupt();
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
    throw (E) t;
  }

  private static Executor newPool() {
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            0,
            Integer.MAX_VALUE,
            60,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            r -> {
              Thread t = new Thread(r, "adk4j-workflow-node-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    return pool;
  }

  /** How a node's run ended. */
  private record Completion(
      String node, boolean waiting, @Nullable NodeFailure failure, @Nullable Throwable crash) {
    static Completion done(String node) {
      return new Completion(node, false, null, null);
    }

    static Completion waiting(String node) {
      return new Completion(node, true, null, null);
    }

    static Completion failed(String node, NodeFailure f) {
      return new Completion(node, false, f, null);
    }

    static Completion crashed(String node, Throwable t) {
      return new Completion(node, false, null, t);
    }
  }

  /** A node failed for good: ends the run with an error event. */
  static final class NodeFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String path;

    NodeFailure(String path, Throwable cause) {
      super(cause.getMessage(), cause);
      this.path = path;
    }

    NodeFailure(String path, int attempts, Throwable cause, String message) {
      super(message, cause);
      this.path = path;
    }
  }
}
