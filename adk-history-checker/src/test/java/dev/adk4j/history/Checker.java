package dev.adk4j.history;

import dev.adk4j.history.Stored.Change;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Checks a run's history (what every process invoked and was told) against what the store holds at
 * the end. Each violated guarantee is an {@link Anomaly}; a correct store gives none.
 *
 * <p>An operation is {@code ok} (acknowledged: it must have taken effect, once), {@code fail} (it
 * certainly did not: none of its writes may be visible) or indeterminate (its process died, or the
 * error left the outcome unknown: it may have taken effect, but whole or not at all), as Jepsen
 * treats them. Times are the host's monotonic clock, shared by every process.
 */
final class Checker {

  /** What went wrong, and where. */
  record Anomaly(Kind kind, String detail) {
    @Override
    public String toString() {
      return kind + ": " + detail;
    }
  }

  enum Kind {
    /** An acknowledged write (or turn, or rewind) is not stored. */
    LOST_WRITE,
    /** A write of an operation that failed is stored. */
    ABORTED_WRITE_VISIBLE,
    /** Some but not all writes of one turn are stored. */
    PARTIAL_WRITE,
    /** A counter's value is not what the acknowledged increments allow. */
    COUNTER_MISMATCH,
    /** A successful read-modify-write did not read the value its write replaced. */
    RMW_NOT_LATEST,
    /** A read saw a value older than a write acknowledged before the read began. */
    STALE_READ,
    /** A read saw a value nobody wrote. */
    PHANTOM_READ,
    /** A read of a session key is not the session's state before its turn. */
    READ_MISMATCH,
    /**
     * A turn's stored events do not make a whole turn: a call never answered, an operation stored
     * twice, a turn that does not start with its user event.
     */
    MALFORMED_TURN,
    /**
     * A stored turn whose last event is neither a final answer nor an error event (its calls all
     * answered): its last appends failed, or its process died, and no later turn closed it.
     */
    UNCLOSED_TURN,
    /**
     * A turn left with a function call unanswered (its process died, or its closing appends failed)
     * and followed by a rewind: {@code Runner.rewind} does not close it first, and later turns
     * close only the last invocation, now the rewind, so the call is never answered.
     */
    UNANSWERED_BEFORE_REWIND,
    /**
     * An invocation stored as closing events only (an error event), its user message never stored:
     * the turn failed at its first append and a later append of its error event succeeded.
     */
    HEADLESS_TURN,
    /** A turn's events are split by another turn's. */
    INTERLEAVED_TURNS,
    /** A process stored events of its turn after another turn took the session over. */
    WRITE_AFTER_LEASE_LOST,
    /** The final state is not what the stored changes lead to. */
    FINAL_STATE_MISMATCH,
    /** A rewind did not restore what it promises. */
    REWIND_MISMATCH,
    /** The store's state history of a key disagrees with its stored events. */
    HISTORY_MISMATCH
  }

  /** An operation: its invocation and completion. */
  static final class Op {
    final Entry invoke;
    @Nullable Entry completion;

    Op(Entry invoke) {
      this.invoke = invoke;
    }

    String outcome() {
      return completion == null ? Entry.INFO : completion.type();
    }

    boolean ok() {
      return outcome().equals(Entry.OK);
    }

    boolean failed() {
      return outcome().equals(Entry.FAIL);
    }

    boolean indeterminate() {
      return outcome().equals(Entry.INFO);
    }

    long start() {
      return invoke.nanos();
    }

    /** When it completed; an indeterminate operation may take effect until the end of time. */
    long end() {
      return completion == null || indeterminate() ? Long.MAX_VALUE : completion.nanos();
    }

    String session() {
      return invoke.user() + "/" + invoke.session();
    }

    @Nullable String invocationId() {
      return completion == null ? null : completion.invocationId();
    }

    /** The value step {@code i} read (null: absent), from the ok record. */
    @Nullable Object read(int i) {
      Map<String, Object> r = Objects.requireNonNull(completion).results().get(i);
      return Boolean.TRUE.equals(r.get("absent")) ? null : r.get("read");
    }

    @Override
    public String toString() {
      String what =
          Entry.REWIND.equals(invoke.kind())
              ? "rewind(before " + invoke.target() + ")"
              : invoke.steps().toString();
      return invoke.op() + " " + what + " on " + session() + " -> " + outcome();
    }
  }

  /** The result: anomalies and a few counts. */
  record Report(List<Anomaly> anomalies, Map<String, Integer> counts) {
    boolean valid() {
      return anomalies.isEmpty();
    }

    List<Anomaly> of(Kind kind) {
      return anomalies.stream().filter(a -> a.kind() == kind).toList();
    }
  }

  private final List<Anomaly> anomalies = new ArrayList<>();
  private final Map<String, Integer> counts = new TreeMap<>();
  private final Map<String, Op> ops = new LinkedHashMap<>();
  private final Stored stored;

  /** Invocation id -> its events, per session. */
  private final Map<String, Map<String, List<StoredEvent>>> invocations = new HashMap<>();

  /** Op id -> (session, invocation id) of the stored turn carrying it. */
  private final Map<String, String> turnOfOp = new HashMap<>();

  private Checker(List<Entry> history, Stored stored) {
    this.stored = stored;
    for (Entry e : history) {
      if (e.type().equals(Entry.INVOKE)) {
        ops.put(e.op(), new Op(e));
      } else {
        Op op = ops.get(e.op());
        if (op != null) {
          op.completion = e;
        }
      }
    }
  }

  static Report check(List<Entry> history, Stored stored) {
    Checker c = new Checker(history, stored);
    c.run();
    return new Report(List.copyOf(c.anomalies), c.counts);
  }

  private void anomaly(Kind kind, String detail) {
    anomalies.add(new Anomaly(kind, detail));
  }

  private void count(String what) {
    counts.merge(what, 1, Integer::sum);
  }

  private void run() {
    for (Op op : ops.values()) {
      count("ops." + op.invoke.kind() + "." + op.outcome());
      for (Step s : op.invoke.steps()) {
        count("steps." + s.f());
      }
    }
    stored.events().forEach(this::checkTurns);
    checkOpsAgainstEvents();
    Set<KeyRef> keys = new LinkedHashSet<>();
    for (Op op : ops.values()) {
      for (Step s : op.invoke.steps()) {
        keys.add(KeyRef.of(op.invoke.user(), op.invoke.session(), s.k()));
      }
    }
    for (KeyRef k : keys) {
      if (k.counter()) {
        checkCounter(k);
      } else {
        checkRegister(k);
      }
    }
    stored.events().forEach(this::replaySession);
  }

  // --- Whole turns, one at a time ------------------------------------------------------------

  private static boolean closing(StoredEvent e) {
    return e.errorCode() != null || (e.errorResponse() && e.calls().isEmpty());
  }

  private void checkTurns(String session, List<StoredEvent> events) {
    Map<String, List<StoredEvent>> byInvocation = new LinkedHashMap<>();
    invocations.put(session, byInvocation);
    String previous = null;
    for (int i = 0; i < events.size(); i++) {
      StoredEvent e = events.get(i);
      String id = e.invocationId();
      List<StoredEvent> mine = byInvocation.get(id);
      if (mine != null && !id.equals(previous)) {
        // The invocation resumes after another one's events.
        Kind kind = closing(e) ? Kind.INTERLEAVED_TURNS : Kind.WRITE_AFTER_LEASE_LOST;
        anomaly(
            kind,
            "session "
                + session
                + ": event "
                + i
                + " ("
                + e
                + ") of invocation "
                + id
                + " comes after invocation "
                + previous
                + "'s events; around it: "
                + excerpt(events, i));
      } else if (mine != null && mine.get(mine.size() - 1).errorCode() != null && !closing(e)) {
        anomaly(
            Kind.WRITE_AFTER_LEASE_LOST,
            "session "
                + session
                + ": event "
                + i
                + " ("
                + e
                + ") of invocation "
                + id
                + " comes after the event that closed it ("
                + mine.get(mine.size() - 1)
                + ")");
      }
      byInvocation.computeIfAbsent(id, k -> new ArrayList<>()).add(e);
      previous = id;
    }
    for (Map.Entry<String, List<StoredEvent>> inv : byInvocation.entrySet()) {
      String id = inv.getKey();
      List<StoredEvent> list = inv.getValue();
      count("stored.invocations");
      StoredEvent first = list.get(0);
      String where = "session " + session + ", invocation " + id + " " + list;
      if (!"user".equals(first.author())) {
        boolean onlyClosing = list.stream().allMatch(Checker::closing);
        anomaly(
            onlyClosing ? Kind.HEADLESS_TURN : Kind.MALFORMED_TURN,
            "does not start with a user event: " + where);
        continue;
      }
      if (first.rewindBefore() != null) {
        count("stored.rewinds");
        if (list.size() != 1) {
          anomaly(Kind.MALFORMED_TURN, "a rewind with more than one event: " + where);
        }
        continue;
      }
      String opId = first.opId();
      if (opId == null) {
        anomaly(Kind.MALFORMED_TURN, "its user event names no operation: " + where);
        continue;
      }
      String previousTurn = turnOfOp.put(opId, session + " " + id);
      if (previousTurn != null) {
        anomaly(
            Kind.MALFORMED_TURN,
            "operation " + opId + " stored twice: as " + previousTurn + " and as " + where);
      }
      if (!list.get(list.size() - 1).closes()) {
        anomaly(Kind.UNCLOSED_TURN, "not closed (no final answer or error event): " + where);
      }
      Set<String> calls = new LinkedHashSet<>();
      Set<String> answered = new HashSet<>();
      for (StoredEvent e : list) {
        calls.addAll(e.calls());
        answered.addAll(e.responses());
      }
      calls.removeAll(answered);
      if (!calls.isEmpty()) {
        StoredEvent next = after(events, list.get(list.size() - 1));
        anomaly(
            next != null && next.rewindBefore() != null
                ? Kind.UNANSWERED_BEFORE_REWIND
                : Kind.MALFORMED_TURN,
            "function calls "
                + calls
                + " never answered: "
                + where
                + (next == null ? "" : "; next event: " + next));
      }
    }
  }

  /** The event stored right after {@code e}, or null. */
  private static @Nullable StoredEvent after(List<StoredEvent> events, StoredEvent e) {
    for (int i = 0; i < events.size() - 1; i++) {
      if (events.get(i) == e) {
        return events.get(i + 1);
      }
    }
    return null;
  }

  private static String excerpt(List<StoredEvent> events, int i) {
    List<String> lines = new ArrayList<>();
    for (int j = Math.max(0, i - 4); j < Math.min(events.size(), i + 3); j++) {
      lines.add(j + ": " + events.get(j));
    }
    return String.join(" | ", lines);
  }

  // --- Operations against the stored events ------------------------------------------------------

  /** The stored events of the op's turn, or null if it is not stored. */
  private @Nullable List<StoredEvent> turnEvents(Op op) {
    String where = turnOfOp.get(op.invoke.op());
    if (where == null) {
      return null;
    }
    int space = where.indexOf(' ');
    return invocations.get(where.substring(0, space)).get(where.substring(space + 1));
  }

  /** Whether the write of step {@code s} is in the tool events of a turn. */
  private static boolean visible(Step s, List<StoredEvent> turn) {
    for (StoredEvent e : turn) {
      if ("user".equals(e.author()) || !e.delta().containsKey(s.k())) {
        continue;
      }
      Object v = e.delta().get(s.k());
      switch (s.f()) {
        case Step.WRITE, Step.RMW -> {
          if (Objects.equals(v, s.v())) {
            return true;
          }
        }
        case Step.DEL -> {
          if (v == null) {
            return true;
          }
        }
        case Step.INCR -> {
          if (v instanceof Number) {
            return true;
          }
        }
        default -> {}
      }
    }
    return false;
  }

  /**
   * Whether step {@code i} of an acknowledged op changed its key: every write does, a delete only
   * if the key was there.
   */
  private static boolean changes(Op op, int i) {
    Step s = op.invoke.steps().get(i);
    if (!s.writes()) {
      return false;
    }
    return !s.f().equals(Step.DEL)
        || Boolean.TRUE.equals(
            Objects.requireNonNull(op.completion).results().get(i).get("removed"));
  }

  private void checkOpsAgainstEvents() {
    Map<String, StoredEvent> rewindEvents = new HashMap<>();
    stored
        .events()
        .forEach(
            (session, events) -> {
              for (StoredEvent e : events) {
                if (e.rewindBefore() != null) {
                  rewindEvents.put(e.invocationId(), e);
                }
              }
            });
    for (Op op : ops.values()) {
      if (Entry.REWIND.equals(op.invoke.kind())) {
        String id = op.invocationId();
        if (op.ok() && (id == null || !rewindEvents.containsKey(id))) {
          anomaly(Kind.LOST_WRITE, "acknowledged rewind " + op + " (event " + id + ") not stored");
        }
        continue;
      }
      List<Step> writes = new ArrayList<>();
      for (int i = 0; i < op.invoke.steps().size(); i++) {
        Step s = op.invoke.steps().get(i);
        if (s.writes() && (op.ok() ? changes(op, i) : !s.f().equals(Step.DEL) || op.failed())) {
          writes.add(s);
        }
      }
      List<StoredEvent> turn = turnEvents(op);
      if (op.ok() && turn == null) {
        anomaly(Kind.LOST_WRITE, "acknowledged turn " + op + " is not stored at all");
        continue;
      }
      if (writes.isEmpty() || turn == null) {
        continue;
      }
      List<Step> seen = writes.stream().filter(s -> visible(s, turn)).toList();
      if (op.ok() && seen.size() < writes.size()) {
        List<Step> lost = new ArrayList<>(writes);
        lost.removeAll(seen);
        anomaly(Kind.LOST_WRITE, "acknowledged " + op + ": " + lost + " not stored; " + turn);
      } else if (op.failed() && !seen.isEmpty()) {
        anomaly(
            Kind.ABORTED_WRITE_VISIBLE,
            op + " (" + op.completion.error() + "): " + seen + " stored; " + turn);
      } else if (op.indeterminate() && !seen.isEmpty() && seen.size() < writes.size()) {
        anomaly(Kind.PARTIAL_WRITE, op + ": only " + seen + " stored; " + turn);
      }
    }
  }

  // --- Counters ----------------------------------------------------------------------------------

  /** The sessions whose state holds key {@code k}. */
  private List<String> sessionsSeeing(KeyRef k) {
    List<String> out = new ArrayList<>();
    for (String s : stored.finalStates().keySet()) {
      if (k.owner().isEmpty() || s.equals(k.owner()) || s.startsWith(k.owner() + "/")) {
        out.add(s);
      }
    }
    return out;
  }

  /** The final value of {@code k} (null: absent), the same in every session that sees it. */
  private @Nullable Object finalValue(KeyRef k) {
    Object value = null;
    String first = null;
    for (String s : sessionsSeeing(k)) {
      Object v = stored.finalStates().get(s).get(k.key());
      if (first == null) {
        first = s;
        value = v;
      } else if (!Objects.equals(v, value)) {
        anomaly(
            Kind.FINAL_STATE_MISMATCH,
            k + " is " + value + " in session " + first + " but " + v + " in session " + s);
      }
    }
    return value;
  }

  private boolean sameScope(KeyRef k, Op op) {
    return op.invoke.steps().stream()
        .anyMatch(s -> KeyRef.of(op.invoke.user(), op.invoke.session(), s.k()).equals(k));
  }

  private void checkCounter(KeyRef k) {
    count("keys.counters");
    long acked = 0;
    long unknown = 0;
    List<Op> incrs = new ArrayList<>();
    for (Op op : ops.values()) {
      if (!sameScope(k, op)) {
        continue;
      }
      for (Step s : op.invoke.steps()) {
        if (s.f().equals(Step.INCR) && s.k().equals(k.key())) {
          incrs.add(op);
          if (op.ok()) {
            acked++;
          } else if (op.indeterminate()) {
            unknown++;
          }
        }
      }
    }
    Object f = finalValue(k);
    long value = f == null ? 0 : ((Number) f).longValue();
    if (value < acked || value > acked + unknown) {
      anomaly(
          Kind.COUNTER_MISMATCH,
          k
              + " is "
              + value
              + " but "
              + acked
              + " increments were acknowledged and "
              + unknown
              + " have an unknown outcome");
    }
    // Each stored increment (by one) recorded the value it produced: exactly 1..value, once each.
    List<Long> results = new ArrayList<>();
    stored
        .events()
        .forEach(
            (session, events) -> {
              if (!k.owner().isEmpty() && !session.startsWith(k.owner() + "/")) {
                return;
              }
              for (StoredEvent e : events) {
                if (!"user".equals(e.author()) && e.delta().containsKey(k.key())) {
                  Object v = e.delta().get(k.key());
                  results.add(v instanceof Number n ? n.longValue() : -1L);
                }
              }
            });
    results.sort(Comparator.naturalOrder());
    List<Long> expected = new ArrayList<>();
    for (long i = 1; i <= value; i++) {
      expected.add(i);
    }
    if (!results.equals(expected)) {
      anomaly(
          Kind.COUNTER_MISMATCH,
          k
              + " is "
              + value
              + " but its stored increments recorded "
              + (results.size() > 40 ? results.size() + " results" : results.toString())
              + " (expected 1.."
              + value
              + " once each)");
    }
    // A read sees at least the increments acknowledged before it began, at most those begun
    // before it ended.
    for (Op r : ops.values()) {
      if (!r.ok() || !sameScope(k, r)) {
        continue;
      }
      List<Step> steps = r.invoke.steps();
      for (int i = 0; i < steps.size(); i++) {
        if (!steps.get(i).f().equals(Step.READ) || !steps.get(i).k().equals(k.key())) {
          continue;
        }
        Object seen = r.read(i);
        long n = seen == null ? 0 : ((Number) seen).longValue();
        long before = 0;
        long begun = 0;
        for (Op w : incrs) {
          if (w.ok() && w.end() < r.start()) {
            before++;
          }
          if (!w.failed() && w.start() < r.end() && w != r) {
            begun++;
          }
        }
        if (n < before) {
          anomaly(
              Kind.STALE_READ,
              r + " read " + k + " = " + n + " after " + before + " increments were acknowledged");
        } else if (n > begun) {
          anomaly(
              Kind.PHANTOM_READ,
              r + " read " + k + " = " + n + " but only " + begun + " increments had begun");
        }
      }
    }
  }

  // --- Registers ---------------------------------------------------------------------------------

  /** The changes of a register, oldest first. */
  private List<Change> changes(KeyRef k) {
    if (k.sessionScoped()) {
      List<Change> out = new ArrayList<>();
      for (StoredEvent e : stored.events().getOrDefault(k.owner(), List.of())) {
        if (e.delta().containsKey(k.key())) {
          out.add(new Change(e.delta().get(k.key()), e.invocationId(), k.owner()));
        }
      }
      return out;
    }
    List<Change> history = stored.keyHistories().getOrDefault(k, List.of());
    // The state history must list exactly the changes the stored events made.
    Map<String, Integer> fromEvents = new TreeMap<>();
    stored
        .events()
        .forEach(
            (session, events) -> {
              if (!k.owner().isEmpty() && !session.startsWith(k.owner() + "/")) {
                return;
              }
              for (StoredEvent e : events) {
                if (e.delta().containsKey(k.key())) {
                  fromEvents.merge(
                      session + " " + e.invocationId() + " " + e.delta().get(k.key()),
                      1,
                      Integer::sum);
                }
              }
            });
    Map<String, Integer> fromHistory = new TreeMap<>();
    for (Change c : history) {
      fromHistory.merge(c.session() + " " + c.invocationId() + " " + c.value(), 1, Integer::sum);
    }
    if (!fromEvents.equals(fromHistory)) {
      Map<String, Integer> missing = new TreeMap<>(fromEvents);
      fromHistory.forEach((c, n) -> missing.merge(c, -n, Integer::sum));
      missing.values().removeIf(n -> n == 0);
      anomaly(
          Kind.HISTORY_MISMATCH,
          "stateHistory of "
              + k
              + " has "
              + history.size()
              + " changes, the stored events "
              + fromEvents.values().stream().mapToInt(Integer::intValue).sum()
              + "; differences (events minus history): "
              + missing);
    }
    return history;
  }

  private static int position(List<Change> changes, String invocationId, @Nullable Object value) {
    for (int i = changes.size() - 1; i >= 0; i--) {
      Change c = changes.get(i);
      if (c.invocationId().equals(invocationId) && Objects.equals(c.value(), value)) {
        return i;
      }
    }
    return -1;
  }

  private void checkRegister(KeyRef k) {
    count("keys.registers");
    List<Change> changes = changes(k);
    // Acknowledged writes: where they are in the key's history.
    List<long[]> ackedWrites = new ArrayList<>(); // {end nanos, position}
    for (Op op : ops.values()) {
      if (!op.ok() || !sameScope(k, op) || op.invocationId() == null) {
        continue;
      }
      List<Step> steps = op.invoke.steps();
      for (int i = 0; i < steps.size(); i++) {
        Step s = steps.get(i);
        if (!s.k().equals(k.key()) || !changes(op, i)) {
          continue;
        }
        Object value = s.f().equals(Step.DEL) ? null : s.v();
        int p = position(changes, op.invocationId(), value);
        if (p < 0) {
          anomaly(
              Kind.LOST_WRITE,
              "acknowledged " + op + ": " + s + " is not among the changes of " + k);
          continue;
        }
        ackedWrites.add(new long[] {op.end(), p});
        if (s.f().equals(Step.RMW)) {
          Object read = op.read(i);
          Object replaced = p == 0 ? null : changes.get(p - 1).value();
          if (!Objects.equals(read, replaced)) {
            anomaly(
                Kind.RMW_NOT_LATEST,
                op
                    + " read "
                    + k
                    + " = "
                    + read
                    + " but its write replaced "
                    + replaced
                    + " (change "
                    + p
                    + " of "
                    + changes.size()
                    + ": "
                    + window(changes, p)
                    + ")");
          }
        }
      }
    }
    Object last = changes.isEmpty() ? null : changes.get(changes.size() - 1).value();
    Object fin = finalValue(k);
    if (!Objects.equals(last, fin)) {
      anomaly(
          Kind.FINAL_STATE_MISMATCH,
          k + " reads " + fin + " at the end, but its last stored change made it " + last);
    }
    if (k.sessionScoped()) {
      return; // reads of session keys are checked exactly by the session's replay
    }
    ackedWrites.sort(Comparator.comparingLong(w -> w[0]));
    for (Op r : ops.values()) {
      if (!r.ok() || !sameScope(k, r)) {
        continue;
      }
      List<Step> steps = r.invoke.steps();
      for (int i = 0; i < steps.size(); i++) {
        Step s = steps.get(i);
        if (!s.k().equals(k.key()) || !s.reads()) {
          continue;
        }
        Object read = r.read(i);
        int latest = read == null ? -1 : Integer.MIN_VALUE;
        for (int p = 0; p < changes.size(); p++) {
          if (Objects.equals(changes.get(p).value(), read)) {
            latest = p;
          }
        }
        if (latest == Integer.MIN_VALUE) {
          anomaly(Kind.PHANTOM_READ, r + " read " + k + " = " + read + ", which nobody wrote");
          continue;
        }
        for (long[] w : ackedWrites) {
          if (w[0] >= r.start()) {
            break;
          }
          if (w[1] > latest) {
            anomaly(
                Kind.STALE_READ,
                r
                    + " read "
                    + k
                    + " = "
                    + read
                    + " (at most change "
                    + latest
                    + ") although change "
                    + w[1]
                    + " ("
                    + changes.get((int) w[1])
                    + ") was acknowledged before the read began");
            break;
          }
        }
      }
    }
  }

  private static String window(List<Change> changes, int p) {
    return changes.subList(Math.max(0, p - 2), Math.min(changes.size(), p + 2)).toString();
  }

  // --- A session replayed ------------------------------------------------------------------------

  private static boolean sessionKey(String key) {
    return !key.startsWith("app:") && !key.startsWith("user:");
  }

  private void replaySession(String session, List<StoredEvent> events) {
    Map<String, Object> state = new TreeMap<>();
    Map<String, Map<String, Object>> before = new HashMap<>();
    Map<String, Integer> firstIndex = new HashMap<>();
    for (int i = 0; i < events.size(); i++) {
      StoredEvent e = events.get(i);
      if (!before.containsKey(e.invocationId())) {
        before.put(e.invocationId(), new TreeMap<>(state));
        firstIndex.put(e.invocationId(), i);
      }
      e.delta()
          .forEach(
              (k, v) -> {
                if (sessionKey(k)) {
                  if (v == null) {
                    state.remove(k);
                  } else {
                    state.put(k, v);
                  }
                }
              });
      String target = e.rewindBefore();
      if (target != null) {
        Map<String, Object> expected = before.get(target);
        Integer x = firstIndex.get(target);
        if (expected == null || x == null) {
          anomaly(
              Kind.REWIND_MISMATCH,
              "session " + session + ": rewind " + e + " names an invocation it never held");
          continue;
        }
        if (!expected.equals(state)) {
          anomaly(
              Kind.REWIND_MISMATCH,
              "session "
                  + session
                  + ": after rewind event "
                  + i
                  + " the session keys are "
                  + state
                  + ", before invocation "
                  + target
                  + " they were "
                  + expected);
        }
        checkSharedRewind(session, events, x, i);
      }
    }
    Map<String, Object> fin = new TreeMap<>();
    stored
        .finalStates()
        .getOrDefault(session, Map.of())
        .forEach(
            (k, v) -> {
              if (sessionKey(k)) {
                fin.put(k, v);
              }
            });
    if (stored.finalStates().containsKey(session) && !fin.equals(state)) {
      anomaly(
          Kind.FINAL_STATE_MISMATCH,
          "session " + session + " holds " + fin + " but its events replay to " + state);
    }
    for (Op op : ops.values()) {
      if (!op.ok() || !op.session().equals(session) || op.invocationId() == null) {
        continue;
      }
      Map<String, Object> at = before.get(op.invocationId());
      List<Step> steps = op.invoke.steps();
      for (int i = 0; i < steps.size(); i++) {
        Step s = steps.get(i);
        if (!s.reads() || !sessionKey(s.k()) || at == null) {
          continue;
        }
        if (!Objects.equals(op.read(i), at.get(s.k()))) {
          anomaly(
              Kind.READ_MISMATCH,
              op
                  + " read "
                  + s.k()
                  + " = "
                  + op.read(i)
                  + " but the session's events before its turn give "
                  + at.get(s.k()));
        }
      }
    }
  }

  /**
   * The {@code app:}/{@code user:} keys a rewind (event {@code e} of {@code session}, undoing its
   * events from {@code x}) wrote: each must have been last changed by an undone event, and gets the
   * value it had before the first undone change.
   */
  private void checkSharedRewind(String session, List<StoredEvent> events, int x, int e) {
    StoredEvent rewind = events.get(e);
    Set<String> undone = new HashSet<>();
    for (int i = x; i < e; i++) {
      undone.add(events.get(i).invocationId());
    }
    for (Map.Entry<String, @Nullable Object> w : rewind.delta().entrySet()) {
      if (sessionKey(w.getKey())) {
        continue;
      }
      String user = session.substring(0, session.indexOf('/'));
      KeyRef k = KeyRef.of(user, session.substring(session.indexOf('/') + 1), w.getKey());
      List<Change> changes = stored.keyHistories().getOrDefault(k, List.of());
      int p = position(changes, rewind.invocationId(), w.getValue());
      if (p < 0) {
        continue; // reported by the history check
      }
      int firstUndone = -1;
      for (int i = 0; i < p; i++) {
        Change c = changes.get(i);
        if (c.session().equals(session) && undone.contains(c.invocationId())) {
          firstUndone = i;
          break;
        }
      }
      // The last change before the rewind that changed the value: a write of the value the key
      // already held changes nothing, and no conditional write can tell it from no write.
      Change previous = null;
      Object value = null;
      for (int i = 0; i < p; i++) {
        Change c = changes.get(i);
        if (!Objects.equals(value, c.value())) {
          previous = c;
        }
        value = c.value();
      }
      if (firstUndone < 0
          || previous == null
          || !previous.session().equals(session)
          || !undone.contains(previous.invocationId())) {
        anomaly(
            Kind.REWIND_MISMATCH,
            "rewind "
                + rewind
                + " of session "
                + session
                + " restored "
                + k
                + " although its last change of value before the rewind ("
                + previous
                + ") was not one of the undone events");
        continue;
      }
      Object expected = firstUndone == 0 ? null : changes.get(firstUndone - 1).value();
      if (!Objects.equals(expected, w.getValue())) {
        anomaly(
            Kind.REWIND_MISMATCH,
            "rewind "
                + rewind
                + " of session "
                + session
                + " set "
                + k
                + " to "
                + w.getValue()
                + " but before the first undone change it was "
                + expected);
      }
    }
  }
}
